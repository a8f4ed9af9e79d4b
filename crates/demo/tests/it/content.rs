//! The demo's resources and templates (reads, paging, completions) through the
//! core's client in both generations; prompts, subscriptions and logs are in
//! `prompts_logs.rs`. Runs natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use base64::Engine as _;
use mcpg_core::client::{CallOutcome, GenerationMode};
use mcpg_core::model::ContentBlock;
use serde_json::{Value, json};
use support::{MODES, Session, all, complete, read, rpc_code};

/// "Resource not found": -32602 under 2026-07-28 (SEP-2164, what `Auto` speaks
/// with the demo), -32002 before.
fn not_found(mode: GenerationMode) -> i64 {
    if mode == GenerationMode::Auto {
        -32602
    } else {
        -32002
    }
}

#[test]
fn every_resource_is_readable_and_pages() {
    for mode in MODES {
        let mut s = Session::new(mode);
        let (resources, pages) = all(&mut s, "resources/list", "resources");
        assert_eq!((resources.len(), pages), (14, 3), "{mode:?}");
        for r in &resources {
            let uri = r["uri"].as_str().unwrap();
            let c = read(&mut s, uri);
            assert_eq!(c["uri"], uri);
            assert_eq!(c["mimeType"], r["mimeType"], "{uri}");
            if let Some(b) = c.get("blob").and_then(Value::as_str) {
                let bytes = base64::engine::general_purpose::STANDARD.decode(b).unwrap();
                assert_eq!(Some(bytes.len() as u64), r["size"].as_u64(), "{uri}");
                assert!(
                    bytes.starts_with(b"\x89PNG") || bytes.starts_with(b"RIFF"),
                    "{uri}"
                );
            } else {
                assert!(!c["text"].as_str().unwrap().is_empty(), "{uri}");
            }
        }
        let cities: Value = serde_json::from_str(
            read(&mut s, "demo://playground/cities.json")["text"]
                .as_str()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(
            cities["cities"][0],
            json!({"city": "Austin", "fahrenheit": 91, "sky": "sunny"})
        );
        let hostile = read(&mut s, "demo://playground/hostile.html");
        assert!(hostile["text"].as_str().unwrap().starts_with("<script>"));
        assert_eq!(
            rpc_code(s.request(
                "resources/read",
                json!({"uri": "note://playground/nothing"})
            )),
            not_found(mode)
        );
        assert_eq!(s.diagnostics(), Vec::<String>::new(), "{mode:?}");
    }
}

#[test]
fn read_notes_link_resolves() {
    for mode in MODES {
        let mut s = Session::new(mode);
        let CallOutcome::Success(r) = s.call("read_note", json!({"topic": "pagination"})) else {
            panic!()
        };
        let Some(ContentBlock::ResourceLink(link)) = r.content.get(1) else {
            panic!("{r:?}")
        };
        let index = read(&mut s, &link.uri);
        assert!(
            index["text"].as_str().unwrap().contains("- pagination\n"),
            "{index}"
        );
        let embedded = read(&mut s, "note://playground/pagination");
        assert!(embedded["text"].as_str().unwrap().contains("nextCursor"));
    }
}

#[test]
fn templates_read_and_complete() {
    for mode in MODES {
        let mut s = Session::new(mode);
        let (templates, _) = all(&mut s, "resources/templates/list", "resourceTemplates");
        let names: Vec<&str> = templates
            .iter()
            .map(|t| t["uriTemplate"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "weather://{city}/today",
                "weather://{city}/forecast/{days}",
                "note://playground/{topic}"
            ]
        );
        assert_eq!(
            read(&mut s, "weather://Paris/today")["text"],
            "Paris: 64F, light rain"
        );
        assert_eq!(
            read(&mut s, "weather://paris/today")["text"],
            "Paris: 64F, light rain"
        );
        let f: Value = serde_json::from_str(
            read(&mut s, "weather://Tokyo/forecast/2")["text"]
                .as_str()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(f["days"].as_array().unwrap().len(), 2);
        assert_eq!(
            rpc_code(s.request("resources/read", json!({"uri": "weather://Atlantis/today"}))),
            not_found(mode)
        );
        assert_eq!(
            rpc_code(s.request(
                "resources/read",
                json!({"uri": "weather://Tokyo/forecast/9"})
            )),
            -32602
        );
        assert_eq!(
            read(&mut s, "note://playground/logging")["mimeType"],
            "text/plain"
        );

        let today = json!({"type": "ref/resource", "uri": "weather://{city}/today"});
        assert_eq!(
            complete(&mut s, today.clone(), "city", "pa", json!({})),
            json!(["Paris"])
        );
        assert_eq!(
            complete(&mut s, today.clone(), "city", "", json!({}))
                .as_array()
                .unwrap()
                .len(),
            5
        );
        assert_eq!(complete(&mut s, today, "city", "x", json!({})), json!([]));
        let forecast = json!({"type": "ref/resource", "uri": "weather://{city}/forecast/{days}"});
        assert_eq!(
            complete(
                &mut s,
                forecast.clone(),
                "days",
                "",
                json!({"city": "Paris"})
            ),
            json!(["1", "2", "3", "4", "5"])
        );
        assert_eq!(
            complete(&mut s, forecast, "days", "", json!({"city": "Atlantis"})),
            json!([]),
            "context matters"
        );
        let note = json!({"type": "ref/resource", "uri": "note://playground/{topic}"});
        assert_eq!(
            complete(&mut s, note, "topic", "p", json!({})),
            json!(["pagination", "progress", "prompts"])
        );
        assert_eq!(s.diagnostics(), Vec::<String>::new(), "{mode:?}");
    }
}

#[test]
fn every_revision_reads_the_catalogue_without_diagnostics() {
    use mcpg_core::ProtocolVersion;
    use mcpg_core::client::{ClientConfig, Event, GenerationMode};
    for v in ProtocolVersion::ALL {
        let mode = match v.generation() {
            mcpg_core::Generation::Initialize => GenerationMode::Initialize,
            mcpg_core::Generation::Stateless => GenerationMode::Stateless,
        };
        let mut s = Session::with_config(ClientConfig {
            mode,
            versions: vec![v],
            ..Default::default()
        });
        let ops = [
            s.client.list_resources(s.now),
            s.client.list_resource_templates(s.now),
            s.client.list_prompts(s.now),
        ];
        s.pump();
        let counts: Vec<usize> = ops
            .iter()
            .map(|op| {
                s.events
                    .iter()
                    .find_map(|e| match e {
                        Event::Listed { op: o, count, .. } if o == op => Some(*count),
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("{v}: {:#?}", s.events))
            })
            .collect();
        assert_eq!(counts, [14, 3, 4], "{v}");
        for uri in ["demo://playground/sun.png", "weather://Paris/today"] {
            s.client.read_resource(s.now, uri);
        }
        let args = json!({"topic": "errors"}).as_object().cloned().unwrap();
        s.client.get_prompt(s.now, "study_note", args);
        s.pump();
        assert_eq!(s.diagnostics(), Vec::<String>::new(), "{v}");
    }
}
