//! `--model`, parsed: the mock (in one provider's shapes) or a real provider, its
//! base URL when given and its model name.

use mcpg_host::provider::Provider;

/// A `--model` value, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelSpec {
    /// The host's deterministic mock, showing `format`'s exact shapes.
    Mock(Provider),
    /// A real model: its API format, base URL (`None`: the environment's or the
    /// provider's public one) and model name.
    Real {
        /// The API format.
        provider: Provider,
        /// An explicit base URL (`openai-compatible:BASE_URL:MODEL`).
        base: Option<String>,
        /// The model's name.
        model: String,
    },
}

/// Why a `--model` value was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// An unknown provider prefix.
    #[error(
        "unknown model {0:?}: use mock[:FORMAT], anthropic:MODEL, openai:MODEL, openai-responses:MODEL, gemini:MODEL, ollama:MODEL or openai-compatible:BASE_URL:MODEL"
    )]
    Unknown(String),
    /// A provider without a model name.
    #[error("{0:?} names no model (write PROVIDER:MODEL)")]
    NoModel(String),
}

impl ModelSpec {
    /// Parses `mock`, `mock:FORMAT`, `PROVIDER:MODEL` or `openai-compatible:BASE_URL:MODEL`.
    pub fn parse(text: &str) -> Result<ModelSpec, SpecError> {
        let text = text.trim();
        if text == "mock" {
            return Ok(ModelSpec::Mock(Provider::Anthropic));
        }
        let (kind, rest) = text
            .split_once(':')
            .ok_or_else(|| SpecError::Unknown(text.to_owned()))?;
        if kind == "mock" {
            return format_of(rest)
                .map(ModelSpec::Mock)
                .ok_or_else(|| SpecError::Unknown(text.to_owned()));
        }
        if kind == "openai-compatible" {
            // The base URL has colons of its own: the model is after the last one.
            let (base, model) = rest
                .rsplit_once(':')
                .filter(|(b, m)| !b.is_empty() && !m.is_empty() && !m.starts_with("//"))
                .ok_or_else(|| SpecError::NoModel(text.to_owned()))?;
            return Ok(ModelSpec::Real {
                provider: Provider::OpenAiChat,
                base: Some(base.to_owned()),
                model: model.to_owned(),
            });
        }
        let provider = format_of(kind).ok_or_else(|| SpecError::Unknown(text.to_owned()))?;
        if rest.is_empty() {
            return Err(SpecError::NoModel(text.to_owned()));
        }
        Ok(ModelSpec::Real {
            provider,
            base: None,
            model: rest.to_owned(),
        })
    }

    /// The API format the loop speaks.
    pub fn provider(&self) -> Provider {
        match self {
            ModelSpec::Mock(p) | ModelSpec::Real { provider: p, .. } => *p,
        }
    }

    /// The model's name in requests (the mock's is the page's, `mock-model`).
    pub fn model_name(&self) -> String {
        match self {
            ModelSpec::Mock(_) => "mock-model".to_owned(),
            ModelSpec::Real { model, .. } => model.clone(),
        }
    }

    /// The label in tables and reports (`mock`, `anthropic:claude-…`).
    pub fn label(&self) -> String {
        match self {
            ModelSpec::Mock(Provider::Anthropic) => "mock".to_owned(),
            ModelSpec::Mock(p) => format!("mock:{}", p.id()),
            ModelSpec::Real {
                base: Some(b),
                model,
                ..
            } => format!("openai-compatible:{b}:{model}"),
            ModelSpec::Real {
                provider, model, ..
            } => format!("{}:{model}", prefix(*provider)),
        }
    }
}

/// A provider by the word `--model` uses for it.
fn format_of(word: &str) -> Option<Provider> {
    match word {
        "openai" => Some(Provider::OpenAiChat),
        w => Provider::from_id(w),
    }
}

fn prefix(p: Provider) -> &'static str {
    match p {
        Provider::OpenAiChat => "openai",
        p => p.id(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(
            ModelSpec::parse("mock"),
            Ok(ModelSpec::Mock(Provider::Anthropic))
        );
        assert_eq!(
            ModelSpec::parse("mock:gemini"),
            Ok(ModelSpec::Mock(Provider::Gemini))
        );
        assert_eq!(
            ModelSpec::parse("openai:gpt-4.1-mini").unwrap().provider(),
            Provider::OpenAiChat
        );
        assert_eq!(
            ModelSpec::parse("openai-compatible:http://127.0.0.1:1234/v1:qwen"),
            Ok(ModelSpec::Real {
                provider: Provider::OpenAiChat,
                base: Some("http://127.0.0.1:1234/v1".into()),
                model: "qwen".into()
            })
        );
        assert_eq!(
            ModelSpec::parse("ollama:llama3.2:1b").unwrap().model_name(),
            "llama3.2:1b"
        );
        assert!(matches!(
            ModelSpec::parse("gpt"),
            Err(SpecError::Unknown(_))
        ));
        assert!(matches!(
            ModelSpec::parse("gemini:"),
            Err(SpecError::NoModel(_))
        ));
        assert!(matches!(
            ModelSpec::parse("openai-compatible:http://x"),
            Err(SpecError::NoModel(_))
        ));
    }
}
