//! Generation and version negotiation, against the in-memory server and a scripted peer.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{ClientConfig, ConnectError, Event, GenerationMode, SendFailure};
use mcpg_core::diag::Rule;
use mcpg_core::server::ServerConfig;
use mcpg_core::{Generation, ProtocolVersion};
use serde_json::json;
use std::time::Duration;
use support::{Pair, Scripted, tool};

fn connected(events: &[Event]) -> &mcpg_core::client::Negotiated {
    events
        .iter()
        .find_map(|e| {
            if let Event::Connected(n) = e {
                Some(n)
            } else {
                None
            }
        })
        .expect("connected")
}

#[test]
fn auto_prefers_stateless_when_both_speak_it() {
    let mut p = Pair::new(
        ClientConfig::default(),
        ServerConfig::default(),
        vec![tool("a")],
    );
    p.connect();
    let ev = p.take();
    let n = connected(&ev);
    assert_eq!(n.generation, Generation::Stateless);
    assert_eq!(n.version, ProtocolVersion::V2026_07_28);
    assert_eq!(
        n.server_info.as_ref().map(|i| i.name.as_str()),
        Some("mcpg-server")
    );
    assert!(n.tools_list_changed());
    // The stateless generation has no handshake: nothing but the probe went out.
    let methods: Vec<String> = p
        .server_events
        .iter()
        .filter_map(|e| match e {
            mcpg_core::server::ServerEvent::Wire(w) => Some(w.raw.to_string()),
            _ => None,
        })
        .collect();
    assert!(
        methods.iter().all(|m| !m.contains("\"initialize\"")),
        "{methods:?}"
    );
}

#[test]
fn auto_falls_back_to_initialize_on_an_old_server() {
    let scfg = ServerConfig {
        versions: vec![ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
        ..Default::default()
    };
    let mut p = Pair::new(ClientConfig::default(), scfg, vec![tool("a")]);
    p.connect();
    let ev = p.take();
    let n = connected(&ev);
    assert_eq!(n.generation, Generation::Initialize);
    assert_eq!(n.version, ProtocolVersion::V2025_11_25);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::Negotiation))
    );
    assert!(
        p.server_events
            .iter()
            .any(|e| matches!(e, mcpg_core::server::ServerEvent::Initialized { .. }))
    );
}

#[test]
fn initialize_only_client_against_dual_server() {
    let ccfg = ClientConfig {
        mode: GenerationMode::Initialize,
        versions: vec![ProtocolVersion::V2025_03_26],
        ..Default::default()
    };
    let mut p = Pair::new(ccfg, ServerConfig::default(), vec![tool("a")]);
    p.connect();
    let ev = p.take();
    assert_eq!(connected(&ev).version, ProtocolVersion::V2025_03_26);
}

#[test]
fn stateless_requests_carry_the_meta_keys_and_results_their_type() {
    let mut p = Pair::new(
        ClientConfig::default(),
        ServerConfig::default(),
        vec![tool("a")],
    );
    p.connect();
    let op = p.client.list_tools(p.now);
    let out = p.client.poll_transmit().unwrap();
    let meta = &out.message.params().unwrap()["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
    assert_eq!(
        meta["io.modelcontextprotocol/clientInfo"]["name"],
        "mcp-playground"
    );
    let headers: Vec<(&str, &str)> = out.headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert!(headers.contains(&("MCP-Protocol-Version", "2026-07-28")));
    assert!(headers.contains(&("Mcp-Method", "tools/list")));
    p.to_server.push_back(out.message.raw().to_owned());
    p.pump();
    let ev = p.take();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ToolsListed { op: o, tools: 1, .. } if *o == op)),
        "{ev:#?}"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Diagnostic(_))),
        "{ev:#?}"
    );
}

#[test]
fn discover_method_not_found_falls_back() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    let (_, params) = s.last_request("initialize");
    assert_eq!(params.unwrap()["protocolVersion"], "2025-11-25");
    assert!(
        s.sent
            .iter()
            .any(|m| m.method() == Some("notifications/initialized"))
    );
    let ev = s.take();
    assert_eq!(connected(&ev).version, ProtocolVersion::V2025_11_25);
}

#[test]
fn silent_probe_times_out_and_falls_back() {
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    s.advance(Duration::from_secs(6));
    let (_, params) = s.last_request("initialize");
    assert!(params.is_some());
    // A late answer to the probe is recognised, not reported as an unknown id.
    let (probe_id, _) = s.last_request("server/discover");
    let late =
        json!({"jsonrpc":"2.0","id":probe_id.to_value(),"error":{"code":-32601,"message":"nope"}});
    s.feed(&late.to_string());
    let ev = s.take();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::LateResponse)),
        "{ev:#?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::UnknownResponseId))
    );
}

