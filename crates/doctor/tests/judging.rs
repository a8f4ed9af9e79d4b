//! The judging functions, one observation at a time: each verdict, and the fix
//! that goes with it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_core::ProtocolVersion;
use mcpg_doctor::auth::{AuthSeen, discovery};
use mcpg_doctor::capabilities::{Answered, FeatureSeen, capabilities};
use mcpg_doctor::handshake::{HandshakeSeen, discover, initialize, revisions};
use mcpg_doctor::http::{CorsSeen, PostSeen, accept, cors, post};
use mcpg_doctor::network::{TcpFailure, TlsProblem, TlsSeen, resolve, tcp, tls};
use mcpg_doctor::stdio::{ProgramSeen, StartupSeen, program, startup};
use mcpg_doctor::tools::{ListingSeen, list, param_headers, schemas};
use mcpg_doctor::{Check, Finding, Report, Verdict};
use serde_json::{Value, json};

const URL: &str = "https://mcp.example.com/mcp";
const ORIGIN: &str = "http://127.0.0.1:8000";

fn fix(f: &Finding) -> &str {
    f.fix.as_deref().unwrap_or("")
}

fn seen(status: u16, content_type: Option<&str>) -> PostSeen {
    PostSeen {
        status,
        content_type: content_type.map(str::to_owned),
        ..PostSeen::default()
    }
}

#[test]
fn the_orders_and_ids_are_stable() {
    let ids: Vec<&str> = Check::URL.iter().map(|c| c.id()).collect();
    assert_eq!(
        ids,
        [
            "dns",
            "tcp",
            "tls",
            "http-post",
            "http-accept",
            "cors",
            "auth-discovery",
            "server-discover",
            "initialize",
            "revisions",
            "tools-list",
            "x-mcp-header",
            "tool-schemas",
            "capabilities"
        ]
    );
    assert_eq!(Check::STDIO[..2], [Check::Program, Check::Startup]);
    assert_eq!(Check::STDIO[2..], Check::SESSION);
    assert!(Verdict::Fail > Verdict::Warn && Verdict::Warn > Verdict::Pass);
    assert!(Verdict::Pass > Verdict::Skip);
}

#[test]
fn a_report_keeps_order_skips_the_rest_and_prints_a_stable_shape() {
    let mut r = Report::new();
    assert_eq!(r.worst(), Verdict::Skip);
    r.push(program("nope", &ProgramSeen::Missing { on_path: true }));
    r.skip_rest(&Check::STDIO, "the program was not found");
    assert_eq!(r.findings().len(), Check::STDIO.len());
    assert_eq!(r.worst(), Verdict::Fail);
    assert_eq!(r.get(Check::Program).unwrap().verdict, Verdict::Fail);
    assert_eq!(r.get(Check::ToolsList).unwrap().verdict, Verdict::Skip);
    let j = r.to_json("--stdio nope", |s| s.replace('\u{1b}', "\\u{1b}"));
    assert_eq!(j["worst"], "fail");
    assert_eq!(j["checks"][0]["id"], "program");
    assert_eq!(j["checks"][0]["verdict"], "fail");
    assert!(
        j["checks"][0]["fix"]
            .as_str()
            .unwrap()
            .contains("full path")
    );
    assert_eq!(j["checks"][1]["verdict"], "skip");
    assert_eq!(j["checks"][1]["fix"], Value::Null);
    let keys: Vec<&str> = j["checks"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["id", "title", "verdict", "evidence", "fix"]);
}

#[test]
fn network_checks() {
    let addrs = vec!["192.0.2.1".to_owned()];
    assert_eq!(resolve("h", Ok(&addrs)).verdict, Verdict::Pass);
    assert_eq!(resolve("h", Ok(&[])).verdict, Verdict::Fail);
    let f = resolve("h.invalid", Err("failed to lookup address"));
    assert_eq!(f.verdict, Verdict::Fail);
    assert!(f.evidence.contains("h.invalid does not resolve"));
    assert_eq!(tcp("h:1", Ok(())).verdict, Verdict::Pass);
    let f = tcp("h:1", Err(&TcpFailure::Refused));
    assert!(f.evidence.contains("nothing listens") && fix(&f).contains("port"));
    assert_eq!(tls("h", &TlsSeen::NotUsed).verdict, Verdict::Skip);
    assert_eq!(tls("h", &TlsSeen::Valid).verdict, Verdict::Pass);
    for (p, word) in [
        (TlsProblem::UnknownIssuer, "trusted"),
        (TlsProblem::Expired, "expired"),
        (TlsProblem::WrongName, "other names"),
    ] {
        let f = tls("h", &TlsSeen::Failed(p));
        assert_eq!(f.verdict, Verdict::Fail);
        assert!(f.evidence.contains(word), "{f:?}");
    }
}

