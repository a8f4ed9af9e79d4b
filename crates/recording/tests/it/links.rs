//! Recording links: round trips, the walkthrough's link length, and bad links.
//! Runs natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcpg_core::Timestamp;
use mcpg_core::client::{CallOptions, Client, ClientConfig, Event};
use mcpg_demo::DemoServer;
use mcpg_recording::{
    Connection, Direction, LinkError, Recording, WireRecord, decode_file, decode_link, encode_file,
    encode_link, fingerprint, rehydrate_with,
};
use serde_json::json;
use support::pack;

/// The classic walkthrough against the embedded demo: list every page, call
/// get_weather(Austin), as the page records it.
fn walkthrough() -> Recording {
    let mut client = Client::new(ClientConfig::default());
    let mut server = DemoServer::new();
    let mut s = Recording::new(Connection::Embedded);
    s.model.kind = "mock".into();
    s.model.format = Some("anthropic".into());
    s.model.settings.insert("model".into(), json!("mock-1"));
    s.messages.push("What's the weather in Austin?".into());
    let mut now = Timestamp::ZERO;
    client.connect(now);
    client.list_tools(now);
    let mut called = false;
    loop {
        let mut moved = false;
        while let Some(o) = client.poll_transmit() {
            s.wire.push(WireRecord {
                direction: Direction::Sent,
                at_ms: now.as_millis(),
                text: Some(o.message.raw().into()),
                hash: None,
            });
            server.handle_text(now, o.message.raw());
            moved = true;
        }
        while let Some(m) = server.poll_transmit() {
            s.wire.push(WireRecord {
                direction: Direction::Received,
                at_ms: now.as_millis(),
                text: Some(m.raw().into()),
                hash: None,
            });
            client.handle_text(now, m.raw());
            moved = true;
        }
        while let Some(e) = client.poll_event() {
            if matches!(e, Event::ToolsListed { .. }) && !called {
                called = true;
                client.call_tool(
                    now,
                    "get_weather",
                    json!({"city": "Austin"}).as_object().cloned(),
                    CallOptions::default(),
                );
            }
        }
        now = now.after(std::time::Duration::from_millis(3));
        if !moved {
            break;
        }
    }
    for (i, step) in [
        "tools/list",
        "reshape",
        "model picks",
        "tools/call",
        "result",
        "answer",
    ]
    .iter()
    .enumerate()
    {
        s.steps.push(json!({"n": i + 1, "title": step}));
    }
    s.cursor = 6;
    s
}

#[test]
fn the_walkthrough_link_stays_short() {
    let mut s = walkthrough();
    let full = encode_link(&s);
    // The embedded demo is deterministic: the replayer regenerates what it said,
    // so the link keeps only fingerprints of the server's messages.
    s.elide_received(|_, _| true);
    let link = encode_link(&s);
    println!(
        "walkthrough link: {} characters ({} with every server message stored)",
        link.len() + 1,
        full.len() + 1
    );
    assert!(link.len() + 1 < 2000, "{} characters", link.len());
    let back = decode_link(&format!("#{link}")).unwrap();
    assert_eq!(back, s);
    assert!(
        back.wire
            .iter()
            .filter(|w| w.direction == Direction::Received)
            .all(|w| w.text.is_none() && w.hash.is_some())
    );
}

#[test]
fn a_link_can_be_deflated_elsewhere() {
    let mut s = walkthrough();
    s.model
        .settings
        .insert("api_key".into(), json!("sk-test-SECRET"));
    let payload = mcpg_recording::link_payload(&s);
    assert!(!String::from_utf8_lossy(&payload).contains("sk-test-SECRET"));
    // Any raw-deflate compressor will do (a browser's uses another level).
    let other = miniz_oxide::deflate::compress_to_vec(&payload, 1);
    let link = mcpg_recording::link_from_deflated(&other);
    assert_ne!(link, encode_link(&s));
    s.redact();
    assert_eq!(decode_link(&link).unwrap(), s);
}

#[test]
fn elided_messages_can_be_checked_when_regenerated() {
    let s = walkthrough();
    let mut e = s.clone();
    e.elide_received(|_, _| true);
    for (orig, el) in s.wire.iter().zip(&e.wire) {
        if let Some(h) = &el.hash {
            assert_eq!(h, &fingerprint(orig.text.as_deref().unwrap()));
            assert_ne!(
                h,
                &fingerprint(&format!("{} ", orig.text.as_deref().unwrap()))
            );
        }
    }
}

