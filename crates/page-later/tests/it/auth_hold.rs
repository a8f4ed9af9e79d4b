//! A Streamable HTTP server that wants authorization (issue 15): its 401 holds the
//! requests and shows [`mcpg_page::AuthNeeded`]; "resume" re-sends them in order
//! (the shell adds the token), "give up" fails them. No token ever enters the driver.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_demo::DemoServer;
use mcpg_page::{AuthCommand, Command, Conn, HttpTarget, Method, Pin, Source};
use support::Shell;
use support::http::{Peer, Reply, demo, rpc_method};

const URL: &str = "https://mcp.example.com/mcp";
const CHALLENGE: &str = r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#;

/// A server that refuses everything with 401 until `open` is set.
fn refusing(
    open: &std::cell::Cell<bool>,
    server: &mut DemoServer,
) -> impl FnMut(&mcpg_page::HttpRequest, mcpg_core::Timestamp) -> Reply {
    move |r, now| {
        if open.get() || r.method == Method::Delete {
            demo(server, r, now)
        } else {
            Reply::WithHeader(
                401,
                ("www-authenticate".into(), CHALLENGE.into()),
                "unauthorized".into(),
            )
        }
    }
}

fn refused() -> (Shell, Peer) {
    let mut s = Shell::new();
    s.cmd(Command::Pin(Pin::Auto));
    s.cmd(Command::Connect(Source::Url(URL.into())));
    (s, Peer::with_session("sess-a"))
}

#[test]
fn a_401_holds_the_requests_and_resume_resends_them_in_order() {
    let (mut s, mut peer) = refused();
    let open = std::cell::Cell::new(false);
    let mut server = DemoServer::new();
    peer.serve(&mut s, &mut refusing(&open, &mut server));
    let needed = s
        .auth
        .clone()
        .expect("the page shows that the server wants authorization");
    assert_eq!(needed.status, 401);
    assert_eq!(needed.target, HttpTarget::Url(URL.into()));
    assert_eq!(needed.www_authenticate.as_deref(), Some(CHALLENGE));
    // Held, not failed: the connection still waits.
    assert_eq!(s.conn, Conn::Connecting);
    s.advance(60_000);
    peer.serve(&mut s, &mut refusing(&open, &mut server));
    assert_eq!(
        s.conn,
        Conn::Connecting,
        "a held request does not time out into a failure while the learner signs in"
    );

    open.set(true);
    s.cmd(Command::Auth(AuthCommand::Resume));
    assert_eq!(s.auth, None);
    let resent = peer.seen.len();
    peer.serve(&mut s, &mut refusing(&open, &mut server));
    assert!(peer.seen.len() > resent, "resume re-sent the held request");
    assert_eq!(s.conn, Conn::Ready);
    let first = &peer.seen[resent].1;
    assert!(
        rpc_method(first).is_some(),
        "the first re-sent request is the held one"
    );
}

#[test]
fn giving_up_fails_the_held_requests_and_the_connection_says_why() {
    let (mut s, mut peer) = refused();
    let open = std::cell::Cell::new(false);
    let mut server = DemoServer::new();
    peer.serve(&mut s, &mut refusing(&open, &mut server));
    assert!(s.auth.is_some());
    s.cmd(Command::Auth(AuthCommand::GiveUp(
        "sign-in cancelled".into(),
    )));
    peer.serve(&mut s, &mut refusing(&open, &mut server));
    assert_eq!(s.auth, None);
    assert!(
        matches!(&s.conn, Conn::Closed(why) if why.contains("401") || why.contains("sign-in")),
        "{:?}",
        s.conn
    );
}

#[test]
fn a_new_connection_forgets_the_wait() {
    let (mut s, mut peer) = refused();
    let open = std::cell::Cell::new(false);
    let mut server = DemoServer::new();
    peer.serve(&mut s, &mut refusing(&open, &mut server));
    assert!(s.auth.is_some());
    s.cmd(Command::Connect(Source::Demo));
    assert_eq!(s.auth, None);
}