#[test]
fn server_picks_an_older_offered_version() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-06-18");
    assert_eq!(
        s.client.negotiated().unwrap().version,
        ProtocolVersion::V2025_06_18
    );
}

#[test]
fn server_picks_a_version_we_do_not_speak() {
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    s.reply_error("server/discover", -32601, "Method not found", None);
    s.reply("initialize", json!({"protocolVersion": "2099-01-01", "capabilities": {}, "serverInfo": {"name": "x", "version": "1"}}));
    let ev = s.take();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::VersionNotOffered))
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ConnectFailed(m) if m.why.contains("2099-01-01")))
    );
    assert!(!s.client.is_ready());
}

#[test]
fn unsupported_version_error_on_discover_falls_back() {
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    s.reply_error(
        "server/discover",
        -32022,
        "Unsupported protocol version",
        Some(json!({"supported": ["2025-06-18"], "requested": "2026-07-28"})),
    );
    s.reply("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "x", "version": "1"}}));
    assert_eq!(
        s.client.negotiated().unwrap().version,
        ProtocolVersion::V2025_06_18
    );
}

#[test]
fn stateless_only_client_reports_an_old_server_plainly() {
    let ccfg = ClientConfig {
        mode: GenerationMode::Stateless,
        ..Default::default()
    };
    let mut s = Scripted::new(ccfg);
    let op = s.client.list_tools(s.now);
    s.drain();
    s.reply_error("server/discover", -32601, "Method not found", None);
    let ev = s.take();
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::ConnectFailed(m) if m.why.contains("does not speak 2026-07-28"))
        ),
        "{ev:#?}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ToolsListFailed { op: o, .. } if *o == op)),
        "queued ops end too"
    );
}

#[test]
fn stateless_version_error_without_a_shared_revision_is_a_protocol_error() {
    // The server stops accepting 2026-07-28 and names only an older revision:
    // the call fails as a protocol error (there is no shared stateless revision).
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    s.reply("server/discover", json!({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}));
    assert!(s.client.is_ready());
    let op = s.client.call_tool(s.now, "x", None, Default::default());
    s.drain();
    s.reply_error(
        "tools/call",
        -32022,
        "Unsupported protocol version",
        Some(json!({"supported": ["2025-11-25"], "requested": "2026-07-28"})),
    );
    let ev = s.take();
    assert!(ev.iter().any(|e| matches!(e, Event::CallFinished { op: o, outcome: mcpg_core::client::CallOutcome::ProtocolError(err), .. } if *o == op && err.code == -32022)), "{ev:#?}");
}

#[test]
fn missing_result_type_is_flagged_under_stateless() {
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    s.reply(
        "server/discover",
        json!({"supportedVersions":["2026-07-28"],"capabilities":{}}),
    );
    let ev = s.take();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::MissingResultType))
    );
    assert!(
        s.client.is_ready(),
        "missing resultType is read as complete"
    );
}

