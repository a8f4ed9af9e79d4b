//! Sign-in discovery after a 401: the requests of `mcpg_auth::Probe` (the flow run
//! up to where it would register a client or send the user to sign in, which a
//! doctor never does), made with this machine's HTTP.

use std::time::Duration;

use mcpg_auth::{Probe, Probed};
use mcpg_doctor::auth::AuthSeen;
use mcpg_doctor::http::PostSeen;

/// Runs discovery for `url`, refused as `refusal` says.
pub async fn discover(url: &str, refusal: &PostSeen, timeout: Duration) -> AuthSeen {
    let mut probe = Probe::new(url, refusal.status, refusal.www_authenticate.as_deref());
    let http = match reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            let mut seen = seen(refusal.status, probe.seen());
            seen.failure = Some(format!("could not set up the HTTP client: {e}"));
            return seen;
        }
    };
    while let Some(req) = probe.poll_request() {
        let answer = mcpg_transport::http::execute_auth_request(&http, req).await;
        probe.handle_response(answer);
    }
    seen(refusal.status, probe.seen())
}

/// What the doctor judges, from what the probe saw after a refusal with `status`.
fn seen(status: u16, p: &Probed) -> AuthSeen {
    AuthSeen {
        status,
        challenge: p.challenge,
        resource_metadata: p.resource_metadata.clone(),
        server_metadata: p.server_metadata.clone(),
        failure: p.failure.clone(),
        findings: p.findings.clone(),
        cached_login: false,
    }
}
