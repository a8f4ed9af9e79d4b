//! Holding messages refused for want of authorization (`hold_unauthorized`): the
//! refusal is reported once, later messages wait, and `resume` re-sends them in
//! order with the bearer token while `give_up` fails them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::Timestamp;
use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_http::{HttpConfig, HttpEvent, HttpMachine, HttpRequest};
use serde_json::json;

const T0: Timestamp = Timestamp(1_000);

fn call(id: i64) -> Outgoing {
    Outgoing {
        message: Message::request(
            RequestId::Number(id),
            "tools/call",
            Some(json!({"name": "x"})),
        ),
        headers: vec![("MCP-Protocol-Version", "2025-11-25".to_owned())],
        param_headers: Vec::new(),
    }
}

fn machine(hold: bool) -> HttpMachine {
    let mut cfg = HttpConfig::new("http://x.test/mcp");
    cfg.hold_unauthorized = hold;
    cfg.listen = false;
    HttpMachine::new(cfg)
}

fn events(m: &mut HttpMachine) -> Vec<HttpEvent> {
    std::iter::from_fn(|| m.poll_event()).collect()
}

fn requests(m: &mut HttpMachine) -> Vec<HttpRequest> {
    std::iter::from_fn(|| m.poll_request()).collect()
}

fn auth_header(r: &HttpRequest) -> Option<&str> {
    r.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("authorization"))
        .map(|(_, v)| v.as_str())
}

fn www(v: &str) -> Vec<(String, String)> {
    vec![("www-authenticate".into(), v.into())]
}

#[test]
fn a_401_holds_the_request_and_later_ones_until_resume() {
    let mut m = machine(true);
    m.send(T0, call(1));
    let first = m.poll_request().unwrap();
    assert_eq!(auth_header(&first), None);
    m.handle_head(
        T0,
        first.id,
        401,
        &www(r#"Bearer resource_metadata="http://x.test/prm""#),
    );
    assert_eq!(
        m.poll_abort(),
        Some(first.id),
        "the refused answer is not read"
    );
    assert_eq!(
        events(&mut m),
        [HttpEvent::Unauthorized {
            status: 401,
            www_authenticate: Some(r#"Bearer resource_metadata="http://x.test/prm""#.into()),
        }]
    );
    assert!(m.is_holding());
    m.send(T0, call(2));
    assert!(m.poll_request().is_none(), "held while authorizing");

    m.set_bearer(Some("tok-123".into()));
    m.resume(T0);
    let again = requests(&mut m);
    assert_eq!(again.len(), 2);
    assert_eq!(again[0].body, first.body, "the refused request first");
    assert!(again[1].body.as_deref().unwrap().contains("\"id\":2"));
    for r in &again {
        assert_eq!(auth_header(r), Some("Bearer tok-123"));
    }
    assert!(
        events(&mut m).is_empty(),
        "no failure, no token in an event"
    );

    // A second refusal starts a new hold (and a new event).
    m.handle_head(
        T0,
        again[1].id,
        403,
        &www(r#"Bearer error="insufficient_scope", scope="b""#),
    );
    assert!(matches!(
        &events(&mut m)[..],
        [HttpEvent::Unauthorized { status: 403, .. }]
    ));
}

#[test]
fn give_up_fails_the_held_requests_and_a_plain_403_is_not_held() {
    let mut m = machine(true);
    m.send(T0, call(1));
    let r = m.poll_request().unwrap();
    m.handle_head(T0, r.id, 401, &[]);
    m.send(T0, call(2));
    let _ = events(&mut m);
    m.give_up(T0, "authorization failed: denied".into());
    let failed: Vec<_> = events(&mut m)
        .into_iter()
        .filter_map(|e| match e {
            HttpEvent::SendFailed { id, failure } => Some((id, failure)),
            _ => None,
        })
        .collect();
    let rejected = SendFailure::Rejected {
        status: 401,
        body: "authorization failed: denied".into(),
    };
    assert_eq!(
        failed,
        [
            (RequestId::Number(1), rejected.clone()),
            (RequestId::Number(2), rejected)
        ]
    );
    assert!(!m.is_holding());
    m.send(T0, call(3));
    let r3 = m.poll_request().expect("sent again after giving up");
    // A 403 that is not about scope is an ordinary refusal.
    m.handle_head(T0, r3.id, 403, &www(r#"Bearer error="invalid_token""#));
    m.handle_end(T0, r3.id);
    assert!(matches!(
        &events(&mut m)[..],
        [HttpEvent::SendFailed {
            failure: SendFailure::Rejected { status: 403, .. },
            ..
        }]
    ));
}

#[test]
fn without_hold_a_401_fails_the_request_as_before() {
    let mut m = machine(false);
    m.set_bearer(Some("stale".into()));
    m.send(T0, call(1));
    let r = m.poll_request().unwrap();
    assert_eq!(auth_header(&r), Some("Bearer stale"));
    m.handle_head(T0, r.id, 401, &www("Bearer"));
    m.handle_body(T0, r.id, b"no");
    m.handle_end(T0, r.id);
    assert!(matches!(
        &events(&mut m)[..],
        [HttpEvent::SendFailed {
            failure: SendFailure::Rejected { status: 401, .. },
            ..
        }]
    ));
    assert!(!m.is_holding());
}

#[test]
fn hold_without_a_refusal_waits_silently_and_cancel_drops_a_held_request() {
    let mut m = machine(true);
    m.hold();
    m.send(T0, call(1));
    m.send(T0, call(2));
    assert!(m.poll_request().is_none());
    assert!(events(&mut m).is_empty());
    m.cancel(T0, &RequestId::Number(1));
    m.resume(T0);
    let sent = requests(&mut m);
    assert_eq!(sent.len(), 1);
    assert!(sent[0].body.as_deref().unwrap().contains("\"id\":2"));
}
