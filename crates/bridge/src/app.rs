//! The router: which path goes where, and which checks stand in front of it.

use axum::Router;
use axum::http::{HeaderName, HeaderValue, Method};
use axum::middleware::from_fn_with_state;
use axum::routing::{get, post};
use tower_http::cors::{AllowHeaders, AllowOrigin, AllowPrivateNetwork, CorsLayer};

use crate::state::AppState;
use crate::{events, guard, oauth_fetch, relay, servers, statics, ws};

/// The bridge's routes, without binding anything (tests drive it with `oneshot`).
///
/// Every route checks `Host` and `Origin`; `/api/*`, `/ws` and `/relay/*` also need
/// the token; static files do not (the page must load before it knows the token).
pub fn app(state: AppState) -> Router {
    let origins: Vec<HeaderValue> = state
        .origins()
        .iter()
        .filter_map(|o| HeaderValue::from_str(o).ok())
        .collect();
    let pna_origins = origins.clone();
    // Outside the token check, so a browser's preflight (which never carries
    // credentials) is answered; the origin list is the same as the Origin check's.
    // `AllowOrigin::list` answers with the request's own origin when it is listed
    // (never `*`) and adds `Vary: Origin`.
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        // Chrome's Private Network Access: a public page's preflight to 127.0.0.1
        // asks `Access-Control-Request-Private-Network: true` and needs this answer
        // (given only when asked, and only to a listed origin).
        .allow_private_network(AllowPrivateNetwork::predicate(move |origin, _| {
            pna_origins.contains(origin)
        }))
        // Mirrored because `Mcp-Param-*` names cannot be listed in advance; the
        // origin is already restricted.
        .allow_headers(AllowHeaders::mirror_request())
        // `WWW-Authenticate`: a relayed remote's 401/403 challenge, for the page's OAuth flow.
        .expose_headers([
            HeaderName::from_static("mcp-session-id"),
            HeaderName::from_static("mcp-protocol-version"),
            HeaderName::from_static("www-authenticate"),
        ]);
    let guarded = Router::new()
        .route("/api/servers", get(servers::list))
        .route("/api/oauth-fetch", post(oauth_fetch::fetch))
        .route("/api/events", get(events::sse::handler))
        .route("/ws", get(ws::upgrade))
        .route(
            "/relay/{name}",
            get(relay::forward)
                .post(relay::forward)
                .delete(relay::forward),
        )
        .route_layer(from_fn_with_state(state.clone(), guard::require_token))
        .layer(cors);
    Router::new()
        .merge(guarded)
        .fallback(statics::serve)
        .layer(from_fn_with_state(state.clone(), guard::host_and_origin))
        .with_state(state)
}
