//! `POST /api/oauth-fetch`: one HTTP exchange on the page's behalf, for
//! authorization servers that send no CORS headers (the page's own `fetch` of
//! their metadata, registration or token endpoint fails; the bridge is not a browser).
//!
//! Asked: `{"method":"GET"|"POST","url":"http(s)://…","headers":[["k","v"],…],"body":null|"…"}`.
//! Answered: `{"status":200,"headers":[["k","v"],…],"body":"…"}` whatever the status
//! upstream; a refused ask or an unreachable server is a `{"error": "…"}` answer.
//!
//! Limits: GET and POST only, `https://` (or `http://` to loopback, the shared
//! `mcpg-safe-url` rule), no private destination unless the bridge was started with
//! `--allow-private-auth` (see `egress`: checked on the resolved address, connected
//! to the address checked), redirects are returned (never followed), only the headers an OAuth exchange needs are sent, the bridge's
//! token and cookies never leave (an ask carrying the token is refused outright),
//! `Set-Cookie` never comes back, the answer is capped and the exchange times out.

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::egress::{Blocked, blocked_in, check_host};
use crate::reply::error;
use crate::state::AppState;

/// The only request headers passed on: what discovery, registration and token
/// requests use (`Authorization` is the page's `client_secret_basic`, never the bridge's).
const ALLOWED: &[&str] = &[
    "accept",
    "content-type",
    "authorization",
    "mcp-protocol-version",
];

/// The largest answer body relayed back, in bytes (metadata and tokens are small).
pub(crate) const MAX_ANSWER: usize = 1 << 20;

/// How long the whole exchange may take.
const TIMEOUT: Duration = Duration::from_secs(15);

/// What the page asks for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Ask {
    method: String,
    url: String,
    #[serde(default)]
    headers: Vec<(String, String)>,
    #[serde(default)]
    body: Option<String>,
}

/// Why an ask was not carried out.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FetchError {
    /// Not a JSON ask of the documented shape.
    #[error("not an oauth-fetch request: {0}")]
    Shape(String),
    /// A method other than GET or POST.
    #[error("method {0:?} is not allowed (GET or POST only)")]
    Method(String),
    /// Not a URL the shared rule accepts (https, or http to loopback; no user info).
    #[error("{url:?} is refused: {why} (the rule: {rule})", rule = mcpg_safe_url::RULE)]
    Url {
        /// What was asked for.
        url: String,
        /// Which part of the rule it broke.
        why: mcpg_safe_url::Refusal,
    },
    /// A loopback, private, link-local… destination, without `--allow-private-auth`.
    #[error("refused to fetch {url:?}: {blocked}")]
    Private {
        /// What was asked for.
        url: String,
        /// The host and its address class.
        blocked: Blocked,
    },
    /// A header outside [`ALLOWED`].
    #[error(
        "header {0:?} is not passed on (allowed: accept, content-type, authorization, mcp-protocol-version)"
    )]
    Header(String),
    /// The bridge's own token appears in the ask.
    #[error("the bridge's token may not be sent to another server")]
    BridgeToken,
    /// The server could not be reached, or did not answer in time.
    #[error("could not reach {url}: {reason}")]
    Unreachable {
        /// Where.
        url: String,
        /// What went wrong (no secret: reqwest names the URL only).
        reason: String,
    },
    /// The answer is over [`MAX_ANSWER`].
    #[error("the answer is over the bridge's limit of {MAX_ANSWER} bytes")]
    TooLarge,
}

