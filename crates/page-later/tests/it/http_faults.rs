//! Streamable HTTP's harder cases inside the driver: a cut SSE answer resumed, the
//! 2026-07-28 `Mcp-Param-*` headers, an oversized answer, cancel aborting the fetch,
//! the link replaced mid-call. Scripted server, virtual clock.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::{ProtocolVersion, Timestamp};
use mcpg_demo::DemoServer;
use mcpg_host::StepStatus;
use mcpg_page::{Command, Conn, HttpRequest, Input, LogRow, Method, NetEvent, Output, Pin, Source};
use serde_json::{Value, json};
use support::Shell;
use support::http::{Peer, Reply, demo, event, header, rpc_method};

const URL: &str = "http://127.0.0.1:9/mcp";

fn start(pin: Pin) -> Shell {
    let mut s = Shell::new();
    s.cmd(Command::Pin(pin));
    s.cmd(Command::Connect(Source::Url(URL.into())));
    s
}

/// Runs the loop to its end, serving with `script` and letting timers fire.
fn run(s: &mut Shell, peer: &mut Peer, script: &mut dyn FnMut(&HttpRequest, Timestamp) -> Reply) {
    s.cmd(Command::Run);
    for _ in 0..20 {
        peer.serve(s, script);
        s.advance(500);
    }
}

#[test]
fn a_cut_sse_answer_is_resumed_with_last_event_id() {
    let mut s = start(Pin::Revision(ProtocolVersion::V2025_11_25));
    let mut peer = Peer::with_session("s");
    let mut server = DemoServer::new();
    let mut stash: Option<String> = None;
    let mut script = |r: &HttpRequest, now| {
        if rpc_method(r).as_deref() == Some("tools/call") {
            let Reply::Json(answer) = demo(&mut server, r, now) else {
                panic!("the demo answers a call with one message");
            };
            stash = Some(answer);
            // The priming event, then the connection drops.
            return Reply::Sse {
                body: "id: e1\nretry: 700\ndata:\n\n".into(),
                end: true,
            };
        }
        if r.method == Method::Get && header(r, "Last-Event-ID") == Some("e1") {
            return Reply::Sse {
                body: event(Some("e2"), &stash.take().expect("resumed once")),
                end: true,
            };
        }
        demo(&mut server, r, now)
    };
    peer.serve(&mut s, &mut script);
    run(&mut s, &mut peer, &mut script);
    assert_eq!(
        s.answer.as_deref(),
        Some("get_weather says: Austin: 91F, sunny")
    );
    let resumes: Vec<_> = peer
        .seen
        .iter()
        .filter(|(_, r)| header(r, "Last-Event-ID").is_some())
        .collect();
    assert_eq!(resumes.len(), 1);
    assert!(
        s.notes().iter().any(|n| n.contains("resum")),
        "the wire log says the stream was resumed: {:?}",
        s.notes()
    );
}

/// A 2026-07-28 server with one tool whose `city` travels as `Mcp-Param-City`; the
/// call is refused without it, as rmcp does.
fn stateless(r: &HttpRequest, _: Timestamp) -> Reply {
    let body: Value = serde_json::from_str(r.body.as_deref().unwrap_or("{}")).unwrap();
    let id = body["id"].clone();
    let mut result = match body["method"].as_str().unwrap_or("") {
        "server/discover" => {
            json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "serverInfo": {"name": "w", "version": "1"}})
        }
        "tools/list" => {
            json!({"tools": [{"name": "forecast", "description": "Weather forecast for a city",
            "inputSchema": {"type": "object", "required": ["city"], "properties": {
                "city": {"type": "string", "x-mcp-header": "City"}}}}]})
        }
        "tools/call" => match header(r, "Mcp-Param-City") {
            Some(_) => json!({"content": [{"type": "text", "text": format!(
                "{}: sunny tomorrow", body["params"]["arguments"]["city"].as_str().unwrap_or("?"))}]}),
            None => {
                return Reply::Json(
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32020, "message": "missing Mcp-Param-City header"}})
                        .to_string(),
                );
            }
        },
        _ => return Reply::Accepted,
    };
    result["resultType"] = json!("complete");
    Reply::Json(json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string())
}

#[test]
fn a_2026_call_carries_its_mcp_param_headers() {
    let mut s = start(Pin::Auto);
    let mut peer = Peer::default();
    peer.serve(&mut s, &mut stateless);
    assert_eq!(s.conn, Conn::Ready);
    s.cmd(Command::SetPrompt("forecast for Zürich".into()));
    run(&mut s, &mut peer, &mut stateless);
    let call = peer.posts("tools/call")[0];
    assert!(
        header(call, "Mcp-Param-City").is_some(),
        "{:?}",
        call.headers
    );
    assert_eq!(header(call, "MCP-Protocol-Version"), Some("2026-07-28"));
    assert!(
        s.answer
            .as_deref()
            .unwrap_or("")
            .contains("Zürich: sunny tomorrow"),
        "{:?}",
        s.answer
    );
    assert!(
        peer.seen.iter().all(|(_, r)| r.method == Method::Post),
        "no GET stream under 2026-07-28"
    );
}

