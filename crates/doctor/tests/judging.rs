//! The judging below MCP, one observation at a time (the orders and the
//! report, name, TCP, TLS, the POSTs, CORS, sign-in discovery): each verdict,
//! and the fix that goes with it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_doctor::auth::{AuthSeen, discovery};
use mcpg_doctor::http::{CorsSeen, PostSeen, accept, cors, post};
use mcpg_doctor::network::{TcpFailure, TlsProblem, TlsSeen, resolve, tcp, tls};
use mcpg_doctor::stdio::{ProgramSeen, program};
use mcpg_doctor::{Check, Finding, Report, Verdict};
use serde_json::Value;

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
    let ok = seen(200, Some("application/json"));
    let strict = accept(&ok, &seen(406, None));
    assert!(
        strict
            .evidence
            .contains("application/json, text/event-stream")
    );
    assert!(
        accept(&ok, &seen(200, None))
            .evidence
            .contains("does not insist")
    );
    // Nothing to compare with a POST that was refused anyway.
    let skipped = accept(&seen(405, None), &seen(405, None));
    assert_eq!(skipped.verdict, Verdict::Skip);
    assert!(skipped.evidence.contains("HTTP 405"));
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
    let cached = AuthSeen {
        cached_login: true,
        ..AuthSeen::default()
    };
    let f = discovery(URL, Some(&cached));
    assert!(
        f.evidence
            .ends_with("; the checks below use the cached login")
    );
    assert!(fix(&f).starts_with("The cached login is in use"));
}