impl FetchError {
    fn status(&self) -> StatusCode {
        match self {
            FetchError::Unreachable { .. } => StatusCode::BAD_GATEWAY,
            FetchError::TooLarge => StatusCode::BAD_GATEWAY,
            FetchError::Private { .. } => StatusCode::FORBIDDEN,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

/// The handler.
pub(crate) async fn fetch(State(st): State<AppState>, body: String) -> Response {
    match exchange(&st, &body, TIMEOUT).await {
        Ok(answer) => Json(answer).into_response(),
        Err(e) => error(e.status(), e.to_string()),
    }
}

async fn exchange(
    st: &AppState,
    body: &str,
    timeout: Duration,
) -> Result<serde_json::Value, FetchError> {
    let token = st.token().as_str();
    let carries_token = |text: &str| !token.is_empty() && text.contains(token);
    // Before parsing: a parse error may quote the ask, and no error text may carry the token.
    if carries_token(body) {
        return Err(FetchError::BridgeToken);
    }
    let ask: Ask = serde_json::from_str(body).map_err(|e| FetchError::Shape(e.to_string()))?;
    let method = match ask.method.as_str() {
        "GET" => reqwest::Method::GET,
        "POST" => reqwest::Method::POST,
        other => return Err(FetchError::Method(other.to_owned())),
    };
    // Again on the decoded values (JSON escapes can spell the token differently),
    // before any error text below quotes the URL.
    if carries_token(&ask.url)
        || ask.body.as_deref().is_some_and(carries_token)
        || ask.headers.iter().any(|(_, v)| carries_token(v))
    {
        return Err(FetchError::BridgeToken);
    }
    // The address class first, so that every spelling of a private host (including
    // ones the scheme rule would refuse anyway) is named as what it is.
    if !st.config().allow_private_auth
        && let Ok(parsed) = reqwest::Url::parse(&ask.url)
        && let Err(blocked) = check_host(&parsed)
    {
        return Err(FetchError::Private {
            url: ask.url,
            blocked,
        });
    }
    let url = match mcpg_safe_url::check(&ask.url) {
        Ok(checked) => checked.url().clone(),
        Err(why) => return Err(FetchError::Url { url: ask.url, why }),
    };
    // A fresh request: nothing of the page's own request to the bridge (its
    // Authorization, cookies, Origin) is copied.
    let mut req = st.oauth_http().request(method, url).timeout(timeout);
    for (name, value) in &ask.headers {
        if !ALLOWED.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(FetchError::Header(name.clone()));
        }
        req = req.header(name, value);
    }
    if let Some(body) = ask.body {
        req = req.body(body);
    }
    let unreachable = |e: reqwest::Error| match blocked_in(&e) {
        // The resolver found only private addresses for the name.
        Some(blocked) => FetchError::Private {
            url: ask.url.clone(),
            blocked,
        },
        None => FetchError::Unreachable {
            url: ask.url.clone(),
            reason: why(&e.without_url(), timeout),
        },
    };
    let mut resp = req.send().await.map_err(unreachable)?;
    let status = resp.status().as_u16();
    let headers: Vec<(String, String)> = resp
        .headers()
        .iter()
        .filter(|(k, _)| *k != "set-cookie")
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let mut bytes = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(unreachable)? {
        if bytes.len() + chunk.len() > MAX_ANSWER {
            return Err(FetchError::TooLarge);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(json!({
        "status": status,
        "headers": headers,
        "body": String::from_utf8_lossy(&bytes),
    }))
}

/// What went wrong, in words: reqwest's own message ("error sending request")
/// hides the cause in its source chain. No URL (it is in the error already).
fn why(e: &reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("no answer within {} ms (timed out)", timeout.as_millis());
    }
    let mut words = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        words = format!("{words}: {cause}");
        source = cause.source();
    }
    words
}

#[cfg(test)]
// A test fails by panicking.
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use std::net::SocketAddr;
    use std::path::PathBuf;
    use std::time::Instant;

    use super::*;
    use crate::config::Config;
    use crate::token::Token;

    #[tokio::test]
    async fn a_server_that_never_answers_times_out() {
        // Accepts connections and holds them, saying nothing.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/token", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = listener.accept().await {
                held.push(socket);
            }
        });
        let addr: SocketAddr = ([127, 0, 0, 1], 4000).into();
        let st = AppState::new(
            Config {
                allow_private_auth: true,
                ..Config::default()
            },
            Token::from_string("t".repeat(64)),
            addr,
            PathBuf::from("/none"),
        )
        .unwrap();
        let ask = json!({"method": "POST", "url": url, "body": "grant_type=x"}).to_string();
        let started = Instant::now();
        let got = exchange(&st, &ask, Duration::from_millis(300)).await;
        let Err(FetchError::Unreachable { reason, .. }) = got else {
            panic!("expected a time-out, got {got:?}");
        };
        assert!(reason.contains("timed out"), "{reason}");
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(FetchError::TooLarge.status(), StatusCode::BAD_GATEWAY);
    }
}
