//! Streamable HTTP inside the driver: the `HttpMachine` writes every request
//! (`Output::Http`), the shell reports what the network did (`Input::Http`). The
//! peer is the demo server behind a scripted HTTP server, under a virtual clock.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::ProtocolVersion;
use mcpg_demo::DemoServer;
use mcpg_page::{
    Command, Conn, HttpTarget, Input, LinkSpec, Method, NetEvent, NetFailure, Output, Pin, Source,
};
use support::Shell;
use support::http::{Peer, Reply, demo, event, header, rpc_method};

const URL: &str = "https://mcp.example.com/mcp";

/// Connected to the demo over HTTP (pinned to `pin`), with a session id.
fn connected(pin: Pin) -> (Shell, Peer, DemoServer) {
    let mut s = Shell::new();
    s.cmd(Command::Pin(pin));
    s.cmd(Command::Connect(Source::Url(URL.into())));
    assert!(matches!(
        s.effects.first(),
        Some(Output::OpenLink { link: LinkSpec::Http(HttpTarget::Url(u)), .. }) if u == URL
    ));
    let mut peer = Peer::with_session("sess-1");
    let mut server = DemoServer::new();
    assert!(peer.serve(&mut s, &mut |r, now| demo(&mut server, r, now)) > 0);
    assert_eq!(s.conn, Conn::Ready);
    (s, peer, server)
}

#[test]
fn the_loop_runs_end_to_end_over_http_and_closing_deletes_the_session() {
    let (mut s, mut peer, mut server) = connected(Pin::Auto);
    s.cmd(Command::Run);
    for _ in 0..10 {
        peer.serve(&mut s, &mut |r, now| demo(&mut server, r, now));
        s.advance(500);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(
        s.answer.as_deref(),
        Some("get_weather says: Austin: 91F, sunny")
    );
    let call = peer.posts("tools/call")[0];
    assert_eq!(header(call, "Mcp-Name"), Some("get_weather"));
    assert_eq!(header(call, "Mcp-Method"), Some("tools/call"));
    assert_eq!(header(call, "Mcp-Session-Id"), Some("sess-1"));
    assert_eq!(call.url, URL);

    // Replacing the connection DELETEs the session; the shell forgets the link only
    // once the DELETE was answered.
    let old = s.d.conn();
    s.cmd(Command::Connect(Source::Demo));
    peer.serve(&mut s, &mut |r, now| demo(&mut server, r, now));
    let (conn, delete) = peer.seen.last().unwrap();
    assert_eq!((*conn, delete.method), (old, Method::Delete));
    assert_eq!(header(delete, "Mcp-Session-Id"), Some("sess-1"));
    assert!(header(delete, "MCP-Protocol-Version").is_some());
    assert_eq!(peer.closed, [old]);
    assert!(
        !s.notes().iter().any(|n| n.contains("ignored")),
        "the DELETE's answer went to the closing machine: {:?}",
        s.notes()
    );
}

#[test]
fn the_get_stream_opens_before_initialized_and_delivers_list_changed() {
    let mut s = Shell::new();
    s.cmd(Command::Pin(Pin::Revision(ProtocolVersion::V2025_11_25)));
    s.cmd(Command::Connect(Source::Url(URL.into())));
    let mut peer = Peer::with_session("sess-2");
    let mut server = DemoServer::new();
    let mut script = |r: &mcpg_page::HttpRequest, now| match r.method {
        Method::Get => Reply::Sse {
            body: ": open\n\n".into(),
            end: false,
        },
        _ => demo(&mut server, r, now),
    };
    peer.serve(&mut s, &mut script);
    assert_eq!(s.conn, Conn::Ready);
    let order: Vec<String> = peer
        .seen
        .iter()
        .map(|(_, r)| rpc_method(r).unwrap_or_else(|| r.method.as_str().to_owned()))
        .collect();
    let get = order.iter().position(|m| m == "GET").expect("a GET stream");
    let initialized = order
        .iter()
        .position(|m| m == "notifications/initialized")
        .expect("initialized");
    assert!(get < initialized, "{order:?}");
    let lists = peer.posts("tools/list").len();

    let (conn, req) = peer.held[0];
    let changed = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    peer.push(&mut s, conn, req, &event(Some("g1"), changed));
    peer.serve(&mut s, &mut script);
    assert!(
        s.wire()
            .iter()
            .any(|(sent, raw)| !sent && raw.contains("notifications/tools/list_changed")),
        "list_changed is in the wire log"
    );
    assert!(
        peer.posts("tools/list").len() > lists,
        "the page lists again"
    );
}

#[test]
fn an_unreachable_cross_origin_url_names_the_blocked_url_and_fails_the_step() {
    let (mut s, peer, _server) = connected(Pin::Auto);
    s.cmd(Command::Step);
    let (conn, list) = peer_next(&mut s, "tools/list");
    drop(peer);
    s.input(Input::Http {
        conn,
        event: NetEvent::Failed(list.id, NetFailure::Unreachable(
            "could not reach https://mcp.example.com/mcp (Failed to fetch): the server is down, or the browser blocked the request (CORS)".into(),
        )),
    });
    assert!(
        s.notice
            .as_deref()
            .unwrap_or("")
            .contains("The browser blocked the request to https://mcp.example.com/mcp"),
        "{:?}",
        s.notice
    );
    assert_eq!(s.steps[0].status, mcpg_host::StepStatus::Failed);
}

#[test]
fn a_relay_link_posts_to_the_relay_path_without_the_token() {
    let mut s = Shell::new();
    s.cmd(Command::Connect(Source::Relay("far away".into())));
    let (_, init) = s
        .effects
        .iter()
        .find_map(|o| match o {
            Output::Http { conn, request } => Some((*conn, request.clone())),
            _ => None,
        })
        .expect("the first request");
    assert_eq!(init.url, "/relay/far%20away");
}

/// The next request for `method` the driver asked for (not answered).
fn peer_next(s: &mut Shell, method: &str) -> (u64, mcpg_page::HttpRequest) {
    let found = s.effects.iter().find_map(|o| match o {
        Output::Http { conn, request } if rpc_method(request).as_deref() == Some(method) => {
            Some((*conn, request.clone()))
        }
        _ => None,
    });
    s.effects.clear();
    found.expect("the request was asked for")
}

#[test]
fn a_call_whose_stream_breaks_without_an_event_id_fails_at_once() {
    let (mut s, mut peer, mut server) = connected(Pin::Revision(ProtocolVersion::V2025_11_25));
    let mut script = |r: &mcpg_page::HttpRequest, now| {
        if rpc_method(r).as_deref() == Some("tools/call") {
            return Reply::Sse {
                body: ": working\n\n".into(),
                end: false,
            };
        }
        demo(&mut server, r, now)
    };
    for _ in 0..4 {
        s.cmd(Command::Step);
        peer.serve(&mut s, &mut script);
    }
    let call = peer.posts("tools/call")[0].id;
    let (conn, _) = *peer.held.iter().find(|(_, r)| *r == call).expect("held");
    s.input(Input::Http {
        conn,
        event: NetEvent::Failed(
            call,
            NetFailure::Broken("reading the response failed: network error".into()),
        ),
    });
    let step5 = s.steps.iter().find(|st| st.number == 5).expect("step 5");
    assert_eq!(step5.status, mcpg_host::StepStatus::Failed, "{step5:?}");
    assert!(
        format!("{step5:?}").contains("no event id to resume from"),
        "{step5:?}"
    );
    assert_eq!(s.conn, Conn::Ready, "the link stays usable");
}
