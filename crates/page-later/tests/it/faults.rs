//! Faults: a link closing mid-call, inputs arriving while the driver is busy, a late
//! model reply, frames for an old connection; against a peer the test relays by hand.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::Timestamp;
use mcpg_demo::DemoServer;
use mcpg_host::StepStatus;
use mcpg_host::provider::Provider;
use mcpg_page::{
    BridgeEvent, Command, Conn, Input, LinkSpec, LogRow, Mailbox, ModelChoice, ModelReply, Output,
    PageDriver, SideEvent, Source, parse_bridge_event,
};
use support::Shell;

/// Relays the shell's frames to `server` and its answers back, until nothing moves;
/// frames for which `hold` says true are kept from the server.
fn relay(s: &mut Shell, server: &mut DemoServer, hold: &dyn Fn(&str) -> bool) {
    loop {
        let frames = s.take_frames();
        if frames.is_empty() {
            return;
        }
        for f in frames.iter().filter(|f| !hold(f)) {
            server.handle_text(s.now, f);
        }
        while let Some(m) = server.poll_transmit() {
            let conn = s.d.conn();
            s.input(Input::Frame {
                conn,
                text: m.raw().to_owned(),
            });
        }
    }
}

fn bridge() -> (Shell, DemoServer) {
    let mut s = Shell::new();
    s.cmd(Command::Connect(Source::Bridge("demo".into())));
    assert!(matches!(
        s.effects.first(),
        Some(Output::OpenLink { link: LinkSpec::Bridge(n), .. }) if n == "demo"
    ));
    assert!(
        !s.effects
            .iter()
            .any(|o| matches!(o, Output::SendFrame { .. })),
        "nothing is sent before the socket opens"
    );
    let conn = s.d.conn();
    s.effects.clear();
    s.input(Input::LinkOpened { conn });
    let mut server = DemoServer::new();
    relay(&mut s, &mut server, &|_| false);
    assert_eq!(s.conn, Conn::Ready);
    (s, server)
}

#[test]
fn a_link_closing_mid_call_fails_the_call_and_ends_run_mode() {
    let (mut s, mut server) = bridge();
    s.cmd(Command::Run);
    for _ in 0..3 {
        relay(&mut s, &mut server, &|f| f.contains("tools/call"));
        s.advance(1_000);
    }
    relay(&mut s, &mut server, &|f| f.contains("tools/call"));
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5]);
    assert_eq!(
        s.steps[4].status,
        StepStatus::Running,
        "the call is in flight"
    );
    let conn = s.d.conn();
    s.input(Input::LinkClosed {
        conn,
        why: "the bridge closed the connection (code 1006)".into(),
    });
    assert!(matches!(&s.conn, Conn::Closed(w) if w.contains("1006")));
    assert!(!s.running);
    let s5 = s.steps.iter().find(|x| x.number == 5).expect("step 5");
    assert_eq!(s5.status, StepStatus::Failed);
    assert!(s.notes().iter().any(|n| n.contains("connection closed")));
}

#[test]
fn frames_for_an_old_connection_are_recorded_not_applied() {
    let (mut s, _server) = bridge();
    let old = s.d.conn();
    s.cmd(Command::Connect(Source::Demo));
    assert!(
        s.effects
            .iter()
            .any(|o| matches!(o, Output::CloseLink { conn } if *conn == old)),
        "the old socket is closed"
    );
    let before = s.wire().len();
    s.input(Input::Frame {
        conn: old,
        text: r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into(),
    });
    assert_eq!(s.wire().len(), before, "not on the wire log as a frame");
    assert!(
        s.notes()
            .iter()
            .any(|n| n.contains(&format!("connection #{old}")))
    );
    assert_eq!(s.conn, Conn::Ready);
}

