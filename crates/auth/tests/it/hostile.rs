//! A hostile server and authorization server: every URL they hand the flow is
//! checked before it is fetched or opened. A refused one is a refused step (a card
//! whose finding names the rule, `AuthError::UnsafeUrl`), no request goes to it and
//! no `AuthEvent::Authorize` ever carries it. Answers over the byte ceiling stop the
//! flow with `AuthError::TooLarge`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;

use mcpg_auth::{
    AuthConfig, AuthError, AuthEvent, AuthFlow, AuthRequest, AuthResponse, ClientIdentity,
    MAX_ANSWER_BYTES, Step,
};
use mcpg_core::Timestamp;
use mcpg_safe_url::Refusal;
use serde_json::{Value, json};

const MCP: &str = "https://rs.test/mcp";
const AS: &str = "https://as.test";
const PRM: &str = "https://rs.test/.well-known/oauth-protected-resource/mcp";
const META: &str = "https://as.test/.well-known/oauth-authorization-server";
const T0: Timestamp = Timestamp(5_000);

fn as_meta() -> Value {
    json!({
        "issuer": AS,
        "authorization_endpoint": format!("{AS}/authorize"),
        "token_endpoint": format!("{AS}/token"),
        "registration_endpoint": format!("{AS}/register"),
        "code_challenge_methods_supported": ["S256"],
    })
}

/// GET answers by URL (200 with the JSON), 201 for registration, 404 otherwise.
struct Net {
    docs: HashMap<String, Value>,
    seen: Vec<AuthRequest>,
}

impl Net {
    fn new(prm: Value, meta: Value) -> Net {
        let mut docs = HashMap::new();
        docs.insert(PRM.to_owned(), prm);
        docs.insert(META.to_owned(), meta);
        docs.insert(format!("{AS}/register"), json!({"client_id": "c-1"}));
        Net {
            docs,
            seen: Vec::new(),
        }
    }

    fn answer(&mut self, r: &AuthRequest) -> AuthResponse {
        self.seen.push(r.clone());
        let (status, body) = match self.docs.get(&r.url) {
            Some(v) => (200, v.to_string()),
            None => (404, "{}".to_owned()),
        };
        AuthResponse::Answered {
            id: r.id,
            status,
            headers: Vec::new(),
            body,
        }
    }
}

/// Runs the flow from a 401 with `www` until it stops; every event.
fn run(www: &str, net: &mut Net) -> Vec<AuthEvent> {
    let cfg = AuthConfig::new(
        MCP,
        "http://127.0.0.1:9/callback",
        ClientIdentity::Auto {
            metadata_url: None,
            client_name: "hostile test".into(),
        },
    );
    let mut flow = AuthFlow::new(cfg, [9; 64]);
    flow.handle_challenge(T0, 401, Some(www));
    let mut events = Vec::new();
    for _ in 0..50 {
        if let Some(r) = flow.poll_request() {
            let a = net.answer(&r);
            flow.handle_response(T0, a);
        } else if let Some(e) = flow.poll_event() {
            let done = matches!(
                e,
                AuthEvent::Failed(_) | AuthEvent::Authorized(_) | AuthEvent::Authorize { .. }
            );
            events.push(e);
            if done {
                break;
            }
        } else {
            break;
        }
    }
    events
}

fn www() -> String {
    format!(r#"Bearer resource_metadata="{PRM}""#)
}

/// The flow stopped on a refused URL from `field`; its card names the rule; no
/// authorization URL was handed out.
fn assert_refused(events: &[AuthEvent], field: &str, want: &Refusal) {
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, AuthEvent::Authorize { .. })),
        "an authorization URL came out: {events:?}"
    );
    match events.last() {
        Some(AuthEvent::Failed(AuthError::UnsafeUrl {
            field: f, refusal, ..
        })) => {
            assert_eq!((*f, refusal), (field, want), "{events:?}");
        }
        other => panic!("not refused: {other:?} in {events:?}"),
    }
    let finding = events
        .iter()
        .filter_map(|e| match e {
            AuthEvent::Exchange(x) => x.findings.iter().find(|f| f.rule == "auth-unsafe-url"),
            _ => None,
        })
        .next()
        .unwrap_or_else(|| panic!("no finding card: {events:?}"));
    assert!(
        finding.got.contains(want.rule()),
        "the card names the rule: {finding:?}"
    );
    assert!(finding.expected.contains(field), "{finding:?}");
    // The message a person reads names the rule too.
    let Some(AuthEvent::Failed(e)) = events.last() else {
        unreachable!()
    };
    assert!(e.to_string().contains(want.rule()), "{e}");
}

#[test]
fn a_hostile_authorization_endpoint_is_never_handed_to_the_browser() {
    let cases: &[(&str, Refusal)] = &[
        (
            "javascript:alert(document.cookie)",
            Refusal::Scheme("javascript".into()),
        ),
        (
            "JavaScript:alert(1)//https://as.test/",
            Refusal::Scheme("javascript".into()),
        ),
        (
            "data:text/html,<script>alert(1)</script>",
            Refusal::Scheme("data".into()),
        ),
        ("file:///etc/passwd", Refusal::Scheme("file".into())),
        ("vscode://evil/x", Refusal::Scheme("vscode".into())),
        (
            "http://evil.example/authorize",
            Refusal::PlainHttp("evil.example".into()),
        ),
        (
            "http://localhost.evil.example/authorize",
            Refusal::PlainHttp("localhost.evil.example".into()),
        ),
        ("https://as.test@evil.example/authorize", Refusal::UserInfo),
        ("http://127.0.0.1@evil.example/", Refusal::UserInfo),
        (" javascript:alert(1)", Refusal::Whitespace),
        ("java\nscript:alert(1)", Refusal::Whitespace),
    ];
    for (endpoint, want) in cases {
        let mut meta = as_meta();
        meta["authorization_endpoint"] = json!(endpoint);
        let mut net = Net::new(
            json!({"resource": MCP, "authorization_servers": [AS]}),
            meta,
        );
        let events = run(&www(), &mut net);
        assert_refused(&events, "authorization_endpoint", want);
        // Refused at the metadata: nothing registered, nothing else fetched.
        assert_eq!(
            net.seen.iter().map(|r| r.url.as_str()).collect::<Vec<_>>(),
            [PRM, META],
            "{endpoint}"
        );
    }
}

