//! The session diff on two recordings of the embedded demo, one of them edited as
//! a changed server would answer: a tool's description, an added property, a
//! removed tool, a renamed one, a changed result. Runs natively and in Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::Timestamp;
use mcpg_core::client::{CallOptions, Client, ClientConfig, Event};
use mcpg_demo::DemoServer;
use mcpg_recording::diff::{AnswerKind, Area, Snapshot, SnapshotError, diff};
use mcpg_recording::{Connection, Direction, Recording, WireRecord};
use serde_json::{Value, json};

/// The demo recorded as the page would: every page of tools/list, then `calls` in order.
fn record(calls: &[(&str, Value)]) -> Recording {
    let mut client = Client::new(ClientConfig::default());
    let mut server = DemoServer::new();
    let mut s = Recording::new(Connection::Embedded);
    let now = Timestamp::ZERO;
    client.connect(now);
    client.list_tools(now);
    let mut next = calls.iter();
    loop {
        let mut moved = false;
        while let Some(o) = client.poll_transmit() {
            s.wire.push(WireRecord {
                direction: Direction::Sent,
                at_ms: 0,
                text: Some(o.message.raw().into()),
                hash: None,
            });
            server.handle_text(now, o.message.raw());
            moved = true;
        }
        while let Some(m) = server.poll_transmit() {
            s.wire.push(WireRecord {
                direction: Direction::Received,
                at_ms: 0,
                text: Some(m.raw().into()),
                hash: None,
            });
            client.handle_text(now, m.raw());
            moved = true;
        }
        while let Some(e) = client.poll_event() {
            if matches!(e, Event::ToolsListed { .. } | Event::CallFinished { .. })
                && let Some((name, args)) = next.next()
            {
                client.call_tool(now, name, args.as_object().cloned(), CallOptions::default());
            }
        }
        if !moved {
            return s;
        }
    }
}

fn walkthrough() -> Recording {
    record(&[
        ("get_weather", json!({"city": "Austin"})),
        ("reverse_text", json!({"text": "Ada"})),
    ])
}

/// Rewrites every received message through `f` (a changed server's answers).
fn edit(s: &mut Recording, mut f: impl FnMut(&mut Value)) {
    for w in s
        .wire
        .iter_mut()
        .filter(|w| w.direction == Direction::Received)
    {
        let mut v: Value = serde_json::from_str(w.text.as_deref().unwrap()).unwrap();
        f(&mut v);
        w.text = Some(v.to_string());
    }
}

/// Rewrites the tools of every tools/list page through `f`.
fn edit_tools(s: &mut Recording, mut f: impl FnMut(&mut Vec<Value>)) {
    edit(s, |v| {
        if let Some(tools) = v.pointer_mut("/result/tools").and_then(Value::as_array_mut) {
            f(tools);
        }
    });
}

fn snap(s: &Recording) -> Snapshot {
    Snapshot::from_recording(s).unwrap()
}

#[test]
fn the_same_session_twice_has_no_difference() {
    let a = snap(&walkthrough());
    assert_eq!(a.tools.as_ref().map(Vec::len), Some(25), "every page");
    assert_eq!(a.calls.len(), 2);
    let d = diff(&a, &snap(&walkthrough()));
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(d.calls.compared, 2);
}

#[test]
fn a_changed_tool_is_reported_field_by_field() {
    let a = walkthrough();
    let mut b = walkthrough();
    edit_tools(&mut b, |tools| {
        for t in tools.iter_mut() {
            match t["name"].as_str().unwrap() {
                "get_weather" => {
                    t["description"] = json!("Current weather for a city.");
                    t["inputSchema"]["properties"]["units"] = json!({"type": "string"});
                    t["annotations"]["readOnlyHint"] = json!(false);
                    t["_meta"] = json!({"changed": "never compared"});
                }
                "shout" => t["name"] = json!("yell"),
                _ => {}
            }
        }
        tools.retain(|t| t["name"] != "count_words");
        if tools.iter().any(|t| t["name"] == "yell") {
            tools.push(json!({"name": "brand_new", "inputSchema": {"type": "object"}}));
        }
    });
    let d = diff(&snap(&a), &snap(&b));
    let t = d.tools.as_ref().unwrap();
    assert_eq!(t.added.len(), 1);
    assert_eq!(t.added[0].name, "brand_new");
    assert_eq!(t.removed.len(), 1);
    assert_eq!(t.removed[0].name, "count_words");
    assert_eq!(t.renamed.len(), 1);
    assert_eq!(
        (t.renamed[0].from.as_str(), t.renamed[0].to.as_str()),
        ("shout", "yell")
    );
    assert!(
        t.renamed[0].changes.is_empty(),
        "{:?}",
        t.renamed[0].changes
    );
    assert_eq!(t.changed.len(), 1);
    let c = &t.changed[0];
    assert_eq!(c.name, "get_weather");
    let got: Vec<(Area, &str)> = c
        .changes
        .iter()
        .map(|c| (c.area, c.change.pointer.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Area::Annotations, "/annotations/readOnlyHint"),
            (Area::Description, "/description"),
            (Area::InputSchema, "/inputSchema/properties/units"),
        ]
    );
    assert_eq!(c.changes[2].change.before, None);
    assert_eq!(c.changes[2].change.after, Some(json!({"type": "string"})));
    assert_eq!(
        c.changes[1].change.after,
        Some(json!("Current weather for a city."))
    );
    assert_eq!(d.count(), 4);
    // The same two sessions always give the same diff, whatever the listing's order.
    let mut reordered = b.clone();
    edit_tools(&mut reordered, |tools| tools.reverse());
    assert_eq!(diff(&snap(&a), &snap(&reordered)), d);
}

