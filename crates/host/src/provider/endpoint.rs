//! Where a request goes: the URL and headers for (provider, base URL, model), and how
//! the API key travels. Pure, so the page's fetch and the tests agree on every byte;
//! the key itself is only ever placed by [`key_header`] and shown through [`mask_key`].

use super::Provider;
pub use mcpg_loop_data::{default_base, default_model, needs_key};

/// The HTTP side of one model request, without the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// Full URL to POST to.
    pub url: String,
    /// Headers that carry no secret (content type, API version, browser access).
    pub headers: Vec<(&'static str, String)>,
}

/// The URL and non-secret headers for a request to `provider` at `base` with `model`.
/// `base` may end in `/` or already in `/v1` (as LM Studio and vLLM document it): the
/// path is not doubled. Any OpenAI-compatible server is [`Provider::OpenAiChat`] at
/// its own base URL.
pub fn endpoint(provider: Provider, base: &str, model: &str) -> Endpoint {
    let base = base.trim().trim_end_matches('/');
    let mut headers = vec![("content-type", "application/json".to_owned())];
    let path = match provider {
        Provider::Anthropic => {
            headers.push(("anthropic-version", "2023-06-01".to_owned()));
            // Without it Anthropic refuses calls from a web page (CORS).
            headers.push((
                "anthropic-dangerous-direct-browser-access",
                "true".to_owned(),
            ));
            "/v1/messages".to_owned()
        }
        Provider::OpenAiChat => "/v1/chat/completions".to_owned(),
        Provider::OpenAiResponses => "/v1/responses".to_owned(),
        Provider::Gemini => format!("/v1beta/models/{}:generateContent", encode(model)),
        Provider::Ollama => "/api/chat".to_owned(),
    };
    let path = match path.strip_prefix("/v1") {
        Some(rest) if base.ends_with("/v1") => rest.to_owned(),
        _ => path,
    };
    Endpoint {
        url: format!("{base}{path}"),
        headers,
    }
}

/// The header that carries `key` for `provider`, or `None` when there is no key to
/// send (none typed, or Ollama's native API, which takes none).
pub fn key_header(provider: Provider, key: &str) -> Option<(&'static str, String)> {
    let key = key.trim();
    if key.is_empty() {
        return None;
    }
    match provider {
        Provider::Anthropic => Some(("x-api-key", key.to_owned())),
        Provider::Gemini => Some(("x-goog-api-key", key.to_owned())),
        Provider::OpenAiChat | Provider::OpenAiResponses => {
            Some(("authorization", format!("Bearer {key}")))
        }
        Provider::Ollama => None,
    }
}

/// A key as the page may show it: its last four characters at most, so the learner
/// can tell keys apart and nobody can read one off the screen.
pub fn mask_key(key: &str) -> String {
    let chars: Vec<char> = key.trim().chars().collect();
    if chars.len() < 12 {
        return "••••".to_owned();
    }
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("••••{tail}")
}

/// The request line and headers as the page shows them (step 3): the key masked.
pub fn shown_request(provider: Provider, ep: &Endpoint, key: &str) -> serde_json::Value {
    let mut headers = serde_json::Map::new();
    for (k, v) in &ep.headers {
        headers.insert((*k).to_owned(), serde_json::Value::from(v.as_str()));
    }
    if let Some((name, value)) = key_header(provider, key) {
        let masked = match value.strip_prefix("Bearer ") {
            Some(k) => format!("Bearer {}", mask_key(k)),
            None => mask_key(&value),
        };
        headers.insert(name.to_owned(), serde_json::Value::from(masked));
    }
    serde_json::json!({"method": "POST", "url": ep.url, "headers": headers})
}

/// Percent-encodes a path segment (a model name such as `models/gemini-2.5-flash` stays one segment).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
