//! Loop seeds (a prompt's messages, **Use in the loop**): round trips, validation of
//! bad seeds as untrusted input, and documents written before seeds existed.
//! Runs natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use mcpg_recording::{
    Connection, LinkError, Recording, SCHEMA_VERSION, SeedRole, SeedTurn, decode_file, decode_link,
    encode_file, encode_link,
};
use serde_json::{Value, json};
use support::pack;

fn turn(role: SeedRole, text: &str) -> SeedTurn {
    SeedTurn {
        role,
        text: text.into(),
    }
}

/// Two loops: the first from a message, the second seeded by a prompt.
fn seeded() -> Recording {
    let mut s = Recording::new(Connection::Embedded);
    s.model.kind = "mock".into();
    s.messages = vec!["What's the weather in Austin?".into(), "Plan it".into()];
    s.seeds = vec![
        None,
        Some(vec![
            turn(SeedRole::User, "I am planning a trip to Paris."),
            turn(SeedRole::Model, "Happy to help."),
            turn(SeedRole::User, "Plan it"),
        ]),
    ];
    s
}

#[test]
fn seeds_round_trip_in_links_and_files_and_match_serde() {
    let s = seeded();
    assert_eq!(s.v, SCHEMA_VERSION);
    let doc = s.to_json();
    assert_eq!(doc, serde_json::to_value(&s).unwrap());
    assert_eq!(doc["seeds"][0], Value::Null);
    assert_eq!(
        doc["seeds"][1][1],
        json!({"role": "model", "text": "Happy to help."})
    );
    assert_eq!(Recording::from_json(&doc).unwrap(), s);
    assert_eq!(decode_link(&encode_link(&s)).unwrap(), s);
    assert_eq!(decode_file(&encode_file(&s)).unwrap(), s);
    // A session without seeds writes no `seeds` member at all.
    let plain = Recording::new(Connection::Embedded).to_json();
    assert!(plain.get("seeds").is_none());
}

#[test]
fn bad_seeds_are_refused_with_a_reason() {
    let base = seeded().to_json();
    let malformed = [
        json!({}),
        json!([1]),
        json!([null, [{"role": "tool", "text": "x"}]]),
        json!([null, [{"role": "user"}]]),
        json!([null, [{"role": "user", "text": 7}]]),
        json!([null, ["hi"]]),
    ];
    for seeds in malformed {
        let mut d = base.clone();
        d["seeds"] = seeds.clone();
        assert!(
            matches!(decode_link(&pack(&d)), Err(LinkError::Malformed(_))),
            "{seeds}"
        );
        assert!(Recording::from_json(&d).is_err(), "{seeds}");
        assert!(
            serde_json::from_value::<Recording>(d).is_err(),
            "serde too: {seeds}"
        );
    }
    let one = json!({"role": "user", "text": "x"});
    let invalid = [
        // More seeds than loops.
        json!([null, null, [one.clone()]]),
        // An empty conversation seeds nothing.
        json!([null, []]),
        // Past the bound on messages in one seed.
        json!([null, vec![one.clone(); 257]]),
    ];
    for seeds in invalid {
        let mut d = base.clone();
        d["seeds"] = seeds;
        let got = decode_link(&pack(&d));
        assert!(matches!(got, Err(LinkError::Invalid(_))), "{got:?}");
    }
    // The bound itself is allowed.
    let mut d = base.clone();
    d["seeds"] = json!([null, vec![one; 256]]);
    assert_eq!(
        decode_link(&pack(&d)).unwrap().seeds[1]
            .as_ref()
            .unwrap()
            .len(),
        256
    );
}

#[test]
fn version_one_documents_still_open_and_future_ones_are_refused() {
    let mut old = seeded().to_json();
    old["v"] = json!(1);
    let o = old.as_object_mut().unwrap();
    o.remove("seeds");
    let s = decode_link(&pack(&old)).unwrap();
    assert_eq!(s.v, SCHEMA_VERSION);
    assert_eq!(s.messages, seeded().messages);
    assert!(s.seeds.is_empty());
    // A `seeds` member meant nothing in version 1 (unknown members were ignored).
    old["seeds"] = json!("not a list");
    assert!(decode_file(&old.to_string()).unwrap().seeds.is_empty());

    let mut future = seeded().to_json();
    future["v"] = json!(SCHEMA_VERSION + 1);
    assert_eq!(
        decode_link(&pack(&future)),
        Err(LinkError::FutureVersion {
            found: SCHEMA_VERSION + 1,
            supported: SCHEMA_VERSION
        })
    );
}

#[test]
fn seed_text_stays_data() {
    let mut s = seeded();
    let hostile = "<script>alert(1)</script>\u{0}";
    if let Some(Some(turns)) = s.seeds.get_mut(1) {
        turns.push(turn(SeedRole::User, hostile));
    }
    let back = decode_link(&encode_link(&s)).unwrap();
    assert_eq!(back.seeds[1].as_ref().unwrap()[3].text, hostile);
}
