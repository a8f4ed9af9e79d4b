//! Streamable HTTP through the shell: every core message is an `HttpPost` output with
//! the protocol's headers; answers come back as frames, failures as `SendFailed`.
//! The peer is the demo server, answering each post by hand.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use mcpg_demo::DemoServer;
use mcpg_page::{Command, Conn, HttpFailure, HttpTarget, Input, LinkSpec, Output, Source};
use support::Shell;

const URL: &str = "https://mcp.example.com/mcp";

/// Answers every pending post with the demo server's reply, until nothing is posted.
fn serve(s: &mut Shell, server: &mut DemoServer) -> usize {
    let mut posts = 0;
    loop {
        let batch: Vec<_> = s
            .effects
            .drain(..)
            .filter_map(|o| match o {
                Output::HttpPost { message, .. } => Some(message),
                _ => None,
            })
            .collect();
        if batch.is_empty() {
            return posts;
        }
        for m in batch {
            posts += 1;
            if m.message.method() == Some("tools/call") {
                assert!(
                    m.headers
                        .iter()
                        .any(|(k, v)| *k == "Mcp-Name" && v == "get_weather"),
                    "the core's headers travel with the post: {:?}",
                    m.headers
                );
            }
            server.handle_text(s.now, m.message.raw());
            while let Some(reply) = server.poll_transmit() {
                let conn = s.d.conn();
                s.input(Input::Frame {
                    conn,
                    text: reply.raw().to_owned(),
                });
            }
        }
    }
}

#[test]
fn the_loop_runs_over_streamable_http_posts() {
    let mut s = Shell::new();
    s.cmd(Command::Connect(Source::Url(URL.into())));
    assert!(matches!(
        s.effects.first(),
        Some(Output::OpenLink { link: LinkSpec::Http(HttpTarget::Url(u)), .. }) if u == URL
    ));
    let mut server = DemoServer::new();
    assert!(serve(&mut s, &mut server) > 0);
    assert_eq!(s.conn, Conn::Ready);
    s.cmd(Command::Run);
    for _ in 0..10 {
        serve(&mut s, &mut server);
        s.advance(500);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(
        s.answer.as_deref(),
        Some("get_weather says: Austin: 91F, sunny")
    );
    assert!(
        !s.wire()
            .iter()
            .any(|w| w.1.contains("subscriptions/listen")),
        "no list_changed stream is held open over plain HTTP"
    );
}

#[test]
fn a_cross_origin_failure_names_the_blocked_url_and_the_call_fails_cleanly() {
    let mut s = Shell::new();
    s.cmd(Command::Connect(Source::Url(URL.into())));
    let mut server = DemoServer::new();
    serve(&mut s, &mut server);
    s.cmd(Command::Step);
    let post = s
        .effects
        .iter()
        .find_map(|o| match o {
            Output::HttpPost { message, conn } => Some((message.clone(), *conn)),
            _ => None,
        })
        .expect("the listing is posted");
    s.effects.clear();
    s.input(Input::SendFailed {
        conn: post.1,
        id: post.0.message.id().cloned(),
        failure: HttpFailure::Network {
            detail: "TypeError: Failed to fetch".into(),
            cross_origin: true,
        },
    });
    assert!(
        s.notice
            .as_deref()
            .unwrap_or("")
            .contains("The browser blocked the request to https://mcp.example.com/mcp")
    );
    let s1 = &s.steps[0];
    assert_eq!(s1.status, mcpg_host::StepStatus::Failed, "{s1:?}");
}
