//! Resources, templates and prompts listings (paging and its guards) and
//! `resources/read`, in both generations, against scripted servers.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{Answer, ClientConfig, Event, ListItems, ListKind, OpError};
use mcpg_core::diag::Rule;
use mcpg_core::model::ResourceContents;
use serde_json::{Value, json};
use support::{Scripted, result, rules};

const VERSIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

fn connected(version: &str, cfg: ClientConfig) -> Scripted {
    let mut s = Scripted::new(cfg);
    let caps = json!({"resources": {"subscribe": true, "listChanged": true}, "prompts": {}});
    s.connect_with(version, caps);
    s
}

/// An item of each kind, named `n`.
fn item(kind: ListKind, n: &str) -> Value {
    match kind {
        ListKind::Resources => json!({"uri": format!("note://x/{n}"), "name": n}),
        ListKind::Templates => json!({"uriTemplate": format!("note://{n}/{{id}}"), "name": n}),
        ListKind::Prompts => json!({"name": n}),
    }
}

fn names(items: &ListItems) -> Vec<String> {
    match items {
        ListItems::Resources(v) => v.iter().map(|r| r.name.clone()).collect(),
        ListItems::Templates(v) => v.iter().map(|t| t.name.clone()).collect(),
        ListItems::Prompts(v) => v.iter().map(|p| p.name.clone()).collect(),
    }
}

fn list(s: &mut Scripted, kind: ListKind) -> mcpg_core::client::OpId {
    let op = match kind {
        ListKind::Resources => s.client.list_resources(s.now),
        ListKind::Templates => s.client.list_resource_templates(s.now),
        ListKind::Prompts => s.client.list_prompts(s.now),
    };
    s.drain();
    op
}

#[test]
fn every_list_is_followed_page_by_page_in_both_generations() {
    for version in VERSIONS {
        for kind in [ListKind::Resources, ListKind::Templates, ListKind::Prompts] {
            let mut s = connected(version, ClientConfig::default());
            let op = list(&mut s, kind);
            let (_, params) = s.last_request(kind.method());
            let stamped = params
                .as_ref()
                .and_then(|p| p.pointer("/_meta/io.modelcontextprotocol~1protocolVersion"));
            assert_eq!(stamped.is_some(), version == "2026-07-28", "{params:?}");
            let page1 =
                json!({ kind.member(): [item(kind, "a"), item(kind, "b")], "nextCursor": "p2" });
            s.reply(kind.method(), result(version, page1));
            let (_, params) = s.last_request(kind.method());
            assert_eq!(params.unwrap()["cursor"], "p2");
            s.reply(
                kind.method(),
                result(version, json!({ kind.member(): [item(kind, "c")] })),
            );
            let ev = s.take();
            assert_eq!(rules(&ev), [], "{version} {kind:?}: {ev:#?}");
            let pages: Vec<(u32, Vec<String>, Option<String>)> = ev
                .iter()
                .filter_map(|e| match e {
                    Event::ListPage {
                        op: o,
                        kind: k,
                        page,
                        items,
                        next_cursor,
                        ..
                    } if *o == op && *k == kind => Some((*page, names(items), next_cursor.clone())),
                    _ => None,
                })
                .collect();
            assert_eq!(
                pages,
                [
                    (1, vec!["a".into(), "b".into()], Some("p2".into())),
                    (2, vec!["c".into()], None)
                ]
            );
            assert!(ev.iter().any(|e| matches!(e, Event::Listed { op: o, kind: k, pages: 2, count: 3 } if *o == op && *k == kind)), "{ev:#?}");
        }
    }
}

#[test]
fn paging_guards_stop_a_repeated_cursor_the_page_limit_and_a_failing_page() {
    for version in VERSIONS {
        let kind = ListKind::Resources;
        let page = |c: &str| {
            result(
                version,
                json!({"resources": [item(kind, c)], "nextCursor": c}),
            )
        };
        // A cursor returned twice.
        let mut s = connected(version, ClientConfig::default());
        let op = list(&mut s, kind);
        s.reply("resources/list", page("x"));
        s.reply("resources/list", page("x"));
        let ev = s.take();
        assert!(rules(&ev).contains(&Rule::RepeatingCursor), "{ev:#?}");
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::ListFailed { op: o, pages: 2, .. } if *o == op))
        );
        // The page limit.
        let cfg = ClientConfig {
            max_list_pages: 2,
            ..Default::default()
        };
        let mut s = connected(version, cfg);
        let op = list(&mut s, kind);
        s.reply("resources/list", page("1"));
        s.reply("resources/list", page("2"));
        let ev = s.take();
        assert_eq!(rules(&ev), [Rule::TooManyPages], "{ev:#?}");
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::ListFailed { op: o, pages: 2, .. } if *o == op))
        );
        assert_eq!(
            s.sent
                .iter()
                .filter(|m| m.method() == Some("resources/list"))
                .count(),
            2
        );
        // A page that fails: the pages before it stay reported.
        let mut s = connected(version, ClientConfig::default());
        let op = list(&mut s, kind);
        s.reply("resources/list", page("1"));
        s.reply_error("resources/list", -32602, "Invalid cursor", None);
        let ev = s.take();
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::ListPage { page: 1, .. }))
        );
        assert!(ev.iter().any(|e| matches!(e, Event::ListFailed { op: o, pages: 1, error: OpError::Rpc(r), .. } if *o == op && r.code == -32602)), "{ev:#?}");
    }
}