#[test]
fn files_round_trip_and_accept_links() {
    let s = walkthrough();
    assert_eq!(decode_file(&encode_file(&s)).unwrap(), s);
    let pasted = format!("http://127.0.0.1:8080/?token=x#{}", encode_link(&s));
    assert_eq!(decode_file(&pasted).unwrap(), s);
}

#[test]
fn secrets_never_travel() {
    let mut s = walkthrough();
    s.model
        .settings
        .insert("api_key".into(), json!("sk-test-SECRET-123"));
    s.model
        .settings
        .insert("x-goog-api-key".into(), json!("sk-test-SECRET-123"));
    s.model
        .settings
        .insert("Authorization".into(), json!("Bearer sk-test-SECRET-123"));
    let link = encode_link(&s);
    let file = encode_file(&s);
    let raw = miniz_oxide::inflate::decompress_to_vec(
        &URL_SAFE_NO_PAD
            .decode(link.trim_start_matches("s1."))
            .unwrap(),
    )
    .unwrap();
    for text in [String::from_utf8(raw).unwrap(), file] {
        assert!(!text.contains("sk-test-SECRET-123"), "{text}");
    }
    assert_eq!(
        decode_link(&link).unwrap().model.settings.get("model"),
        Some(&json!("mock-1"))
    );
    // A hand-made link that smuggles a secret in is refused, not opened.
    let mut doc = serde_json::to_value(walkthrough()).unwrap();
    doc["model"]["settings"]["api_key"] = json!("sk-test-SECRET-123");
    let smuggled = format!(
        "s1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
            doc.to_string().as_bytes(),
            6
        ))
    );
    assert!(matches!(decode_link(&smuggled), Err(LinkError::Invalid(m)) if m.contains("secret")));
}

#[test]
fn bad_links_get_one_clear_error() {
    let good = encode_link(&walkthrough());
    assert_eq!(decode_link("#hello"), Err(LinkError::NotASession));
    assert_eq!(
        decode_link("s1.!!!not base64!!!"),
        Err(LinkError::Corrupted)
    );
    assert_eq!(
        decode_link(&good[..good.len() / 2]),
        Err(LinkError::Truncated)
    );
    // Cut anywhere, a link says it was cut (even where the cut leaves bad base64).
    for cut in [good.len() / 3, good.len() / 2, good.len() - 8] {
        for n in cut..cut + 4 {
            assert_eq!(
                decode_link(&good[..n]),
                Err(LinkError::Truncated),
                "cut at {n}"
            );
        }
    }
    assert!(matches!(
        decode_link(&format!("s1.{}", "A".repeat(70_000))),
        Err(LinkError::TooLarge(_))
    ));
    let bomb = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
        &vec![b' '; 8 * 1024 * 1024],
        9,
    ));
    assert!(bomb.len() < 64 * 1024, "the bomb fits in a link");
    assert!(matches!(
        decode_link(&format!("s1.{bomb}")),
        Err(LinkError::Bomb(_))
    ));
    let mut future = serde_json::to_value(walkthrough()).unwrap();
    future["v"] = json!(99);
    let e = decode_link(&pack(&future)).unwrap_err();
    assert_eq!(
        e,
        LinkError::FutureVersion {
            found: 99,
            supported: mcpg_recording::SCHEMA_VERSION
        }
    );
    assert!(e.to_string().contains("newer playground"));
    let mut cmd = serde_json::to_value(walkthrough()).unwrap();
    cmd["connection"] = json!({"kind": "bridge", "server": "demo; rm -rf /"});
    assert!(matches!(
        decode_link(&pack(&cmd)),
        Err(LinkError::Invalid(_))
    ));
    cmd["connection"] = json!({"kind": "relay", "remote": "<script>"});
    assert!(matches!(
        decode_link(&pack(&cmd)),
        Err(LinkError::Invalid(_))
    ));
    cmd["connection"] = json!({"kind": "url", "url": "javascript:alert(1)"});
    assert!(matches!(
        decode_link(&pack(&cmd)),
        Err(LinkError::Invalid(_))
    ));
    cmd["connection"] = json!({"kind": "command", "command": "rm -rf /"});
    assert!(matches!(
        decode_link(&pack(&cmd)),
        Err(LinkError::Malformed(_))
    ));
    assert!(matches!(
        decode_link(&pack(&json!([1, 2]))),
        Err(LinkError::NotASession)
    ));
    let mut past = serde_json::to_value(walkthrough()).unwrap();
    past["cursor"] = json!(1000);
    assert!(matches!(
        decode_link(&pack(&past)),
        Err(LinkError::Invalid(_))
    ));
}

