//! Property tests: arbitrary bytes never panic the decoder or the sessions, and
//! built messages survive a round trip.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_core::Timestamp;
use mcpg_core::client::{Client, ClientConfig, Event};
use mcpg_core::jsonrpc::{Message, RequestId, decode_frame};
use mcpg_core::server::{Server, ServerConfig};
use proptest::prelude::*;
use serde_json::json;

/// JSON-ish text: valid fragments glued at random, to reach deeper than pure noise.
fn jsonish() -> impl Strategy<Value = String> {
    let atoms = prop_oneof![
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("\"jsonrpc\":\"2.0\"".to_owned()),
        Just("\"id\":1".to_owned()),
        Just("\"id\":\"x\"".to_owned()),
        Just("\"result\":".to_owned()),
        Just("\"error\":{\"code\":1,\"message\":\"m\"}".to_owned()),
        Just("\"method\":\"tools/list\"".to_owned()),
        Just("\"tools\":[".to_owned()),
        Just("\"content\":[{\"type\":\"text\",\"text\":\"t\"}]".to_owned()),
        Just("\"nextCursor\":\"c\"".to_owned()),
        Just(",".to_owned()),
        Just(":".to_owned()),
        Just("]".to_owned()),
        Just("[".to_owned()),
        Just("null".to_owned()),
        "\\PC{0,8}",
    ];
    prop::collection::vec(atoms, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, ..ProptestConfig::default() })]

    #[test]
    fn decoder_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let text = String::from_utf8_lossy(&bytes);
        let frame = decode_frame(&text);
        prop_assert!(!frame.items.is_empty());
        prop_assert_eq!(&*frame.raw, &*text);
    }

    #[test]
    fn sessions_survive_jsonish_input(texts in prop::collection::vec(jsonish(), 1..8)) {
        let mut client = Client::new(ClientConfig::default());
        client.connect(Timestamp::ZERO);
        client.list_tools(Timestamp::ZERO);
        let mut server = Server::new(ServerConfig::default(), vec![]);
        for (i, t) in texts.iter().enumerate() {
            let now = Timestamp::from_millis(i as u64 * 1000);
            client.handle_text(now, t);
            client.handle_timeout(now);
            server.handle_text(now, t);
        }
        let mut received = 0;
        while let Some(e) = client.poll_event() {
            if let Event::Wire(w) = e
                && w.direction == mcpg_core::client::Direction::Received
            {
                received += 1;
            }
        }
        // Nothing is dropped silently: every frame fed in is on the wire log.
        prop_assert_eq!(received, texts.len());
        while server.poll_transmit().is_some() {}
    }

    #[test]
    fn built_messages_round_trip(id in any::<i64>(), s in "\\PC{0,20}", method in "[a-z/_]{1,20}") {
        let params = json!({"name": s, "n": id});
        for m in [
            Message::request(RequestId::Number(id), &method, Some(params.clone())),
            Message::request(RequestId::String(s.clone()), &method, None),
            Message::notification(&method, Some(params.clone())),
            Message::response(RequestId::String(s.clone()), params.clone()),
        ] {
            let back = Message::decode(m.raw()).unwrap();
            prop_assert_eq!(back.body(), m.body());
        }
    }
}