#[test]
fn an_oversized_answer_fails_the_call_at_once_and_the_page_keeps_working() {
    let mut s = start(Pin::Auto);
    let mut peer = Peer::with_session("s");
    let mut server = DemoServer::new();
    let mut big = true;
    let mut script = |r: &HttpRequest, now| {
        if rpc_method(r).as_deref() == Some("tools/call") && std::mem::take(&mut big) {
            let mut bytes =
                br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":""#.to_vec();
            bytes.resize((32 << 20) + 100, b'x');
            return Reply::Bytes(bytes);
        }
        demo(&mut server, r, now)
    };
    peer.serve(&mut s, &mut script);
    s.cmd(Command::Step); // 1: list
    peer.serve(&mut s, &mut script);
    s.cmd(Command::Step); // 2
    s.cmd(Command::Step); // 3
    s.cmd(Command::Step); // 4: the call
    let asked = s.now;
    peer.serve(&mut s, &mut script);
    assert_eq!(s.now, asked, "no time passed");
    let step5 = s.steps.iter().find(|st| st.number == 5).expect("step 5");
    assert_eq!(step5.status, StepStatus::Failed, "{step5:?}");
    let said = format!("{step5:?}");
    assert!(
        said.contains("33554532") && said.contains("33554432"),
        "size and limit: {said}"
    );
    let dropped = s.d.log().iter().any(|r| matches!(r, LogRow::Wire { raw, .. } if raw.contains("[dropped: a message of 33554532 bytes")));
    assert!(dropped, "the wire log shows the dropped answer");
    let call = peer.posts("tools/call")[0].id;
    assert!(
        peer.aborted.contains(&call),
        "the oversized body is not read on"
    );

    // The next call works.
    s.cmd(Command::Reset);
    run(&mut s, &mut peer, &mut script);
    assert_eq!(
        s.answer.as_deref(),
        Some("get_weather says: Austin: 91F, sunny")
    );
}

/// Serves the demo, but holds every `tools/call` open (a progress-less slow call).
fn holding(server: &mut DemoServer, r: &HttpRequest, now: Timestamp) -> Reply {
    if rpc_method(r).as_deref() == Some("tools/call") {
        return Reply::Sse {
            body: "id: c0\ndata:\n\n".into(),
            end: false,
        };
    }
    demo(server, r, now)
}

#[test]
fn cancel_aborts_the_calls_fetch() {
    for pin in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let mut s = start(Pin::Revision(pin));
        let mut peer = Peer::with_session("s");
        let mut server = DemoServer::new();
        let mut script = |r: &HttpRequest, now| holding(&mut server, r, now);
        peer.serve(&mut s, &mut script);
        for _ in 0..4 {
            s.cmd(Command::Step);
            peer.serve(&mut s, &mut script);
        }
        let call = peer.posts("tools/call")[0].id;
        assert!(
            peer.held.iter().any(|(_, r)| *r == call),
            "{pin:?}: the call is in flight"
        );
        s.cmd(Command::Cancel);
        peer.serve(&mut s, &mut script);
        assert!(
            peer.aborted.contains(&call),
            "{pin:?}: the fetch is aborted"
        );
        let told = !peer.posts("notifications/cancelled").is_empty();
        assert_eq!(
            told,
            pin == ProtocolVersion::V2025_11_25,
            "{pin:?}: closing is the cancel in 2026"
        );
    }
}

#[test]
fn replacing_the_link_mid_call_aborts_it_and_late_bytes_are_harmless() {
    let mut s = start(Pin::Revision(ProtocolVersion::V2025_11_25));
    let mut peer = Peer::with_session("s");
    let mut server = DemoServer::new();
    let mut script = |r: &HttpRequest, now| holding(&mut server, r, now);
    peer.serve(&mut s, &mut script);
    for _ in 0..4 {
        s.cmd(Command::Step);
        peer.serve(&mut s, &mut script);
    }
    let old = s.d.conn();
    let call = peer.posts("tools/call")[0].id;
    s.cmd(Command::Connect(Source::Demo));
    // Hold the DELETE's answer to look at the moment in between.
    let outs: Vec<Output> = s.effects.clone();
    assert!(
        outs.iter()
            .any(|o| matches!(o, Output::AbortHttp { conn, req } if *conn == old && *req == call))
    );
    let delete = outs
        .iter()
        .find_map(|o| match o {
            Output::Http { conn, request } if *conn == old && request.method == Method::Delete => {
                Some(request.clone())
            }
            _ => None,
        })
        .expect("the session is DELETEd");
    assert_eq!(header(&delete, "Mcp-Session-Id"), Some("s"));
    assert_eq!(header(&delete, "MCP-Protocol-Version"), Some("2025-11-25"));
    // A late chunk of the aborted call reaches the closing machine, which drops it.
    s.input(Input::Http {
        conn: old,
        event: NetEvent::Chunk(call, b"data: {}\n\n".to_vec()),
    });
    assert_eq!(s.conn, Conn::Ready, "the demo is connected");
    assert!(
        s.notes().iter().all(|n| !n.contains("ignored")),
        "{:?}",
        s.notes()
    );
    s.effects.clear();
    s.advance(60_000);
    assert!(
        s.effects
            .iter()
            .any(|o| matches!(o, Output::CloseLink { conn } if *conn == old)),
        "an unanswered DELETE gives up and the shell forgets the link: {:?}",
        s.effects
    );
    let old_after = s.d.conn();
    s.input(Input::Http {
        conn: old,
        event: NetEvent::End(call),
    });
    assert!(
        s.notes()
            .iter()
            .any(|n| n.contains("ignored") && n.contains(&format!("#{old}"))),
        "after the close, a stray input is recorded as such"
    );
    assert_eq!(old_after, s.d.conn());
}