#[test]
fn initialized_carries_the_version_header() {
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    let mut outs = vec![];
    while let Some(o) = s.client.poll_transmit() {
        outs.push(o);
    }
    let (id, _) = (outs[0].message.id().unwrap().clone(), ());
    s.client.handle_text(
        s.now,
        &json!({"jsonrpc":"2.0","id":id.to_value(),"error":{"code":-32601,"message":"no"}})
            .to_string(),
    );
    let init = s.client.poll_transmit().unwrap();
    assert!(
        init.headers
            .iter()
            .all(|(k, _)| *k != "MCP-Protocol-Version"),
        "not on initialize itself"
    );
    let reply = json!({"jsonrpc":"2.0","id":init.message.id().unwrap().to_value(),"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"x","version":"1"}}});
    s.client.handle_text(s.now, &reply.to_string());
    let note = s.client.poll_transmit().unwrap();
    assert_eq!(note.message.method(), Some("notifications/initialized"));
    assert!(
        note.headers
            .contains(&("MCP-Protocol-Version", "2025-11-25".to_owned())),
        "{:?}",
        note.headers
    );
}

#[test]
fn a_refused_but_listed_version_is_retried_once() {
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    s.reply("server/discover", json!({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}));
    let op = s.client.call_tool(s.now, "x", None, Default::default());
    s.drain();
    let refuse = json!({"supported": ["2026-07-28"], "requested": "2026-07-28"});
    s.reply_error(
        "tools/call",
        -32022,
        "Unsupported protocol version",
        Some(refuse.clone()),
    );
    let calls = s
        .sent
        .iter()
        .filter(|m| m.method() == Some("tools/call"))
        .count();
    assert_eq!(calls, 2, "sent once more");
    s.reply_error(
        "tools/call",
        -32022,
        "Unsupported protocol version",
        Some(refuse),
    );
    let calls = s
        .sent
        .iter()
        .filter(|m| m.method() == Some("tools/call"))
        .count();
    assert_eq!(calls, 2, "but only once");
    let ev = s.take();
    assert!(ev.iter().any(|e| matches!(e, Event::CallFinished { op: o, outcome: mcpg_core::client::CallOutcome::ProtocolError(err), .. } if *o == op && err.code == -32022)), "{ev:#?}");
}

fn discover_ok() -> serde_json::Value {
    json!({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"})
}

#[test]
fn a_probe_answered_late_still_wins_over_the_fallback() {
    // A loaded machine: the stateless server answers discover after the probe timeout.
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    let (probe, _) = s.last_request("server/discover");
    s.advance(Duration::from_secs(6));
    let (init, _) = s.last_request("initialize");
    s.feed(&json!({"jsonrpc":"2.0","id":probe.to_value(),"result":discover_ok()}).to_string());
    assert!(s.client.is_ready());
    assert_eq!(
        s.client.negotiated().unwrap().generation,
        Generation::Stateless
    );
    // The stateless server then refuses the handshake; that answer is now moot.
    s.feed(&json!({"jsonrpc":"2.0","id":init.to_value(),"error":{"code":-32022,"message":"initialize not accepted","data":{"supported":["2026-07-28"]}}}).to_string());
    let ev = s.take();
    assert!(
        !ev.iter().any(|e| matches!(e, Event::ConnectFailed(_))),
        "{ev:#?}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::LateResponse)),
        "{ev:#?}"
    );
    assert!(s.client.is_ready());
}

#[test]
fn initialize_refused_by_a_stateless_server_probes_again() {
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    s.advance(Duration::from_secs(6)); // the probe went unanswered (the server honoured our cancel)
    s.reply_error(
        "initialize",
        -32022,
        "initialize not accepted",
        Some(json!({"supported": ["2026-07-28"], "requested": "2025-11-25"})),
    );
    let probes = s
        .sent
        .iter()
        .filter(|m| m.method() == Some("server/discover"))
        .count();
    assert_eq!(probes, 2, "probed again");
    s.reply("server/discover", discover_ok());
    assert!(s.client.is_ready(), "{:#?}", s.events);
    assert_eq!(
        s.client.negotiated().unwrap().version,
        ProtocolVersion::V2026_07_28
    );
    // But only once: a second refusal ends negotiation with a clear error.
    let mut s = Scripted::new(ClientConfig::default());
    s.client.connect(s.now);
    s.drain();
    s.advance(Duration::from_secs(6));
    s.reply_error(
        "initialize",
        -32022,
        "no",
        Some(json!({"supported": ["2026-07-28"]})),
    );
    s.reply_error("server/discover", -32601, "Method not found", None);
    s.reply_error(
        "initialize",
        -32022,
        "no",
        Some(json!({"supported": ["2026-07-28"]})),
    );
    assert!(
        s.take()
            .iter()
            .any(|e| matches!(e, Event::ConnectFailed(m) if m.why.contains("refused initialize")))
    );
}

/// A handshake the server refuses with an HTTP status (no JSON-RPC error in the
/// body) ends with that status, typed, whichever way the client negotiates; the
/// words stay those of a transport failure.
#[test]
fn a_handshake_refused_with_an_http_status_carries_the_status() {
    let refuse = |s: &mut Scripted, method: &str| {
        let (id, _) = s.last_request(method);
        s.client.handle_send_failed(
            s.now,
            &id,
            SendFailure::Rejected {
                status: 401,
                body: String::new(),
            },
        );
        s.drain();
    };
    for (mode, refused, why) in [
        (
            GenerationMode::Initialize,
            &["initialize"][..],
            "initialize failed: transport failed: HTTP 401: ",
        ),
        (
            GenerationMode::Auto,
            &["server/discover", "initialize"][..],
            "initialize failed: transport failed: HTTP 401: ",
        ),
        (
            GenerationMode::Stateless,
            &["server/discover"][..],
            "the server does not speak 2026-07-28: transport failed: HTTP 401: ",
        ),
    ] {
        let mut s = Scripted::new(ClientConfig {
            mode,
            ..Default::default()
        });
        s.client.connect(s.now);
        s.drain();
        for method in refused {
            refuse(&mut s, method);
        }
        let ev = s.take();
        let want = ConnectError {
            why: why.into(),
            refused: Some(401),
        };
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::ConnectFailed(e) if *e == want)),
            "{mode:?}: {ev:#?}"
        );
    }
}