#[test]
fn every_endpoint_of_the_metadata_is_checked() {
    for (field, bad, want) in [
        (
            "token_endpoint",
            "http://10.0.0.1/token",
            Refusal::PlainHttp("10.0.0.1".into()),
        ),
        (
            "registration_endpoint",
            "file:///tmp/x",
            Refusal::Scheme("file".into()),
        ),
        (
            "jwks_uri",
            "data:application/json,{}",
            Refusal::Scheme("data".into()),
        ),
    ] {
        let mut meta = as_meta();
        meta[field] = json!(bad);
        let mut net = Net::new(
            json!({"resource": MCP, "authorization_servers": [AS]}),
            meta,
        );
        let events = run(&www(), &mut net);
        assert_refused(&events, field, &want);
        assert!(net.seen.iter().all(|r| r.url != bad), "{field} fetched");
    }
}

#[test]
fn resource_metadata_and_authorization_servers_are_checked_before_any_fetch() {
    // The challenge points at the cloud metadata service over plain http.
    let mut net = Net::new(json!({}), as_meta());
    let events = run(
        r#"Bearer resource_metadata="http://169.254.169.254/latest/meta-data""#,
        &mut net,
    );
    assert_refused(
        &events,
        "resource_metadata",
        &Refusal::PlainHttp("169.254.169.254".into()),
    );
    assert!(net.seen.is_empty(), "{:?}", net.seen);

    for (issuer, want) in [
        ("javascript:alert(1)", Refusal::Scheme("javascript".into())),
        (
            "http://2130706433.evil.example",
            Refusal::PlainHttp("2130706433.evil.example".into()),
        ),
        ("https://as.test:x@evil.example", Refusal::UserInfo),
    ] {
        let mut net = Net::new(
            json!({"resource": MCP, "authorization_servers": [issuer]}),
            as_meta(),
        );
        let events = run(&www(), &mut net);
        assert_refused(&events, "authorization_servers", &want);
        assert_eq!(
            net.seen.len(),
            1,
            "only the PRM was fetched: {:?}",
            net.seen
        );
    }
}

#[test]
fn loopback_http_is_still_allowed() {
    // The project's own tests and local servers: http to a loopback host passes.
    let local = "http://127.0.0.1:9100";
    let mut net = Net::new(
        json!({"resource": MCP, "authorization_servers": [local]}),
        json!({
            "issuer": local,
            "authorization_endpoint": format!("{local}/authorize"),
            "token_endpoint": format!("{local}/token"),
            "code_challenge_methods_supported": ["S256"],
        }),
    );
    net.docs.insert(
        format!("{local}/.well-known/oauth-authorization-server"),
        net.docs[META].clone(),
    );
    let cfg_events = run(&www(), &mut net);
    // No registration endpoint: the flow asks for a client ID, no URL refused.
    assert!(
        matches!(
            cfg_events.last(),
            Some(AuthEvent::Failed(AuthError::NeedsClientId))
        ),
        "{cfg_events:?}"
    );
}

#[test]
fn an_answer_over_the_ceiling_stops_the_flow_with_a_typed_error() {
    let cfg = AuthConfig::new(
        MCP,
        "http://127.0.0.1:9/callback",
        ClientIdentity::Auto {
            metadata_url: None,
            client_name: "hostile test".into(),
        },
    );
    // The driver stopped reading (the CLI's and the page's readers).
    let mut flow = AuthFlow::new(cfg.clone(), [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www()));
    let r = flow.poll_request().unwrap();
    flow.handle_response(
        T0,
        AuthResponse::TooLarge {
            id: r.id,
            status: 200,
        },
    );
    let events: Vec<AuthEvent> = std::iter::from_fn(|| flow.poll_event()).collect();
    assert_eq!(
        events.last(),
        Some(&AuthEvent::Failed(AuthError::TooLarge {
            step: Step::ProtectedResourceMetadata,
            limit: MAX_ANSWER_BYTES
        })),
        "{events:?}"
    );
    assert!(flow.poll_request().is_none(), "no other candidate is tried");
    let AuthEvent::Failed(e) = &events[events.len() - 1] else {
        unreachable!()
    };
    assert!(e.to_string().contains("1048576-byte limit"), "{e}");

    // A driver that read it all anyway: the flow still refuses it.
    let mut flow = AuthFlow::new(cfg, [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www()));
    let r = flow.poll_request().unwrap();
    let body = format!(
        r#"{{"resource":"{MCP}","authorization_servers":["{AS}"],"x":"{}"}}"#,
        "a".repeat(MAX_ANSWER_BYTES)
    );
    flow.handle_response(
        T0,
        AuthResponse::Answered {
            id: r.id,
            status: 200,
            headers: Vec::new(),
            body,
        },
    );
    let events: Vec<AuthEvent> = std::iter::from_fn(|| flow.poll_event()).collect();
    assert!(
        matches!(
            events.last(),
            Some(AuthEvent::Failed(AuthError::TooLarge { .. }))
        ),
        "{events:?}"
    );
    let finding_rules: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            AuthEvent::Exchange(x) => Some(x.findings.iter().map(|f| f.rule)),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(finding_rules, ["auth-answer-too-large"]);
}
