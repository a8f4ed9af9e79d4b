//! The profile on `HttpDemo`: a session there is a fixture server; the default
//! stays the lessons' demo.

use mcpg_core::Timestamp;
use mcpg_demo_sse::{Answer, HttpDemo, HttpRequest};

const HOST: &str = "127.0.0.1:9";
const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

fn initialize(d: &mut HttpDemo) -> Answer {
    d.answer(
        Timestamp(0),
        &HttpRequest {
            method: "POST",
            path: "/mcp",
            headers: &[
                ("Host", HOST),
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
            ],
            body: INIT.as_bytes(),
        },
    )
}

#[test]
fn http_demo_serves_the_fixtures_with_the_profile() {
    let mut d = HttpDemo::with_profile(
        vec![HOST.into()],
        Vec::new(),
        "c-".into(),
        mcpg_demo_conformance::profile(),
    );
    let a = initialize(&mut d);
    assert!(a.body.contains(mcpg_demo_conformance::NAME), "{a:?}");
    let mut plain = HttpDemo::new(vec![HOST.into()], Vec::new(), "d-".into());
    let a = initialize(&mut plain);
    assert!(a.body.contains("mcpg-demo"), "{a:?}");
    assert!(!a.body.contains(mcpg_demo_conformance::NAME));
}