#[test]
fn the_post_status_and_content_type() {
    let ok = post(&seen(200, Some("text/event-stream")));
    assert_eq!(ok.verdict, Verdict::Pass);
    assert_eq!(ok.evidence, "HTTP 200, text/event-stream");
    assert_eq!(
        post(&seen(200, Some("application/json; charset=utf-8"))).verdict,
        Verdict::Pass
    );
    let html = post(&seen(200, Some("text/html")));
    assert_eq!(html.verdict, Verdict::Fail);
    assert!(fix(&html).contains("/mcp"));
    let signin = post(&seen(401, None));
    assert_eq!(signin.verdict, Verdict::Pass);
    assert!(signin.evidence.contains("sign-in"));
    assert_eq!(post(&seen(406, None)).verdict, Verdict::Fail);
    let old = post(&seen(405, None));
    assert_eq!(old.verdict, Verdict::Warn);
    assert!(fix(&old).contains("--transport sse"));
    assert_eq!(post(&seen(502, None)).verdict, Verdict::Fail);
    let moved = post(&PostSeen {
        status: 307,
        location: Some("https://elsewhere/mcp".into()),
        ..PostSeen::default()
    });
    assert!(moved.evidence.contains("https://elsewhere/mcp"));
    let strict = accept(&seen(406, None));
    assert!(
        strict
            .evidence
            .contains("application/json, text/event-stream")
    );
    assert!(
        accept(&seen(200, None))
            .evidence
            .contains("does not insist")
    );
}

#[test]
fn cors_passes_for_the_origin_and_names_the_relay_otherwise() {
    let allowed = CorsSeen {
        status: 204,
        allow_origin: Some(ORIGIN.into()),
        allow_methods: Some("GET, POST, DELETE".into()),
        allow_headers: Some("Content-Type, Mcp-Protocol-Version, Mcp-Session-Id".into()),
    };
    assert_eq!(cors(URL, ORIGIN, &allowed).verdict, Verdict::Pass);
    let star = CorsSeen {
        allow_origin: Some("*".into()),
        allow_headers: Some("*".into()),
        allow_methods: None,
        status: 200,
    };
    assert_eq!(cors(URL, ORIGIN, &star).verdict, Verdict::Pass);
    let none = cors(
        URL,
        ORIGIN,
        &CorsSeen {
            status: 501,
            ..CorsSeen::default()
        },
    );
    assert_eq!(none.verdict, Verdict::Warn);
    assert!(fix(&none).contains("mcpg serve"), "{none:?}");
    assert!(fix(&none).contains(&format!("url = \"{URL}\"")));
    assert!(fix(&none).contains("/relay/"));
    let other = cors(
        URL,
        ORIGIN,
        &CorsSeen {
            allow_origin: Some("https://other.example".into()),
            ..allowed.clone()
        },
    );
    assert!(other.evidence.contains("not http://127.0.0.1:8000"));
    let headers = cors(
        URL,
        ORIGIN,
        &CorsSeen {
            allow_headers: Some("content-type".into()),
            ..allowed
        },
    );
    assert!(
        headers.evidence.contains("mcp-protocol-version"),
        "{headers:?}"
    );
}

#[test]
fn sign_in_discovery() {
    assert_eq!(discovery(URL, None).verdict, Verdict::Skip);
    let found = AuthSeen {
        status: 401,
        challenge: true,
        resource_metadata: Some(
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp".into(),
        ),
        server_metadata: Some(
            "https://as.example.com/.well-known/oauth-authorization-server".into(),
        ),
        ..AuthSeen::default()
    };
    let f = discovery(URL, Some(&found));
    assert_eq!(f.verdict, Verdict::Pass);
    assert!(f.evidence.contains("protected resource metadata at"));
    assert!(fix(&f).contains(&format!("mcpg auth login --url {URL}")));
    let broken = AuthSeen {
        failure: Some("no protected resource metadata".into()),
        ..found.clone()
    };
    assert_eq!(discovery(URL, Some(&broken)).verdict, Verdict::Fail);
    let odd = AuthSeen {
        findings: vec!["auth-issuer-mismatch".into()],
        ..found
    };
    assert_eq!(discovery(URL, Some(&odd)).verdict, Verdict::Warn);
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
    assert!(fix(&d).contains("does not implement server/discover"));
    assert_eq!(initialize(&init, false).verdict, Verdict::Pass);
    let r = revisions(&not_found, &init);
    assert_eq!(r.verdict, Verdict::Pass);
    assert!(r.evidence.ends_with("negotiates 2025-11-25"), "{r:?}");
    assert!(r.evidence.contains("the server speaks 2025-11-25"));
    // A 2026-07-28 server that also answers initialize.
    let both = agreed("2026-07-28", &["2026-07-28", "2025-11-25"]);
    let r = revisions(&both, &init);
    assert!(r.evidence.ends_with("negotiates 2026-07-28"));
    // Nothing works.
    let dead = HandshakeSeen::Failed("the server exited with status 1".into());
    assert_eq!(discover(&dead, false).verdict, Verdict::Fail);
    assert_eq!(initialize(&not_found, false).verdict, Verdict::Fail);
    assert_eq!(revisions(&dead, &dead).verdict, Verdict::Fail);
    // Behind a sign-in: skipped, not failed.
    let f = discover(&HandshakeSeen::SignIn, false);
    assert_eq!(f.verdict, Verdict::Skip);
    assert_eq!(
        revisions(&HandshakeSeen::SignIn, &HandshakeSeen::SignIn).verdict,
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
    assert!(f.evidence.contains("1 tool mirror 1 argument"), "{f:?}");
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
    assert_eq!(error_reply(wire, "tools/list"), None);
}