#[test]
fn side_events_arriving_while_the_driver_is_busy_are_queued_not_dropped() {
    let mailbox = Mailbox::new(PageDriver::new().with_later(mcpg_page_later::later_kit()));
    let t = Timestamp::from_millis(5);
    let outs = mailbox.dispatch(
        t,
        Input::Command(Command::Connect(Source::Bridge("x".into()))),
    );
    assert!(outs.iter().any(|o| matches!(o, Output::OpenLink { .. })));
    let conn = mailbox.read(|d| d.conn()).expect("free");
    // A callback fires while the shell is reading the driver: the input waits.
    let during = mailbox
        .read(|_| {
            mailbox.dispatch(
                t,
                Input::BridgeEvent {
                    conn,
                    event: parse_bridge_event(r#"{"type":"stderr","line":"booting"}"#),
                },
            )
        })
        .expect("free");
    assert!(during.is_empty());
    assert_eq!(mailbox.pending(), 1);
    // The next command handles the queued event first, then itself.
    let outs = mailbox.dispatch(
        t,
        Input::BridgeEvent {
            conn,
            event: BridgeEvent::Side(SideEvent::Spawned {
                server: "x".into(),
                pid: 42,
            }),
        },
    );
    assert_eq!(mailbox.pending(), 0);
    assert!(!outs.is_empty(), "the log changed");
    let rows: Vec<String> = mailbox
        .read(|d| {
            d.log()
                .iter()
                .filter(|r| !matches!(r, LogRow::Wire { .. }))
                .map(|r| format!("{r:?}"))
                .collect()
        })
        .expect("free");
    assert_eq!(rows.len(), 2, "{rows:#?}");
    assert!(rows[0].contains("booting"));
    assert!(rows[1].contains("pid 42"));
}

#[test]
fn a_model_reply_after_reset_is_recorded_and_ignored() {
    let mut s = Shell::demo();
    s.cmd(Command::SetModel(ModelChoice::Real));
    s.cmd(Command::SetProvider(Provider::Anthropic));
    s.cmd(Command::SetKeyHint {
        provider: Provider::Anthropic,
        masked: Some("••••wxyz".into()),
    });
    for _ in 0..3 {
        s.cmd(Command::Step);
    }
    let req = s
        .effects
        .iter()
        .find_map(|o| match o {
            Output::ModelRequest(r) => Some(r.clone()),
            _ => None,
        })
        .expect("a model request");
    assert_eq!(req.key_header, Some("x-api-key"));
    assert!(
        !req.headers.iter().any(|(k, _)| *k == "x-api-key"),
        "the key header is the shell's to add"
    );
    s.cmd(Command::Reset);
    s.input(Input::ModelReply {
        loop_id: req.loop_id,
        reply: ModelReply::Http {
            status: 200,
            body: r#"{"content":[{"type":"text","text":"late"}],"stop_reason":"end_turn"}"#.into(),
        },
    });
    assert!(s.steps.is_empty(), "nothing applied: {:?}", s.numbers());
    assert_eq!(s.answer, None);
    assert!(
        s.notes()
            .iter()
            .any(|n| n.contains(&format!("loop #{}", req.loop_id)) && n.contains("ignored"))
    );
}

#[test]
fn a_real_model_reply_for_the_current_loop_is_applied_and_its_head_masks_the_key() {
    let mut s = Shell::demo();
    s.cmd(Command::SetModel(ModelChoice::Real));
    s.cmd(Command::SetKeyHint {
        provider: Provider::Anthropic,
        masked: Some("••••wxyz".into()),
    });
    s.cmd(Command::Run);
    s.advance(2_000);
    let req = s
        .effects
        .iter()
        .find_map(|o| match o {
            Output::ModelRequest(r) => Some(r.clone()),
            _ => None,
        })
        .expect("a model request");
    s.input(Input::ModelReply {
        loop_id: req.loop_id,
        reply: ModelReply::Http {
            status: 200,
            body: r#"{"content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn"}"#.into(),
        },
    });
    s.advance(2_000);
    assert_eq!(s.answer.as_deref(), Some("Hi"));
    let s3 = &s.steps[2];
    let shown: String = s3.blocks.iter().map(|b| b.json.to_string()).collect();
    assert!(shown.contains("••••wxyz"), "{shown}");
}

#[test]
fn bridge_events_parse_in_one_place() {
    assert_eq!(
        parse_bridge_event(r#"{"type":"exit","code":3}"#),
        BridgeEvent::Side(SideEvent::Exit {
            code: Some(3),
            signal: None
        })
    );
    assert_eq!(
        parse_bridge_event("junk"),
        BridgeEvent::Unreadable("junk".into())
    );
    assert_eq!(
        parse_bridge_event("junk").describe().as_deref(),
        Some("bridge event: junk")
    );
    assert_eq!(
        parse_bridge_event(r#"{"type":"dropped","count":7}"#)
            .describe()
            .as_deref(),
        Some("7 side-channel events were lost (too many at once)")
    );
}
