//! The browser run's state machine, driven natively: against the in-page demo
//! over Streamable HTTP (`mcpg-demo-sse`, a sans-IO server), against a server the
//! browser blocks (CORS) or cannot reach, and one that wants a sign-in.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_core::Timestamp;
use mcpg_demo_sse::{MCP_URL, Request, SseDemo};
use mcpg_doctor::browser::{Fetch, Run};
use mcpg_doctor::{Check, Verdict};
use mcpg_net::{NetEvent, NetFailure};

const ORIGIN: &str = "http://127.0.0.1:8944";

fn verdict(run: &Run, c: Check) -> Verdict {
    run.report().get(c).map(|f| f.verdict).unwrap()
}

/// Runs to the end, answering every fetch with `answer` (None: the fetch fails
/// with the browser's TypeError).
fn drive(
    run: &mut Run,
    mut answer: impl FnMut(&Fetch) -> Option<(u16, Vec<(String, String)>, String)>,
) -> Vec<Fetch> {
    let mut seen = Vec::new();
    let mut now = Timestamp::from_millis(0);
    for _ in 0..200 {
        let Some(f) = run.poll_fetch() else {
            // Nothing to fetch: time passes to the next deadline, as a page's timer.
            match run.poll_timeout() {
                Some(t) => {
                    now = t;
                    run.handle_timeout(t);
                    continue;
                }
                None => break,
            }
        };
        now = Timestamp::from_millis(now.as_millis() + 1);
        let id = f.request.id;
        match answer(&f) {
            Some((status, headers, body)) => {
                run.handle_net(
                    now,
                    NetEvent::Head {
                        id,
                        status,
                        headers,
                    },
                );
                if !body.is_empty() {
                    run.handle_net(now, NetEvent::Chunk(id, body.into_bytes()));
                }
                run.handle_net(now, NetEvent::End(id));
            }
            None => run.handle_net(
                now,
                NetEvent::Failed(
                    id,
                    NetFailure::Unreachable("TypeError: Failed to fetch".into()),
                ),
            ),
        }
        seen.push(f);
    }
    assert!(run.is_done(), "the run stopped early: {:?}", run.report());
    seen
}

#[test]
fn the_in_page_demo_passes_the_session_checks() {
    let mut demo = SseDemo::new();
    let mut run = Run::new(MCP_URL, ORIGIN).unwrap();
    let fetches = drive(&mut run, |f| {
        let a = demo.answer(
            Timestamp::from_millis(0),
            &Request {
                method: f.request.method.as_str(),
                url: &f.request.url,
                body: f.request.body.as_deref(),
            },
        );
        Some((a.status, a.headers, a.body))
    });
    // Every request went to the URL under test, none without CORS.
    assert!(
        fetches
            .iter()
            .all(|f| f.request.url == MCP_URL && !f.no_cors)
    );
    let ids: Vec<&str> = run
        .report()
        .findings()
        .iter()
        .map(|f| f.check.id())
        .collect();
    let order: Vec<&str> = Check::URL.iter().map(|c| c.id()).collect();
    assert_eq!(ids, order);
    // The page answers it itself: no name, TCP or TLS was involved, and none is
    // claimed to have passed.
    for c in [Check::Resolve, Check::Tcp, Check::Tls] {
        let f = run.report().get(c).unwrap();
        assert_eq!(f.verdict, Verdict::Skip, "{c:?}: {f:?}");
        assert!(f.evidence.contains("answered inside this page"), "{f:?}");
    }
    for c in [Check::Post, Check::Cors] {
        assert_eq!(
            verdict(&run, c),
            Verdict::Pass,
            "{c:?}: {:?}",
            run.report().get(c)
        );
    }
    assert_eq!(verdict(&run, Check::Auth), Verdict::Skip);
    for c in [
        Check::Initialize,
        Check::Revisions,
        Check::ToolsList,
        Check::ToolSchemas,
    ] {
        assert_eq!(
            verdict(&run, c),
            Verdict::Pass,
            "{c:?}: {:?}",
            run.report().get(c)
        );
    }
    let tools = run.report().get(Check::ToolsList).unwrap();
    assert!(tools.evidence.contains("tool"), "{}", tools.evidence);
    assert_ne!(run.report().worst(), Verdict::Fail, "{:?}", run.report());
}

#[test]
fn a_blocked_post_to_a_server_that_answers_is_cors_with_the_relay_fix() {
    let url = "http://127.0.0.1:9/mcp";
    let mut run = Run::new(url, ORIGIN).unwrap();
    let fetches = drive(&mut run, |f| {
        f.no_cors.then(|| (0, Vec::new(), String::new()))
    });
    assert_eq!(fetches.len(), 2);
    assert!(fetches[1].no_cors);
    assert!(
        !fetches[1]
            .request
            .headers
            .iter()
            .any(|(k, v)| k == "Content-Type" && v == "application/json")
    );
    let cors = run.report().get(Check::Cors).unwrap();
    assert_eq!(cors.verdict, Verdict::Fail);
    assert!(cors.evidence.contains(ORIGIN), "{}", cors.evidence);
    assert_eq!(
        cors.fix.as_deref(),
        Some(mcpg_doctor::http::relay_fix(url).as_str())
    );
    assert_eq!(verdict(&run, Check::Tcp), Verdict::Pass);
    assert_eq!(verdict(&run, Check::Post), Verdict::Skip);
    assert_eq!(verdict(&run, Check::ToolsList), Verdict::Skip);
    assert_eq!(run.report().worst(), Verdict::Fail);
    assert_eq!(run.report().findings().len(), Check::URL.len());
}

