//! The judging of a session and of a stdio start-up, one observation at a time
//! (handshakes, revisions, tools, schemas, capabilities, the program and its
//! first line): each verdict, and the fix that goes with it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_core::ProtocolVersion;
use mcpg_doctor::capabilities::{Answered, FeatureSeen, capabilities};
use mcpg_doctor::handshake::{HandshakeSeen, discover, initialize, revisions};
use mcpg_doctor::stdio::{ProgramSeen, StartupSeen, program, startup};
use mcpg_doctor::tools::{ListingSeen, list, param_headers, schemas};
use mcpg_doctor::{Finding, Verdict};
use serde_json::{Value, json};

fn fix(f: &Finding) -> &str {
    f.fix.as_deref().unwrap_or("")
}

fn agreed(v: &str, listed: &[&str]) -> HandshakeSeen {
    HandshakeSeen::Agreed {
        version: v.into(),
        server_versions: listed.iter().map(|s| (*s).to_owned()).collect(),
    }
}

#[test]
fn handshakes_and_revisions() {
    let not_found = HandshakeSeen::Refused {
        code: -32601,
        message: "Method not found".into(),
    };
    let init = agreed("2025-11-25", &["2025-11-25"]);
    // An older server: the probe fails, initialize works.
    let d = discover(&not_found, true);
    assert_eq!(d.verdict, Verdict::Warn);
    assert!(d.evidence.contains("-32601") && d.evidence.contains("fall back"));
    // The advice table's row for it (the same words as the CLI's hint line).
    assert!(
        fix(&d).contains("speaks only the initialize generation"),
        "{d:?}"
    );
    assert!(fix(&d).contains("(fix: --protocol auto"), "{d:?}");
    assert_eq!(initialize(&init, false).verdict, Verdict::Pass);
    let r = revisions(&not_found, &init, &[]);
    assert_eq!(r.verdict, Verdict::Pass);
    assert!(r.evidence.ends_with("negotiates 2025-11-25"), "{r:?}");
    assert!(r.evidence.contains("the server speaks 2025-11-25"));
    // Older revisions it accepted when offered alone join the list.
    let older = ["2025-06-18".to_owned(), "2025-03-26".to_owned()];
    let r = revisions(&not_found, &init, &older);
    assert!(
        r.evidence
            .contains("the server speaks 2025-03-26, 2025-06-18, 2025-11-25;"),
        "{r:?}"
    );
    let older: Vec<&str> = mcpg_doctor::handshake::older_revisions()
        .map(|v| v.as_str())
        .collect();
    assert_eq!(older, ["2025-06-18", "2025-03-26", "2024-11-05"]);
    // A 2026-07-28 server that also answers initialize.
    let both = agreed("2026-07-28", &["2026-07-28", "2025-11-25"]);
    let r = revisions(&both, &init, &[]);
    assert!(r.evidence.ends_with("negotiates 2026-07-28"));
    // Nothing works.
    let dead = HandshakeSeen::Failed("the server exited with status 1".into());
    assert_eq!(discover(&dead, false).verdict, Verdict::Fail);
    // An HTTP+SSE server answers the probe's POST with 405; initialize works.
    let refused = HandshakeSeen::Failed("HTTP 405: Method Not Allowed".into());
    let f = discover(&refused, true);
    assert_eq!(f.verdict, Verdict::Warn);
    assert!(
        f.evidence.contains("405") && f.evidence.contains("fall back"),
        "{f:?}"
    );
    assert_eq!(initialize(&not_found, false).verdict, Verdict::Fail);
    assert_eq!(revisions(&dead, &dead, &[]).verdict, Verdict::Fail);
    // Behind a sign-in: skipped, not failed.
    let f = discover(&HandshakeSeen::SignIn, false);
    assert_eq!(f.verdict, Verdict::Skip);
    assert_eq!(
        revisions(&HandshakeSeen::SignIn, &HandshakeSeen::SignIn, &[]).verdict,
        Verdict::Skip
    );
}

fn page(tools: Value) -> Vec<Value> {
    vec![json!({ "tools": tools })]
}

