//! Who answers for the model: the host's mock, or a real provider over HTTP. The
//! request body, URL and headers come from `mcpg_host::provider` (what the page
//! sends); the key comes from the usual environment variable and is never shown.

use std::time::Duration;

use mcpg_host::provider::{self, Provider};

pub use super::spec::ModelSpec;
use mcpg_host::{MockModel, ToolLoop};
use serde_json::Value;

/// The environment variable that holds `p`'s key, and the one that may move its base.
fn env_names(p: Provider) -> (Option<&'static str>, &'static str) {
    match p {
        Provider::Anthropic => (Some("ANTHROPIC_API_KEY"), "ANTHROPIC_BASE_URL"),
        Provider::OpenAiChat | Provider::OpenAiResponses => {
            (Some("OPENAI_API_KEY"), "OPENAI_BASE_URL")
        }
        Provider::Gemini => (Some("GEMINI_API_KEY"), "GEMINI_BASE_URL"),
        Provider::Ollama => (None, "OLLAMA_HOST"),
    }
}

/// One HTTP answer from a model API.
#[derive(Debug)]
pub struct HttpReply {
    /// The status code.
    pub status: u16,
    /// The body text.
    pub body: String,
    /// `retry-after` in seconds, when the API sent one.
    pub retry_after: Option<Duration>,
}

/// A model ready to be asked: the mock, or a real one with its endpoint and key.
pub struct Model {
    spec: ModelSpec,
    base: String,
    key: String,
    http: reqwest::Client,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("Model")
            .field("spec", &self.spec)
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

/// Why a model could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The provider needs a key and its variable is unset or empty.
    #[error("{0} is not set: {1} needs an API key (mcpg reads keys from the environment only)")]
    NoKey(&'static str, &'static str),
    /// The HTTP client could not be built.
    #[error("could not start an HTTP client: {0}")]
    Client(String),
}

impl Model {
    /// The model `spec` names, reading its key and base URL from the environment.
    pub fn new(spec: ModelSpec) -> Result<Model, ModelError> {
        let (key, base) = match &spec {
            ModelSpec::Mock(_) => (String::new(), String::new()),
            ModelSpec::Real { provider, base, .. } => {
                let (key_var, base_var) = env_names(*provider);
                let key = key_var
                    .and_then(|v| std::env::var(v).ok())
                    .unwrap_or_default();
                if let Some(var) = key_var
                    && base.is_none()
                    && key.trim().is_empty()
                {
                    return Err(ModelError::NoKey(var, provider.label()));
                }
                let base = base
                    .clone()
                    .or_else(|| {
                        std::env::var(base_var)
                            .ok()
                            .filter(|b| !b.trim().is_empty())
                    })
                    .unwrap_or_else(|| provider::default_base(*provider).to_owned());
                (key, base)
            }
        };
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(300))
            // The API key goes to the provider's origin only.
            .redirect(mcpg_transport::http::redirect::same_origin())
            .build()
            .map_err(|e| ModelError::Client(e.to_string()))?;
        Ok(Model {
            spec,
            base,
            key,
            http,
        })
    }

    /// What `--model` said.
    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// The mock, when this is the mock.
    pub fn is_mock(&self) -> bool {
        matches!(self.spec, ModelSpec::Mock(_))
    }

    /// Asks the mock for the loop's next turn (it records the step itself).
    pub fn mock_turn(&self, run: &mut ToolLoop) {
        run.mock_turn(&MockModel);
    }

    /// The request line and headers as the step shows them (key masked).
    pub fn shown_head(&self, run: &ToolLoop) -> Value {
        let ep = provider::endpoint(run.provider(), &self.base, &self.spec.model_name());
        provider::shown_request(run.provider(), &ep, &self.key)
    }

    /// POSTs the loop's current request to the real model. `Err` is a failure to
    /// reach it at all (its text never holds the key: the key travels in a header).
    pub async fn post(&self, run: &ToolLoop) -> Result<HttpReply, String> {
        let p = run.provider();
        let ep = provider::endpoint(p, &self.base, &self.spec.model_name());
        let mut req = self.http.post(&ep.url);
        for (k, v) in &ep.headers {
            req = req.header(*k, v);
        }
        if let Some((k, v)) = provider::key_header(p, &self.key) {
            req = req.header(k, v);
        }
        let body = run.model_request().to_string();
        let resp = req
            .body(body)
            .send()
            .await
            .map_err(|e| unreachable(&ep.url, &e))?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(|s| Duration::from_secs_f64(s.min(60.0)));
        let body = resp.text().await.map_err(|e| e.without_url().to_string())?;
        Ok(HttpReply {
            status,
            body,
            retry_after,
        })
    }
}

/// Why `url` gave no answer, with every cause reqwest knows ("connection refused").
/// The URL holds no key (keys travel in headers).
fn unreachable(url: &str, e: &reqwest::Error) -> String {
    let what = if e.is_timeout() {
        "no answer in time"
    } else if e.is_connect() {
        "could not connect"
    } else {
        "the request failed"
    };
    let mut text = format!("{url}: {what}");
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}

/// Tokens a provider's reply reports: (input, output), when it says.
pub fn usage(p: Provider, body: &Value) -> Option<(u64, u64)> {
    let n = |v: &Value, a: &str, b: &str| Some((v.get(a)?.as_u64()?, v.get(b)?.as_u64()?));
    match p {
        Provider::Anthropic | Provider::OpenAiResponses => {
            n(body.get("usage")?, "input_tokens", "output_tokens")
        }
        Provider::OpenAiChat => n(body.get("usage")?, "prompt_tokens", "completion_tokens"),
        Provider::Gemini => n(
            body.get("usageMetadata")?,
            "promptTokenCount",
            "candidatesTokenCount",
        ),
        Provider::Ollama => n(body, "prompt_eval_count", "eval_count"),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn usage_is_read_per_format() {
        let v = serde_json::json!({"usage": {"prompt_tokens": 3, "completion_tokens": 4}});
        assert_eq!(usage(Provider::OpenAiChat, &v), Some((3, 4)));
        assert_eq!(usage(Provider::Anthropic, &v), None);
        let g = serde_json::json!({"usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 2}});
        assert_eq!(usage(Provider::Gemini, &g), Some((1, 2)));
    }
}