#[test]
fn the_hand_written_reader_refuses_what_serde_refuses() {
    let base = serde_json::to_value(walkthrough()).unwrap();
    let bad = [
        ("v", json!("1")),
        ("connection", json!({"kind": "bridge"})),
        ("model", json!({"format": "x"})),
        ("messages", json!([1])),
        ("wire", json!([{"d": "x", "t": 0, "x": ""}])),
        ("wire", json!([{"d": "s", "x": ""}])),
        ("cursor", json!(-1)),
        ("steps", json!({})),
    ];
    for (k, v) in bad {
        let mut d = base.clone();
        d[k] = v.clone();
        assert!(Recording::from_json(&d).is_err(), "{k}: {v}");
        assert!(
            serde_json::from_value::<Recording>(d).is_err(),
            "serde too: {k}: {v}"
        );
    }
    let mut d = base.clone();
    d["unknown"] = json!(1);
    assert_eq!(Recording::from_json(&d).unwrap(), walkthrough());
}

#[test]
fn html_in_fields_is_kept_as_data() {
    let mut s = walkthrough();
    s.messages
        .push("<img src=x onerror=alert(1)><script>alert(2)</script>".into());
    let back = decode_link(&encode_link(&s)).unwrap();
    assert_eq!(
        back.messages[1],
        "<img src=x onerror=alert(1)><script>alert(2)</script>"
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod props {
    use super::*;
    use proptest::prelude::*;

    fn record() -> impl Strategy<Value = WireRecord> {
        (any::<bool>(), any::<u32>(), "\\PC{0,40}").prop_map(|(sent, t, text)| WireRecord {
            direction: if sent {
                Direction::Sent
            } else {
                Direction::Received
            },
            at_ms: u64::from(t),
            text: Some(text),
            hash: None,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn links_and_files_round_trip(
            messages in prop::collection::vec("\\PC{0,60}", 0..4),
            wire in prop::collection::vec(record(), 0..12),
            server in "[A-Za-z0-9_.-]{1,20}",
            which in 0u8..4,
            elide in any::<bool>(),
        ) {
            let connection = match which {
                0 => Connection::Embedded,
                1 => Connection::Bridge { server },
                2 => Connection::Relay { remote: server },
                _ => Connection::Url { url: format!("https://example.com/{server}") },
            };
            let mut s = Recording::new(connection);
            s.model.kind = "mock".into();
            if which == 0 {
                s.model.format = Some("gemini".into());
                s.model.settings.insert("model".into(), json!("m-1"));
                s.script.push(json!({"answer": "hi"}));
                s.steps.push(json!({"n": 1}));
                s.cursor = 1;
            }
            s.messages = messages;
            s.wire = wire;
            if elide {
                s.elide_received(|i, _| i % 2 == 0);
            }
            // The hand-written JSON (small in wasm) is the serde format, both ways.
            let derived = serde_json::to_value(&s).unwrap();
            prop_assert_eq!(&s.to_json(), &derived);
            prop_assert_eq!(Recording::from_json(&derived).unwrap(), s.clone());
            prop_assert_eq!(serde_json::from_value::<Recording>(s.to_json()).unwrap(), s.clone());
            prop_assert_eq!(decode_link(&encode_link(&s)).unwrap(), s.clone());
            prop_assert_eq!(decode_file(&encode_file(&s)).unwrap(), s);
        }

        #[test]
        fn arbitrary_fragments_never_panic(f in "\\PC{0,200}") {
            let _ = decode_link(&f);
            let _ = decode_link(&format!("s1.{f}"));
            let _ = decode_file(&f);
        }
    }
}

/// Feeds a fresh embedded demo server as `rehydrate_with` asks.
fn demo_feeder() -> impl FnMut(u64, Option<&str>) -> Vec<String> {
    let mut server = DemoServer::new();
    move |at, sent| server.exchange(at, sent)
}

#[test]
fn an_elided_walkthrough_rehydrates_to_the_recording() {
    let original = walkthrough();
    let mut link = original.clone();
    link.elide_received(|_, _| true);
    let mut back = decode_link(&encode_link(&link)).unwrap();
    rehydrate_with(&mut back, demo_feeder()).unwrap();
    assert_eq!(back, original);
    // A recording the demo would not reproduce is refused, with a reason.
    let mut forged = link.clone();
    if let Some(w) = forged
        .wire
        .iter_mut()
        .rev()
        .find(|w| w.direction == Direction::Received)
    {
        w.hash = Some(fingerprint("something else"));
    }
    let e = rehydrate_with(&mut forged, demo_feeder()).unwrap_err();
    assert!(
        e.to_string().contains("another version of the demo server"),
        "{e}"
    );
}