#[test]
fn tools_pages_headers_and_schemas() {
    let good = json!({"name": "echo", "inputSchema": {"type": "object"}});
    let pages = vec![
        json!({"tools": [good], "nextCursor": "2"}),
        json!({"tools": []}),
    ];
    let f = list(&ListingSeen::Listed(pages.clone()), true);
    assert_eq!(f.evidence, "1 tool in 2 pages");
    let none = ListingSeen::Refused {
        code: -32601,
        message: "Method not found".into(),
    };
    assert_eq!(list(&none, false).verdict, Verdict::Skip);
    assert_eq!(list(&none, true).verdict, Verdict::Fail);
    assert_eq!(
        schemas(&pages, ProtocolVersion::V2025_11_25).verdict,
        Verdict::Pass
    );

    let header = page(
        json!([{"name": "forecast", "inputSchema": {"type": "object",
        "properties": {"city": {"type": "string", "x-mcp-header": "City"}}}}]),
    );
    let f = param_headers(&header, ProtocolVersion::V2026_07_28);
    assert_eq!(f.verdict, Verdict::Pass);
    assert!(f.evidence.contains("1 tool mirrors 1 argument"), "{f:?}");
    let bad = page(json!([{"name": "score", "inputSchema": {"type": "object",
        "properties": {"s": {"type": "number", "x-mcp-header": "Score"}}}}]));
    let f = param_headers(&bad, ProtocolVersion::V2026_07_28);
    assert_eq!(f.verdict, Verdict::Fail);
    assert!(f.evidence.contains("\"score\"") && f.evidence.contains("leave these tools out"));
    assert_eq!(
        param_headers(&bad, ProtocolVersion::V2025_11_25).verdict,
        Verdict::Warn
    );
    assert_eq!(
        param_headers(&pages, ProtocolVersion::V2026_07_28).evidence,
        "no tool uses x-mcp-header"
    );

    let broken = page(json!([
        {"name": "a", "inputSchema": {"type": "string"}},
        {"name": "a", "inputSchema": {"type": "object"}}
    ]));
    let f = schemas(&broken, ProtocolVersion::V2025_11_25);
    assert_eq!(f.verdict, Verdict::Fail);
    assert!(f.evidence.contains("[input-schema]") && f.evidence.contains("[duplicate-tool-name]"));
    let odd = page(json!([{"name": "has space", "inputSchema": {"type": "object"}}]));
    let f = schemas(&odd, ProtocolVersion::V2025_11_25);
    assert_eq!(f.verdict, Verdict::Warn);
    assert!(f.evidence.contains("[tool-name]"));
}

#[test]
fn declared_capabilities_against_answers() {
    let feature = |feature, method, declared, answered| FeatureSeen {
        feature,
        method,
        declared,
        answered,
    };
    let nf = || Answered::Error {
        code: -32601,
        message: "Method not found".into(),
    };
    let fine = [
        feature("tools", "tools/list", true, Answered::Yes),
        feature("prompts", "prompts/list", false, nf()),
    ];
    assert_eq!(capabilities(&fine).verdict, Verdict::Pass);
    let lying = [feature("prompts", "prompts/list", true, nf())];
    let f = capabilities(&lying);
    assert_eq!(f.verdict, Verdict::Fail);
    assert!(
        f.evidence
            .contains("prompts: declared, but prompts/list answered error -32601")
    );
    assert!(fix(&f).starts_with("Answer prompts/list, or stop declaring `prompts`"));
    let shy = [feature("tools", "tools/list", false, Answered::Yes)];
    let f = capabilities(&shy);
    assert_eq!(f.verdict, Verdict::Warn);
    assert!(fix(&f).starts_with("Declare `tools`"), "{f:?}");
}

#[test]
fn stdio_program_and_start_up() {
    assert_eq!(
        program("node", &ProgramSeen::Found("/usr/bin/node".into())).verdict,
        Verdict::Pass
    );
    let f = program("./srv", &ProgramSeen::Missing { on_path: false });
    assert!(f.evidence.contains("does not exist"));
    let f = program("./srv", &ProgramSeen::NotExecutable("./srv".into()));
    assert!(fix(&f).contains("chmod +x ./srv"));
    let ok = startup(&StartupSeen {
        first_line: Some(r#"{"jsonrpc":"2.0","id":0,"result":{}}"#.into()),
        stderr: vec!["listening on stdio".into()],
        ..StartupSeen::default()
    });
    assert_eq!(ok.verdict, Verdict::Pass);
    assert!(ok.evidence.contains("stderr: listening on stdio"));
    let junk = startup(&StartupSeen {
        first_line: Some("Server v1 ready".into()),
        ..StartupSeen::default()
    });
    assert_eq!(junk.verdict, Verdict::Fail);
    assert!(junk.evidence.contains("\"Server v1 ready\""));
    assert!(fix(&junk).contains("stderr"));
    let died = startup(&StartupSeen {
        exit: Some("exited with status 3".into()),
        stderr: vec!["boom".into()],
        ..StartupSeen::default()
    });
    assert_eq!(
        died.evidence,
        "the program exited with status 3 before answering; stderr: boom"
    );
    let silent = startup(&StartupSeen {
        waited_ms: 5000,
        ..StartupSeen::default()
    });
    assert!(silent.evidence.contains("within 5000 ms"));
}

#[test]
fn the_error_a_handshake_got_is_read_from_the_wire() {
    use mcpg_doctor::handshake::error_reply;
    let wire = [
        (
            true,
            r#"{"jsonrpc":"2.0","id":0,"method":"server/discover"}"#,
        ),
        (false, "junk"),
        (
            false,
            r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}"#,
        ),
        (
            true,
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        ),
        (false, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
    ];
    assert_eq!(
        error_reply(wire, "server/discover"),
        Some((-32601, "Method not found".to_owned()))
    );
    assert_eq!(error_reply(wire, "initialize"), None);
    let refused_at_the_door = [
        (
            true,
            r#"{"jsonrpc":"2.0","id":0,"method":"server/discover"}"#,
        ),
        (
            false,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}"#,
        ),
    ];
    assert_eq!(
        error_reply(refused_at_the_door, "server/discover"),
        Some((-32000, "Bad Request: Server not initialized".to_owned()))
    );
    assert_eq!(error_reply(wire, "tools/list"), None);
}
