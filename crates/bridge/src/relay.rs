//! `POST|GET|DELETE /relay/NAME`: Streamable HTTP to a configured remote, for
//! servers that send no CORS headers. Only the configured URL is ever contacted, only
//! the MCP headers cross (never the bridge's own `Authorization`), and responses
//! stream through as they arrive, so SSE works.
//!
//! Authorization for the remote: the remote's configured headers (`headers = {…}`)
//! are added; the page's own token for it comes in `Mcpg-Remote-Authorization` and
//! goes on as `Authorization`, unless the config sets `Authorization` for that
//! remote (the config wins: whoever runs the bridge pinned that identity). The
//! remote's status and `WWW-Authenticate` come back unchanged, so the page can run
//! the OAuth flow.
//!
//! Where it connects (see `egress`): a configured IP literal or `localhost` name is
//! reached as written (the config is trusted, and that is the learner's choice); a
//! configured DNS name must resolve to public addresses unless the bridge has
//! `--allow-private-auth`. Redirects are never followed, so neither the configured
//! headers nor the page's token ever reach an origin other than the configured one:
//! a 3xx goes back to the page as it came.
//!
//! The old HTTP+SSE transport (2024-11-05) POSTs to the URL its stream's
//! `endpoint` event names, which only the bridge can resolve (the page knows the
//! remote by name): `POST /relay/NAME?endpoint=TEXT` resolves TEXT against the
//! configured URL and forwards there, on that URL's origin only.

use axum::body::{Body, to_bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

use crate::egress::blocked_in;
use crate::remote_headers::to_remote;
use crate::reply::error;
use crate::state::AppState;

/// Response headers passed back to the page.
const FROM_REMOTE: &[&str] = &[
    "content-type",
    "cache-control",
    "mcp-session-id",
    "mcp-protocol-version",
    "www-authenticate",
];

/// The page's own `Authorization` for the remote (its own is the bridge's token).
const PAGE_AUTHORIZATION: &str = "mcpg-remote-authorization";

/// Where a relayed request goes: the configured URL, or for an old-transport POST
/// (`?endpoint=`) that text resolved against it, refused on another origin.
fn target(configured: &str, method: &Method, query: Option<&str>) -> Result<String, String> {
    let endpoint = serde_urlencoded::from_str::<Vec<(String, String)>>(query.unwrap_or(""))
        .map_err(|e| format!("bad query: {e}"))?
        .into_iter()
        .find_map(|(k, v)| (k == "endpoint").then_some(v));
    let Some(endpoint) = endpoint else {
        return Ok(configured.to_owned());
    };
    if *method != Method::POST {
        return Err("`endpoint` is for the old transport's POSTs only".into());
    }
    let base = url::Url::parse(configured).map_err(|e| format!("the remote's url: {e}"))?;
    let url = base
        .join(&endpoint)
        .map_err(|e| format!("endpoint {endpoint:?}: {e}"))?;
    if url.origin() != base.origin() {
        return Err(format!(
            "endpoint {url} is not on the remote's origin {}",
            base.origin().ascii_serialization()
        ));
    }
    Ok(url.into())
}

/// Forwards one request to remote `name`.
pub(crate) async fn forward(
    State(st): State<AppState>,
    Path(name): Path<String>,
    RawQuery(query): RawQuery,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let Some(remote) = st.config().remote(&name) else {
        return error(
            StatusCode::NOT_FOUND,
            format!("no remote named {name:?} in the bridge's config (see /api/servers)"),
        );
    };
    let url = match target(&remote.url, &method, query.as_deref()) {
        Ok(u) => u,
        Err(why) => {
            return error(
                StatusCode::FORBIDDEN,
                format!("the relay to {name:?} refused: {why}"),
            );
        }
    };
    let max = st.config().limits.max_message_bytes;
    let Ok(bytes) = to_bytes(body, max).await else {
        return error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body over the bridge's limit of {max} bytes"),
        );
    };
    let mut req = st.http().request(method.clone(), &url);
    for (k, v) in headers.iter().filter(|(k, _)| to_remote(k)) {
        req = req.header(k, v);
    }
    let configured = st.remote_headers(&name);
    if !configured.iter().any(|(k, _)| k == header::AUTHORIZATION)
        && let Some(token) = headers.get(PAGE_AUTHORIZATION)
    {
        req = req.header(header::AUTHORIZATION, token);
    }
    for (k, v) in configured {
        req = req.header(k, v);
    }
    if method == Method::POST {
        req = req.body(bytes);
    }
    let resp = match req.send().await {
        Ok(r) => r,
        Err(e) => {
            let why = match blocked_in(&e) {
                Some(blocked) => blocked.to_string(),
                None => e.to_string(),
            };
            return error(
                StatusCode::BAD_GATEWAY,
                format!("could not reach remote {name:?}: {why}"),
            );
        }
    };
    let mut out = Response::builder().status(resp.status());
    for (k, v) in resp.headers() {
        if FROM_REMOTE.contains(&k.as_str()) {
            out = out.header(k, v);
        }
    }
    // Chunk by chunk, never the whole body at once: an SSE stream may never end.
    let stream = resp
        .bytes_stream()
        .take_until(st.shutdown_signal().clone().cancelled_owned());
    match out.body(Body::from_stream(stream)) {
        Ok(r) => r,
        Err(e) => error(
            StatusCode::BAD_GATEWAY,
            format!("bad answer from remote: {e}"),
        ),
    }
    .into_response()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const REMOTE: &str = "http://127.0.0.1:9000/sse";

    #[test]
    fn without_endpoint_only_the_configured_url() {
        assert_eq!(target(REMOTE, &Method::GET, None).unwrap(), REMOTE);
        assert_eq!(target(REMOTE, &Method::POST, Some("x=1")).unwrap(), REMOTE);
    }

    #[test]
    fn an_endpoint_resolves_on_the_remote_origin_only() {
        let q = |e: &str| {
            format!(
                "endpoint={}",
                url::form_urlencoded::byte_serialize(e.as_bytes()).collect::<String>()
            )
        };
        assert_eq!(
            target(REMOTE, &Method::POST, Some(&q("/messages/?session_id=ab"))).unwrap(),
            "http://127.0.0.1:9000/messages/?session_id=ab"
        );
        assert_eq!(
            target(REMOTE, &Method::POST, Some(&q("http://127.0.0.1:9000/m"))).unwrap(),
            "http://127.0.0.1:9000/m"
        );
        for hostile in [
            "http://169.254.169.254/latest",
            "//evil.test/x",
            "http://127.0.0.1:9001/m",
            "https://127.0.0.1:9000/m",
        ] {
            let e = target(REMOTE, &Method::POST, Some(&q(hostile))).unwrap_err();
            assert!(e.contains("not on the remote's origin"), "{hostile}: {e}");
        }
        assert!(target(REMOTE, &Method::GET, Some(&q("/m"))).is_err());
        assert!(target(REMOTE, &Method::DELETE, Some(&q("/m"))).is_err());
    }
}