#[test]
fn a_changed_result_names_the_field() {
    let a = walkthrough();
    let mut b = walkthrough();
    edit(&mut b, |v| {
        if let Some(text) = v.pointer_mut("/result/content/0/text")
            && text.as_str().is_some_and(|t| t.contains("Austin"))
        {
            *text = json!("Austin: 75F, cloudy");
            v["result"]["_meta"] = json!({"at": "volatile"});
        }
    });
    let d = diff(&snap(&a), &snap(&b));
    assert!(d.tools.as_ref().is_some_and(|t| t.changed.is_empty()));
    assert_eq!(d.results.len(), 1, "{d:?}");
    let r = &d.results[0];
    assert_eq!(r.tool, "get_weather");
    assert_eq!(r.arguments, json!({"city": "Austin"}));
    assert_eq!(
        (r.before, r.after),
        (AnswerKind::Result, AnswerKind::Result)
    );
    let pointers: Vec<&str> = r.changes.iter().map(|c| c.pointer.as_str()).collect();
    assert!(pointers.contains(&"/content/0/text"), "{pointers:?}");
    assert!(
        pointers.iter().all(|p| !p.contains("_meta")),
        "{pointers:?}"
    );
}

#[test]
fn calls_pair_by_tool_and_arguments_and_a_tool_error_is_a_change() {
    let a = record(&[
        ("get_weather", json!({"city": "Austin"})),
        ("get_weather", json!({"city": "Paris"})),
    ]);
    // B made the same calls the other way round, and one more; Paris fails in B.
    let mut b = record(&[
        ("get_weather", json!({"city": "Paris"})),
        ("get_weather", json!({"city": "Austin"})),
        ("reverse_text", json!({"text": "Ada"})),
    ]);
    edit(&mut b, |v| {
        if v.pointer("/result/content/0/text")
            .and_then(Value::as_str)
            .is_some_and(|t| t.contains("Paris"))
        {
            v["result"]["isError"] = json!(true);
        }
    });
    let d = diff(&snap(&a), &snap(&b));
    assert_eq!(
        (d.calls.compared, d.calls.only_a, d.calls.only_b),
        (2, 0, 1)
    );
    assert_eq!(d.results.len(), 1, "{d:?}");
    assert_eq!(d.results[0].arguments, json!({"city": "Paris"}));
    assert_eq!(d.results[0].after, AnswerKind::ToolError);
    assert_eq!(d.results[0].changes[0].pointer, "/isError");
}

#[test]
fn an_rpc_error_against_a_result_is_one_change() {
    let a = walkthrough();
    let mut b = walkthrough();
    edit(&mut b, |v| {
        if v.pointer("/result/content/0/text")
            .and_then(Value::as_str)
            .is_some_and(|t| t.contains("adA"))
        {
            let id = v["id"].clone();
            *v = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "Unknown tool"}});
        }
    });
    let d = diff(&snap(&a), &snap(&b));
    assert_eq!(d.results.len(), 1, "{d:?}");
    let r = &d.results[0];
    assert_eq!(
        (r.before, r.after),
        (AnswerKind::Result, AnswerKind::RpcError)
    );
    assert_eq!(r.changes.len(), 1);
    assert_eq!(r.changes[0].pointer, "");
    assert_eq!(
        r.changes[0].after,
        Some(json!({"error": {"code": -32602, "message": "Unknown tool"}}))
    );
}

#[test]
fn a_rename_needs_a_unique_match() {
    // Two removed tools with the same description and schema: nothing says which
    // one the new name is, so it is a removal and an addition.
    let same =
        |name: &str| json!({"name": name, "description": "d", "inputSchema": {"type": "object"}});
    let a = Snapshot {
        tools: Some(vec![same("a1"), same("a2")]),
        calls: vec![],
    };
    let b = Snapshot {
        tools: Some(vec![same("b1")]),
        calls: vec![],
    };
    let t = diff(&a, &b).tools.unwrap();
    assert!(t.renamed.is_empty());
    assert_eq!((t.removed.len(), t.added.len()), (2, 1));
    // Without a listing on one side there is no catalog to compare.
    let none = Snapshot::default();
    assert_eq!(diff(&a, &none).tools, None);
}

#[test]
fn an_elided_link_must_be_regenerated_first() {
    let mut s = walkthrough();
    s.elide_received(|_, _| true);
    assert_eq!(Snapshot::from_recording(&s), Err(SnapshotError::Elided(1)));
}

#[test]
fn hostile_names_are_kept_as_data() {
    let a = walkthrough();
    let mut b = walkthrough();
    edit_tools(&mut b, |tools| {
        tools.push(json!({"name": "evil\u{1b}[2J\u{7}", "inputSchema": {"type": "object"}}));
    });
    let t = diff(&snap(&a), &snap(&b)).tools.unwrap();
    assert_eq!(t.added.len(), 1);
    assert_eq!(t.added[0].name, "evil\u{1b}[2J\u{7}");
}
