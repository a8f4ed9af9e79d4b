//! `mcpg diff`: two recordings of the demo, one edited as a changed server would
//! answer (a changed description, an added property, a removed tool, a changed
//! result), a session against the live demo, `--json`, exit codes, and a hostile
//! recording printed escaped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use mcpg_core::Timestamp;
use mcpg_core::client::{CallOptions, Client, ClientConfig, Event};
use mcpg_demo::DemoServer;
use mcpg_recording::{Connection, Direction, Recording, WireRecord, encode_file, encode_link};
use serde_json::{Value, json};

/// The demo recorded as the page would: every page of tools/list, then two calls.
fn record() -> Recording {
    let calls = [
        ("get_weather", json!({"city": "Austin"})),
        ("reverse_text", json!({"text": "Ada"})),
    ];
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

/// Rewrites every received message through `f`.
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

/// The demo with get_weather's description changed and a property added, and
/// count_words gone.
fn changed() -> Recording {
    let mut s = record();
    edit_tools(&mut s, |tools| {
        for t in tools.iter_mut().filter(|t| t["name"] == "get_weather") {
            t["description"] = json!("Current weather for a city.");
            t["inputSchema"]["properties"]["units"] = json!({"type": "string"});
        }
        tools.retain(|t| t["name"] != "count_words");
    });
    s
}

fn save(dir: &Path, name: &str, s: &Recording) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, encode_file(s)).unwrap();
    p
}