#[test]
fn duplicates_odd_items_and_bad_templates_are_diagnosed_and_kept() {
    let mut s = connected("2025-06-18", ClientConfig::default());
    list(&mut s, ListKind::Templates);
    s.reply(
        "resources/templates/list",
        json!({"resourceTemplates": [
        {"uriTemplate": "weather://{city}/today", "name": "w"},
        {"uriTemplate": "weather://{city/today", "name": "broken"},
        {"name": "no template"}
    ], "nextCursor": "2"}),
    );
    s.reply(
        "resources/templates/list",
        json!({"resourceTemplates": [
            {"uriTemplate": "weather://{city}/today", "name": "again", "icons": []}
        ]}),
    );
    let ev = s.take();
    assert_eq!(
        rules(&ev),
        [
            Rule::UriTemplate,
            Rule::ResourceShape,
            Rule::FieldNotInVersion,
            Rule::DuplicateEntry
        ]
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Listed { count: 3, .. }))
    );
}

#[test]
fn text_and_blob_contents_are_read_in_both_generations() {
    for version in VERSIONS {
        let mut s = connected(version, ClientConfig::default());
        let op = s.client.read_resource(s.now, "note://x/a");
        s.drain();
        let (_, params) = s.last_request("resources/read");
        assert_eq!(params.unwrap()["uri"], "note://x/a");
        // 2026-07-28 names the resource in the HTTP headers too.
        let headers = &s.last_outgoing("resources/read").headers;
        let named = headers
            .iter()
            .any(|(k, v)| *k == "Mcp-Name" && v == "note://x/a");
        assert_eq!(named, version == "2026-07-28", "{headers:?}");
        s.reply(
            "resources/read",
            result(
                version,
                json!({"contents": [
                    {"uri": "note://x/a", "mimeType": "text/plain", "text": "hello"},
                    {"uri": "note://x/a.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="}
                ]}),
            ),
        );
        let ev = s.take();
        assert_eq!(rules(&ev), [], "{ev:#?}");
        let read = ev.iter().find_map(|e| match e {
            Event::Answered {
                op: o,
                outcome: Ok(Answer::Read(r)),
                message: Some(_),
            } if *o == op => Some(r),
            _ => None,
        });
        let r = read.expect("an Answered read");
        assert!(matches!(&r.contents[0], ResourceContents::Text(t) if t.text == "hello"));
        assert!(matches!(&r.contents[1], ResourceContents::Blob(b) if b.blob == "iVBORw0KGgo="));
    }
}

#[test]
fn a_blob_that_is_not_base64_and_odd_contents_are_diagnosed() {
    let mut s = connected("2025-11-25", ClientConfig::default());
    let op = s.client.read_resource(s.now, "bin://x");
    s.drain();
    s.reply(
        "resources/read",
        json!({"contents": [
            {"uri": "bin://x", "blob": "not base64!"},
            {"uri": "bin://y"}
        ]}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::BlobNotBase64, Rule::ResourceShape]);
    // Still delivered: the learner sees what was sent.
    assert!(ev.iter().any(|e| matches!(e, Event::Answered { op: o, outcome: Ok(Answer::Read(r)), .. } if *o == op && r.contents.len() == 2)));
    // A result that cannot be read at all fails the operation.
    let op = s.client.read_resource(s.now, "bin://x");
    s.drain();
    s.reply("resources/read", json!({"contents": "nope"}));
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::ResourceShape]);
    assert!(ev.iter().any(
        |e| matches!(e, Event::Answered { op: o, outcome: Err(OpError::Failed(_)), .. } if *o == op)
    ));
}

#[test]
fn a_read_can_be_cancelled_and_a_closed_session_ends_every_wait() {
    use mcpg_core::client::Failure;
    let mut s = connected("2026-07-28", ClientConfig::default());
    let op = s.client.read_resource(s.now, "note://x/a");
    s.drain();
    let (id, _) = s.last_request("resources/read");
    s.client.cancel(s.now, op, "not needed");
    s.drain();
    assert_eq!(
        s.last_request_like("notifications/cancelled")["requestId"],
        id.to_value()
    );
    let ev = s.take();
    assert!(ev.iter().any(|e| matches!(e, Event::Answered { op: o, outcome: Err(OpError::Failed(Failure::Cancelled(_))), .. } if *o == op)), "{ev:#?}");
    // A late answer is recognised as late, not as unknown.
    s.reply_to(&id, result("2026-07-28", json!({"contents": []})));
    assert_eq!(rules(&s.take()), [Rule::LateResponse]);
    // Closing ends a listing, a read and a subscription waiting for its acknowledgement.
    let list = s.client.list_prompts(s.now);
    let read = s.client.read_resource(s.now, "note://x/a");
    let sub = s.client.subscribe_resource(s.now, "note://x/a");
    s.drain();
    s.client.handle_closed(s.now, "gone");
    s.drain();
    let ev = s.take();
    assert!(ev.iter().any(
        |e| matches!(e, Event::ListFailed { op, kind: ListKind::Prompts, .. } if *op == list)
    ));
    for op in [read, sub] {
        assert!(ev.iter().any(|e| matches!(e, Event::Answered { op: o, outcome: Err(OpError::Failed(Failure::Transport(_))), .. } if *o == op)), "{op:?}: {ev:#?}");
    }
    assert_eq!(s.client.subscriptions().count(), 0);
}
