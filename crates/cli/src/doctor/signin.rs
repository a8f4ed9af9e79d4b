//! Sign-in discovery after a 401: `mcpg-auth`'s own flow is fed the refusal and
//! its discovery requests are made, up to the point where it would register a
//! client or send the user to sign in, which a doctor never does.

use std::time::Duration;

use mcpg_auth::{AuthConfig, AuthEvent, AuthFlow, AuthResponse, ClientIdentity, Step};
use mcpg_core::Timestamp;
use mcpg_doctor::auth::AuthSeen;
use mcpg_doctor::http::PostSeen;

/// The most requests discovery may take (the spec's candidates are a handful).
const MAX_REQUESTS: usize = 16;

/// Runs discovery for `url`, refused as `refusal` says.
pub async fn discover(url: &str, refusal: &PostSeen, timeout: Duration) -> AuthSeen {
    let mut seen = AuthSeen {
        status: refusal.status,
        challenge: refusal
            .www_authenticate
            .as_deref()
            .is_some_and(|c| c.trim_start().to_ascii_lowercase().starts_with("bearer")),
        ..AuthSeen::default()
    };
    let http = match reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            seen.failure = Some(format!("could not set up the HTTP client: {e}"));
            return seen;
        }
    };
    let cfg = AuthConfig::new(
        url,
        // Never used: the flow stops before a client is registered or a browser sent.
        "http://127.0.0.1/callback",
        ClientIdentity::Auto {
            metadata_url: None,
            client_name: "mcpg doctor".into(),
        },
    );
    // No PKCE verifier or state is ever sent, so no entropy is needed.
    let mut flow = AuthFlow::new(cfg, [0; 64]);
    let now = Timestamp::ZERO;
    flow.handle_challenge(now, refusal.status, refusal.www_authenticate.as_deref());
    for _ in 0..MAX_REQUESTS {
        while let Some(ev) = flow.poll_event() {
            match ev {
                AuthEvent::Exchange(card) => {
                    for f in card.findings {
                        seen.findings.push(format!(
                            "{}: expected {}, got {}",
                            f.rule, f.expected, f.got
                        ));
                    }
                }
                AuthEvent::Failed(e) => {
                    seen.failure = Some(e.to_string());
                    return seen;
                }
                AuthEvent::Authorize { .. } | AuthEvent::Authorized(_) => return seen,
            }
        }
        let Some(req) = flow.poll_request() else {
            return seen;
        };
        let (step, target) = (req.step, req.url.clone());
        if !matches!(
            step,
            Step::ProtectedResourceMetadata | Step::AuthorizationServerMetadata
        ) {
            // Discovery is done: what comes next registers a client or signs in.
            return seen;
        }
        let answer = mcpg_transport::http::execute_auth_request(&http, req).await;
        if let AuthResponse::Answered { status: 200, .. } = &answer {
            match step {
                Step::ProtectedResourceMetadata => seen.resource_metadata = Some(target),
                _ => seen.server_metadata = Some(target),
            }
        }
        flow.handle_response(now, answer);
    }
    seen.failure = Some(format!("discovery took more than {MAX_REQUESTS} requests"));
    seen
}
