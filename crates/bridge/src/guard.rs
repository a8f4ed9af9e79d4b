//! The security checks in front of every route (the lesson of CVE-2025-49596):
//! a `Host` that names this machine (against DNS rebinding), an `Origin` that is the
//! playground's own or one it was told to trust (`--page-origin`, `allowed_origins`;
//! against other sites), and the per-launch token (against
//! anything else that can reach the port).

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::reply::error;
use crate::state::AppState;

/// `Host` and `Origin` checks; applied to every route, static files included.
pub(crate) async fn host_and_origin(
    State(st): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned)
        .or_else(|| req.uri().authority().map(|a| a.as_str().to_owned()));
    match host {
        Some(h) if st.hosts().iter().any(|ok| ok.eq_ignore_ascii_case(&h)) => {}
        Some(h) => {
            return error(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "Host {h:?} is not this bridge (DNS rebinding protection); use {}",
                    st.hosts().join(", ")
                ),
            );
        }
        None => return error(StatusCode::MISDIRECTED_REQUEST, "the request has no Host"),
    }
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let ok = origin
            .to_str()
            .is_ok_and(|o| st.origins().iter().any(|a| a.eq_ignore_ascii_case(o)));
        if !ok {
            return error(
                StatusCode::FORBIDDEN,
                format!(
                    "Origin {:?} may not use this bridge; allowed: {} (trust a hosted page with `mcpg serve --page-origin ORIGIN`, or allowed_origins in the config)",
                    String::from_utf8_lossy(origin.as_bytes()),
                    st.origins().join(", ")
                ),
            );
        }
    }
    next.run(req).await
}

/// The token check for `/api/*`, `/ws` and `/relay/*`.
pub(crate) async fn require_token(
    State(st): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let from_query = req.uri().query().and_then(query_token);
    let presented = from_query.or_else(|| bearer(req.headers()));
    match presented {
        Some(t) if st.token().matches(&t) => next.run(req).await,
        Some(_) => error(StatusCode::UNAUTHORIZED, "wrong token"),
        None => error(
            StatusCode::UNAUTHORIZED,
            "a token is required: use the URL the bridge printed (token=…) or Authorization: Bearer",
        ),
    }
}

fn query_token(query: &str) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    pairs
        .into_iter()
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v)
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, rest) = v.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim().to_owned())
}