fn mcpg(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn demo() -> String {
    format!("{} demo", env!("CARGO_BIN_EXE_mcpg"))
}

#[test]
fn a_changed_tool_between_two_recordings_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let a = save(dir.path(), "a.json", &record());
    let b = save(dir.path(), "b.json", &changed());
    let (code, out, err) = mcpg(&["diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("A  "), "{out}");
    assert!(out.contains(": 25 tools, 2 calls"), "{out}");
    assert!(out.contains(": 24 tools, 2 calls"), "{out}");
    assert!(out.contains("removed  count_words\n"), "{out}");
    assert!(out.contains("changed  get_weather\n"), "{out}");
    assert!(
        out.contains("description  /description: \"Current weather for a city. Knows Austin"),
        "{out}"
    );
    assert!(
        out.contains(
            "inputSchema  /inputSchema/properties/units: (absent) → {\"type\":\"string\"}"
        ),
        "{out}"
    );
    assert!(
        out.contains("2 differences: 0 added, 1 removed, 0 renamed, 1 changed, 0 results changed; 2 calls compared"),
        "{out}"
    );
    assert_eq!(err.trim(), "mcpg: the sessions differ in 2 places", "{err}");

    // The same session as a file and as a link (the demo's answers left out and
    // regenerated): no difference, exit 0.
    let mut linked = record();
    linked.elide_received(|_, _| true);
    let link = format!("http://127.0.0.1:9/#{}", encode_link(&linked));
    let (code, out, err) = mcpg(&["diff", a.to_str().unwrap(), &link]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("B  session link: 25 tools, 2 calls"), "{out}");
    assert!(out.contains("0 differences"), "{out}");
}

#[test]
fn json_output_has_a_stable_shape() {
    let dir = tempfile::tempdir().unwrap();
    let a = save(dir.path(), "a.json", &record());
    let mut b = changed();
    edit(&mut b, |v| {
        if let Some(text) = v.pointer_mut("/result/content/0/text")
            && text.as_str().is_some_and(|t| t.contains("adA"))
        {
            *text = json!("ADA");
        }
    });
    let b = save(dir.path(), "b.json", &b);
    let (code, out, err) = mcpg(&["diff", "--json", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["differences"], 3);
    assert_eq!(v["a"]["tools"], 25);
    assert_eq!(v["b"]["tools"], 24);
    assert_eq!(v["a"]["calls"], 2);
    assert_eq!(v["a"]["source"], a.to_str().unwrap());
    assert_eq!(v["tools"]["added"], json!([]));
    assert_eq!(v["tools"]["renamed"], json!([]));
    assert_eq!(v["tools"]["removed"][0]["name"], "count_words");
    assert_eq!(v["tools"]["removed"][0]["tool"]["name"], "count_words");
    let changed = &v["tools"]["changed"][0];
    assert_eq!(changed["name"], "get_weather");
    assert_eq!(
        changed["changes"][1],
        json!({"area": "input_schema", "pointer": "/inputSchema/properties/units", "after": {"type": "string"}})
    );
    assert_eq!(changed["changes"][0]["area"], "description");
    let r = &v["results"][0];
    assert_eq!(r["tool"], "reverse_text");
    assert_eq!(r["arguments"], json!({"text": "Ada"}));
    assert_eq!(r["occurrence"], 1);
    assert_eq!(
        (r["before"].as_str(), r["after"].as_str()),
        (Some("result"), Some("result"))
    );
    assert_eq!(r["changes"][0]["pointer"], "/content/0/text");
    assert_eq!(r["changes"][0]["after"], "ADA");
    assert_eq!(v["calls"], json!({"compared": 2, "only_a": 0, "only_b": 0}));
}

#[test]
fn a_session_against_the_live_demo() {
    let dir = tempfile::tempdir().unwrap();
    let same = save(dir.path(), "same.json", &record());
    let (code, out, err) = mcpg(&["diff", same.to_str().unwrap(), "--stdio", &demo()]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("B  live server (stdio: "), "{out}");
    assert!(out.contains(": 25 tools, 2 calls"), "{out}");
    assert!(out.contains("0 differences"), "{out}");
    assert!(out.contains("2 calls compared"), "{out}");

    // What the recording says the server did, and the live demo does not.
    let mut old = changed();
    edit(&mut old, |v| {
        if let Some(text) = v.pointer_mut("/result/content/0/text")
            && text.as_str().is_some_and(|t| t.contains("Austin"))
        {
            *text = json!("Austin: 75F, cloudy");
        }
    });
    let old = save(dir.path(), "old.json", &old);
    let (code, out, err) = mcpg(&["diff", old.to_str().unwrap(), "--stdio", &demo()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("added    count_words\n"), "{out}");
    assert!(out.contains("changed  get_weather\n"), "{out}");
    assert!(
        out.contains("result   get_weather {\"city\":\"Austin\"}\n           /content/0/text: \"Austin: 75F, cloudy\" → \"Austin: 91F, sunny\""),
        "{out}"
    );
    // --no-calls: the catalogs only.
    let (code, out, err) = mcpg(&[
        "diff",
        old.to_str().unwrap(),
        "--no-calls",
        "--stdio",
        &demo(),
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains(", 0 calls"), "{out}");
    assert!(out.contains("0 results changed; 0 calls compared"), "{out}");
}

#[test]
fn exit_codes_follow_the_other_commands() {
    let dir = tempfile::tempdir().unwrap();
    let a = save(dir.path(), "a.json", &record());
    let a = a.to_str().unwrap();
    // A session that cannot be read, a missing file, no B: usage (2).
    let (code, _, err) = mcpg(&["diff", a, "#s1.%%%"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("corrupted"), "{err}");
    let (code, _, err) = mcpg(&["diff", "/nonexistent/a.json", a]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = mcpg(&["diff", a]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = mcpg(&["diff", a, a, "--stdio", &demo()]);
    assert_eq!(code, 2, "{err}");
    // A session with nothing to compare.
    let empty = save(
        dir.path(),
        "empty.json",
        &Recording::new(Connection::Embedded),
    );
    let (code, _, err) = mcpg(&["diff", empty.to_str().unwrap(), a]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no tools/list or tools/call"), "{err}");
    // A live server that does not start: no usable answer (4).
    let (code, _, err) = mcpg(&["diff", a, "--stdio", "/nonexistent/server"]);
    assert_eq!(code, 4, "{err}");
}

#[test]
fn a_hostile_recording_is_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let a = save(dir.path(), "a.json", &record());
    let mut b = record();
    edit_tools(&mut b, |tools| {
        let Some(t) = tools.iter_mut().find(|t| t["name"] == "shout") else {
            return;
        };
        t["description"] = json!("loud\u{1b}]52;c;cm0gLXJm\u{7}\nnext");
        tools.push(
            json!({"name": "evil\u{1b}[2J\u{202e}\u{9b}", "inputSchema": {"type": "object"}}),
        );
    });
    let b = save(dir.path(), "b.json", &b);
    let (code, out, err) = mcpg(&["diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        !out.chars()
            .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
        "{out:?}"
    );
    assert!(
        out.contains("added    evil\\u{1b}[2J\\u{202e}\\u{9b}\n"),
        "{out}"
    );
    // Values print as JSON, whose escapes already cover C0 controls.
    assert!(
        out.contains(r#"→ "loud\u001b]52;c;cm0gLXJm\u0007\nnext""#),
        "{out}"
    );
    let (_, json_out, _) = mcpg(&["diff", "--json", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(
        !json_out
            .chars()
            .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
        "{json_out:?}"
    );
    let v: Value = serde_json::from_str(&json_out).unwrap();
    assert_eq!(
        v["tools"]["added"][0]["name"],
        "evil\u{1b}[2J\u{202e}\u{9b}"
    );
}