#[test]
fn no_answer_at_all_is_unreachable_and_the_network_checks_are_skipped() {
    let url = "https://nowhere.invalid/mcp";
    let mut run = Run::new(url, ORIGIN).unwrap();
    drive(&mut run, |_| None);
    assert_eq!(verdict(&run, Check::Post), Verdict::Fail);
    let dns = run.report().get(Check::Resolve).unwrap();
    assert_eq!(dns.verdict, Verdict::Skip);
    assert!(dns.evidence.contains("TypeError"));
    let cors = run.report().get(Check::Cors).unwrap();
    assert_eq!(cors.verdict, Verdict::Warn);
    assert!(cors.fix.as_deref().unwrap().contains("/relay/my-remote"));
}

#[test]
fn a_401_stops_before_the_session_checks() {
    let url = "https://auth.example/mcp";
    let mut run = Run::new(url, ORIGIN).unwrap();
    let fetches = drive(&mut run, |_| {
        Some((
            401,
            vec![("www-authenticate".into(), "Bearer".into())],
            String::new(),
        ))
    });
    assert_eq!(fetches.len(), 1, "nothing fetched after the 401");
    assert_eq!(verdict(&run, Check::Post), Verdict::Pass);
    assert_eq!(verdict(&run, Check::Accept), Verdict::Skip);
    let auth = run.report().get(Check::Auth).unwrap();
    assert!(auth.evidence.contains("sign in"), "{}", auth.evidence);
    assert_eq!(verdict(&run, Check::Initialize), Verdict::Skip);
}

/// After a 401 the page runs the sign-in discovery the run hands it: the protected
/// resource metadata the challenge names, then the authorization server's; the
/// sign-in row then says where each was found.
#[test]
fn after_a_401_the_sign_in_discovery_finds_both_metadata_documents() {
    let url = "https://auth.example/mcp";
    let prm = "https://auth.example/.well-known/oauth-protected-resource/mcp";
    let mut run = Run::new(url, ORIGIN).unwrap();
    let challenge = format!("Bearer resource_metadata=\"{prm}\"");
    drive(&mut run, |_| {
        Some((
            401,
            vec![("www-authenticate".into(), challenge.clone())],
            String::new(),
        ))
    });
    let refusal = run.refusal().expect("the run stopped at the 401").clone();
    let mut discovery =
        mcpg_auth::Probe::new(url, refusal.status, refusal.www_authenticate.as_deref());
    let mut asked = Vec::new();
    while let Some(req) = discovery.poll_request() {
        asked.push(req.url.clone());
        let body = if req.url == prm {
            serde_json::json!({"resource": url, "authorization_servers": ["https://as.example"]})
        } else if req.url.starts_with("https://as.example/.well-known/") {
            serde_json::json!({
                "issuer": "https://as.example",
                "authorization_endpoint": "https://as.example/authorize",
                "token_endpoint": "https://as.example/token",
                "registration_endpoint": "https://as.example/register",
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"],
            })
        } else {
            discovery.handle_response(mcpg_auth::AuthResponse::Answered {
                id: req.id,
                status: 404,
                headers: vec![],
                body: String::new(),
            });
            continue;
        };
        discovery.handle_response(mcpg_auth::AuthResponse::Answered {
            id: req.id,
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
        });
    }
    assert!(discovery.is_over());
    assert_eq!(asked.first().map(String::as_str), Some(prm), "{asked:?}");
    assert!(asked.len() <= mcpg_auth::PROBE_MAX_REQUESTS, "{asked:?}");
    let p = discovery.seen();
    run.judge_sign_in(&mcpg_doctor::auth::AuthSeen {
        status: refusal.status,
        challenge: p.challenge,
        resource_metadata: p.resource_metadata.clone(),
        server_metadata: p.server_metadata.clone(),
        failure: p.failure.clone(),
        findings: p.findings.clone(),
        cached_login: false,
    });
    let auth = run.report().get(Check::Auth).unwrap();
    assert_eq!(auth.verdict, Verdict::Pass, "{}", auth.evidence);
    assert!(auth.evidence.contains(prm), "{}", auth.evidence);
    assert!(
        auth.evidence.contains("https://as.example/.well-known/"),
        "{}",
        auth.evidence
    );
    // The row kept its place among the others.
    let at = |c: Check| run.report().findings().iter().position(|f| f.check == c);
    assert!(at(Check::Auth) < at(Check::Initialize));
}

/// A run the server did not refuse has no sign-in to look for.
#[test]
fn no_refusal_no_sign_in() {
    let mut run = Run::new("http://127.0.0.1:9/", ORIGIN).unwrap();
    drive(&mut run, |_| None);
    assert!(run.refusal().is_none());
}

#[test]
fn a_web_page_instead_of_an_mcp_endpoint_fails_the_post_and_the_handshakes() {
    let mut run = Run::new("http://127.0.0.1:9/", ORIGIN).unwrap();
    drive(&mut run, |_| {
        Some((
            200,
            vec![("content-type".into(), "text/html".into())],
            "<html><script>x</script>".into(),
        ))
    });
    assert_eq!(verdict(&run, Check::Post), Verdict::Fail);
    assert_eq!(verdict(&run, Check::Initialize), Verdict::Fail);
    assert_eq!(verdict(&run, Check::ToolsList), Verdict::Skip);
    assert!(run.report().findings().len() == Check::URL.len());
}
