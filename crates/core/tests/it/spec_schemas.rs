//! Every message the core's client and server put on the wire, for every protocol
//! revision, validated against the official JSON Schema of that revision (read from
//! `../shared/spec-schemas`, which is reference data outside the project).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::raw;
use crate::support;

use std::path::PathBuf;
use std::time::Duration;

use mcpg_core::client::{CallOptions, ClientConfig, GenerationMode};
use mcpg_core::jsonrpc::{Body, Message};
use mcpg_core::model::{CallToolResult, ContentBlock, Tool};
use mcpg_core::server::{ServerConfig, ServerEvent};
use mcpg_core::{Generation, ProtocolVersion};
use serde_json::{Value, json};
use support::{Behaviour, Pair};

/// The official schemas: `MCPG_SPEC_SCHEMAS` when set (a worktree sits deeper than
/// the main checkout), else `../shared/spec-schemas` beside the checkout. When they
/// are absent the test is skipped with a notice, or fails under
/// `MCPG_REQUIRE_PEERS` (as the peer tests do): the full suite must not pass
/// without having checked.
fn schema_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MCPG_SPEC_SCHEMAS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec-schemas"),
        PathBuf::from,
    );
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("MCPG_REQUIRE_PEERS").is_ok_and(|v| !v.is_empty() && v != "0");
    assert!(
        !required,
        "{} is absent and MCPG_REQUIRE_PEERS is set: the official-schema check cannot be skipped",
        dir.display()
    );
    println!(
        "SKIP: {} is absent; the official-schema check did not run (set MCPG_SPEC_SCHEMAS)",
        dir.display()
    );
    None
}

/// The definition a message must match, given the method of the request it answers.
fn def_for(msg: &Message, answered: Option<&str>) -> Option<String> {
    let request_def = |m: &str| -> Option<&'static str> {
        Some(match m {
            "initialize" => "InitializeRequest",
            "server/discover" => "DiscoverRequest",
            "tools/list" => "ListToolsRequest",
            "tools/call" => "CallToolRequest",
            "ping" => "PingRequest",
            "notifications/initialized" => "InitializedNotification",
            "notifications/progress" => "ProgressNotification",
            "notifications/cancelled" => "CancelledNotification",
            "notifications/tools/list_changed" => "ToolListChangedNotification",
            "subscriptions/listen" => "SubscriptionsListenRequest",
            "notifications/subscriptions/acknowledged" => "SubscriptionsAcknowledgedNotification",
            "resources/list" => "ListResourcesRequest",
            "resources/templates/list" => "ListResourceTemplatesRequest",
            "resources/read" => "ReadResourceRequest",
            "prompts/list" => "ListPromptsRequest",
            "prompts/get" => "GetPromptRequest",
            "completion/complete" => "CompleteRequest",
            "notifications/message" => "LoggingMessageNotification",
            "notifications/resources/updated" => "ResourceUpdatedNotification",
            "notifications/resources/list_changed" => "ResourceListChangedNotification",
            "notifications/prompts/list_changed" => "PromptListChangedNotification",
            _ => return None,
        })
    };
    match msg.body() {
        Body::Request { method, .. } | Body::Notification { method, .. } => {
            request_def(method).map(str::to_owned)
        }
        // Requests whose result has no shape of its own.
        Body::Response { .. }
            if matches!(
                answered,
                Some("resources/subscribe" | "resources/unsubscribe" | "logging/setLevel")
            ) =>
        {
            Some("EmptyResult".into())
        }
        Body::Response { .. } => answered
            .and_then(request_def)
            .map(|d| d.replace("Request", "Result")),
        // Errors are checked as errors by the envelope below; no method-specific shape.
        Body::Error { .. } => Some("JSONRPCError".into()),
    }
}

fn validator(schema: &Value, def: &str) -> jsonschema::Validator {
    let mut root = schema.clone();
    let key = if root.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    root.as_object_mut()
        .unwrap()
        .insert("$ref".into(), Value::from(format!("#/{key}/{def}")));
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("schema for {def}: {e}"))
}

fn sample_tools(v: ProtocolVersion) -> Vec<Tool> {
    let mut weather = json!({
        "name": "get_weather",
        "description": "Current weather for a city",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    });
    if v >= ProtocolVersion::V2025_03_26 {
        weather["annotations"] = json!({"title": "Weather", "readOnlyHint": true});
    }
    if v >= ProtocolVersion::V2025_06_18 {
        weather["title"] = json!("Get weather");
        weather["outputSchema"] =
            json!({"type": "object", "properties": {"temp": {"type": "number"}}});
    }
    let extra = (0..5).map(|i| json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}}));
    std::iter::once(weather)
        .chain(extra)
        .map(|t| serde_json::from_value(t).unwrap())
        .collect()
}

fn result_for(v: ProtocolVersion) -> CallToolResult {
    let mut r = CallToolResult::text("Austin: 91F, sunny");
    r.content.push(ContentBlock::from_value(
        json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}),
    ));
    r.content.push(ContentBlock::from_value(
        json!({"type": "resource", "resource": {"uri": "file:///w.txt", "text": "91F"}}),
    ));
    if v >= ProtocolVersion::V2025_06_18 {
        r.structured_content = Some(json!({"temp": 91}));
        r.content.push(ContentBlock::from_value(
            json!({"type": "resource_link", "uri": "file:///w.txt", "name": "w"}),
        ));
    }
    r
}

#[test]
fn every_wire_message_matches_the_official_schema() {
    let Some(dir) = schema_dir() else {
        return;
    };
    for v in ProtocolVersion::ALL {
        let text = std::fs::read_to_string(dir.join(v.as_str()).join("schema.json")).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        let mode = if v.generation() == Generation::Stateless {
            GenerationMode::Stateless
        } else {
            GenerationMode::Initialize
        };
        let ccfg = ClientConfig {
            mode,
            versions: vec![v],
            listen_for_list_changes: true,
            ..Default::default()
        };
        let scfg = ServerConfig {
            versions: vec![v],
            page_size: 4,
            instructions: Some("Ask about weather.".into()),
            ..Default::default()
        };
        let mut p = Pair::new(ccfg, scfg, sample_tools(v));
        p.behaviour = Behaviour::Hold;
        p.connect();
        p.client.list_tools(p.now);
        p.pump();
        p.client.call_tool(
            p.now,
            "get_weather",
            json!({"city": "Austin"}).as_object().cloned(),
            CallOptions {
                progress: true,
                ..Default::default()
            },
        );
        p.pump();
        let (id, token) = p
            .server_events
            .iter()
            .find_map(|e| match e {
                ServerEvent::CallTool {
                    id, progress_token, ..
                } => Some((id.clone(), progress_token.clone().unwrap())),
                _ => None,
            })
            .unwrap();
        p.server
            .progress(p.now, &token, 1.0, Some(2.0), Some("looking outside"));
        p.server.respond(p.now, &id, &result_for(v));
        p.pump();
        p.client.call_tool(
            p.now,
            "t0",
            None,
            CallOptions {
                timeout: Some(Duration::from_secs(1)),
                ..Default::default()
            },
        );
        p.pump();
        p.advance(Duration::from_secs(2)); // → notifications/cancelled
        // list_changed: after initialize in the old generation, on the listen stream in the new.
        p.server.set_tools(p.now, sample_tools(v));
        p.pump();

        // Walk the wire log in order, remembering which method each id asked for.
        let mut asked = std::collections::HashMap::new();
        let mut checked = 0;
        for e in &p.server_events {
            let ServerEvent::Wire(w) = e else { continue };
            let msg = Message::decode(&w.raw).unwrap();
            if let Body::Request { id, method, .. } = msg.body() {
                asked.insert(id.clone(), method.clone());
            }
            let answered = msg.id().and_then(|id| asked.get(id)).map(String::as_str);
            let Some(def) = def_for(&msg, answered) else {
                panic!("{v}: no schema mapping for {}", msg.raw())
            };
            if matches!(msg.body(), Body::Error { .. }) {
                continue;
            }
            let val = validator(&schema, &def);
            let instance = if matches!(msg.body(), Body::Response { .. }) {
                msg.to_value()["result"].clone()
            } else {
                msg.to_value()
            };
            let errors: Vec<String> = val
                .iter_errors(&instance)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "{v}: {def} does not match the official schema:\n{}\n{errors:#?}",
                msg.raw()
            );
            checked += 1;
        }
        // The validator itself must be able to fail, or this test proves nothing.
        let call = validator(&schema, "CallToolResult");
        assert!(
            !call.is_valid(&json!({"content": "not an array"})),
            "{v}: validator accepts junk"
        );
        if v.generation() == Generation::Stateless {
            assert!(
                !call.is_valid(&json!({"content": []})),
                "{v}: resultType is required"
            );
        }
        println!("{v}: {checked} wire messages match the official schema");
        assert!(checked >= 8, "{v}: only {checked} messages checked");
    }
}

/// The MRTR retry (`inputResponses`, `requestState`) must still be a valid
/// `CallToolRequest` of 2026-07-28.
#[test]
fn mrtr_retries_match_the_official_schema() {
    let Some(dir) = schema_dir() else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("2026-07-28").join("schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let mut caps = mcpg_core::model::JsonObject::new();
    caps.insert("elicitation".into(), json!({}));
    let mut s = support::Scripted::new(ClientConfig {
        capabilities: caps,
        ..Default::default()
    });
    s.discover_ok();
    let op = s.client.call_tool(
        s.now,
        "delete",
        json!({"file": "a.txt"}).as_object().cloned(),
        CallOptions {
            progress: true,
            ..Default::default()
        },
    );
    s.drain();
    let asked = json!({"resultType": "input_required", "requestState": "opaque",
        "inputRequests": {"confirm": {"method": "elicitation/create", "params": {"mode": "form", "message": "Sure?",
            "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}}});
    assert!(validator(&schema, "InputRequiredResult").is_valid(&asked));
    s.reply("tools/call", asked);
    let answers = json!({"confirm": {"action": "accept", "content": {"ok": true}}});
    assert!(
        s.client
            .continue_call(s.now, op, answers.as_object().cloned().unwrap())
    );
    s.drain();
    let val = validator(&schema, "CallToolRequest");
    let calls: Vec<&Message> = s
        .sent
        .iter()
        .filter(|m| m.method() == Some("tools/call"))
        .collect();
    assert_eq!(calls.len(), 2);
    for m in calls {
        let errors: Vec<String> = val
            .iter_errors(&m.to_value())
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}\n{errors:#?}", m.raw());
    }
    let mut broken = s.sent.last().unwrap().to_value();
    broken["params"]["inputResponses"] = json!("not a map");
    assert!(!val.is_valid(&broken), "validator accepts junk");
}

/// The request definition of each issue-13 method a client sends.
fn issue_13_def(method: &str) -> Option<&'static str> {
    Some(match method {
        "resources/list" => "ListResourcesRequest",
        "resources/templates/list" => "ListResourceTemplatesRequest",
        "resources/read" => "ReadResourceRequest",
        "resources/subscribe" => "SubscribeRequest",
        "resources/unsubscribe" => "UnsubscribeRequest",
        "prompts/list" => "ListPromptsRequest",
        "prompts/get" => "GetPromptRequest",
        "completion/complete" => "CompleteRequest",
        "logging/setLevel" => "SetLevelRequest",
        "subscriptions/listen" => "SubscriptionsListenRequest",
        "notifications/cancelled" => "CancelledNotification",
        _ => return None,
    })
}

fn assert_valid(schema: &Value, def: &str, instance: &Value, v: ProtocolVersion) {
    let errors: Vec<String> = validator(schema, def)
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{v}: {def} does not match:\n{instance:#}\n{errors:#?}"
    );
}

/// Resources, templates, prompts, completions, subscriptions and logging: every
/// request the client sends, and every answer and notification the scripted
/// server sends in these tests, against each revision's official schema.
#[test]
fn resource_prompt_and_logging_messages_match_the_official_schema() {
    use mcpg_core::model::{CompletionReference, LoggingLevel};
    let Some(dir) = schema_dir() else {
        return;
    };
    for v in ProtocolVersion::ALL {
        let text = std::fs::read_to_string(dir.join(v.as_str()).join("schema.json")).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        let stateless = v.generation() == Generation::Stateless;
        let mut s = support::Scripted::new(ClientConfig::default());
        let caps = json!({"resources": {"subscribe": true, "listChanged": true}, "prompts": {"listChanged": true}, "logging": {}, "completions": {}});
        s.connect_with(v.as_str(), caps);
        // A result as a server of this revision writes it, checked before it is fed.
        let answer = |s: &mut support::Scripted, method: &str, def: &str, mut body: Value| {
            if stateless {
                body["resultType"] = json!("complete");
                if def.starts_with("List") || def == "ReadResourceResult" {
                    body["ttlMs"] = json!(0);
                    body["cacheScope"] = json!("private");
                }
            }
            assert_valid(&schema, def, &body, v);
            s.reply(method, body);
        };
        s.client.list_resources(s.now);
        s.drain();
        answer(
            &mut s,
            "resources/list",
            "ListResourcesResult",
            json!({"resources": [{"uri": "note://a", "name": "a", "mimeType": "text/plain", "size": 5}], "nextCursor": "2"}),
        );
        answer(
            &mut s,
            "resources/list",
            "ListResourcesResult",
            json!({"resources": []}),
        );
        s.client.list_resource_templates(s.now);
        s.drain();
        answer(
            &mut s,
            "resources/templates/list",
            "ListResourceTemplatesResult",
            json!({"resourceTemplates": [{"uriTemplate": "weather://{city}/today", "name": "w"}]}),
        );
        s.client.list_prompts(s.now);
        s.drain();
        answer(
            &mut s,
            "prompts/list",
            "ListPromptsResult",
            json!({"prompts": [{"name": "review", "arguments": [{"name": "lang", "required": true}]}]}),
        );
        s.client.read_resource(s.now, "note://a");
        s.drain();
        answer(
            &mut s,
            "resources/read",
            "ReadResourceResult",
            json!({"contents": [{"uri": "note://a", "text": "hello"}, {"uri": "note://a", "blob": "aGk=", "mimeType": "application/octet-stream"}]}),
        );
        let args = json!({"lang": "rust"}).as_object().cloned().unwrap();
        s.client.get_prompt(s.now, "review", args.clone());
        s.drain();
        answer(
            &mut s,
            "prompts/get",
            "GetPromptResult",
            json!({"description": "d", "messages": [{"role": "user", "content": {"type": "text", "text": "Review"}}]}),
        );
        s.client.complete(
            s.now,
            CompletionReference::Prompt {
                name: "review".into(),
            },
            ("lang", "ru"),
            args,
        );
        s.client.complete(
            s.now,
            CompletionReference::Resource {
                uri: "weather://{city}/today".into(),
            },
            ("city", "Pa"),
            Default::default(),
        );
        s.drain();
        answer(
            &mut s,
            "completion/complete",
            "CompleteResult",
            json!({"completion": {"values": ["rust"], "total": 1, "hasMore": false}}),
        );
        if s.client.set_log_level(s.now, LoggingLevel::Info).is_some() {
            s.drain();
            let empty = if stateless { "Result" } else { "EmptyResult" };
            answer(&mut s, "logging/setLevel", empty, json!({}));
        }
        s.client.subscribe_resource(s.now, "note://a");
        s.drain();
        let mut notes = vec![
            (
                "ResourceUpdatedNotification",
                json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "note://a"}}),
            ),
            (
                "ResourceListChangedNotification",
                json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"}),
            ),
            (
                "PromptListChangedNotification",
                json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"}),
            ),
            (
                "LoggingMessageNotification",
                json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "logger": "db", "data": {"n": 1}}}),
            ),
        ];
        if stateless {
            let (id, _) = s.last_request("subscriptions/listen");
            // The stream's notifications name it.
            for (_, n) in notes.iter_mut().take(3) {
                n["params"]["_meta"] =
                    json!({"io.modelcontextprotocol/subscriptionId": id.to_value()});
            }
            notes.insert(0, ("SubscriptionsAcknowledgedNotification", json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id.to_value()}, "notifications": {"resourceSubscriptions": ["note://a"]}}})));
        } else {
            answer(&mut s, "resources/subscribe", "EmptyResult", json!({}));
        }
        for (def, n) in notes {
            assert_valid(&schema, def, &n, v);
            s.feed(&n.to_string());
        }
        s.client.unsubscribe_resource(s.now, "note://a");
        s.drain();
        let mut checked = 0;
        for m in &s.sent {
            let Some(def) = m.method().and_then(issue_13_def) else {
                continue;
            };
            assert_valid(&schema, def, &m.to_value(), v);
            checked += 1;
        }
        let expected = if stateless { 10 } else { 11 };
        assert_eq!(checked, expected, "{v}: {:#?}", s.sent);
        let diags: Vec<String> = s
            .take()
            .into_iter()
            .filter_map(|e| match e {
                mcpg_core::client::Event::Diagnostic(d)
                    if d.severity > mcpg_core::diag::Severity::Info =>
                {
                    Some(d.to_string())
                }
                _ => None,
            })
            .collect();
        assert!(diags.is_empty(), "{v}: {diags:#?}");
        // The validator must be able to fail.
        assert!(
            !validator(&schema, "ReadResourceResult").is_valid(&json!({"contents": [{"text": 1}]}))
        );
    }
}

/// Every message the server sends about resources, templates, prompts,
/// completions, subscriptions and logs, for every revision, must match that
/// revision's schema.
#[test]
fn server_content_matches_the_official_schema() {
    use mcpg_core::server::{blob_contents, text_contents};
    let Some(dir) = schema_dir() else {
        return;
    };
    for v in ProtocolVersion::ALL {
        let text = std::fs::read_to_string(dir.join(v.as_str()).join("schema.json")).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        let generation = match v.generation() {
            Generation::Initialize => raw::Gen::Initialize(v.as_str()),
            Generation::Stateless => raw::Gen::Stateless,
        };
        let mut r = raw::Raw::new(raw::full_server(3), generation);
        if generation == raw::Gen::Stateless {
            r.log_level = Some("debug");
            r.send("subscriptions/listen", json!({"notifications": {"resourceSubscriptions": ["note://n/1"], "resourcesListChanged": true, "promptsListChanged": true}}));
        } else {
            r.request("logging/setLevel", json!({"level": "debug"}));
            r.request("resources/subscribe", json!({"uri": "note://n/1"}));
        }
        r.pages("resources/list", "resources", "uri");
        r.pages("resources/templates/list", "resourceTemplates", "name");
        r.pages("prompts/list", "prompts", "name");
        let text_read = r.send("resources/read", json!({"uri": "note://n/1"}));
        let blob_read = r.send("resources/read", json!({"uri": "weather://Paris/today"}));
        let prompt = r.send(
            "prompts/get",
            json!({"name": "plan_trip", "arguments": {"city": "Paris"}}),
        );
        let complete = r.send("completion/complete", json!({"ref": {"type": "ref/resource", "uri": "weather://{city}/today"}, "argument": {"name": "city", "value": "P"}}));
        r.server.log(
            r.now,
            Some(&prompt),
            mcpg_core::model::LoggingLevel::Info,
            Some("demo"),
            json!({"city": "Paris"}),
        );
        r.server.respond_read(
            r.now,
            &text_read,
            vec![text_contents("note://n/1", "text/plain", "hi")],
        );
        r.server.respond_read(
            r.now,
            &blob_read,
            vec![blob_contents(
                "weather://Paris/today",
                "image/png",
                "iVBORw0KGgo=",
            )],
        );
        r.server.respond_prompt(r.now, &prompt, Some("A trip"), vec![json!({"role": "user", "content": {"type": "text", "text": "Plan a trip to Paris."}})]);
        r.server
            .respond_completion(r.now, &complete, vec!["Paris".into()]);
        r.server.resource_updated(r.now, "note://n/1");
        r.server.set_resources(r.now, vec![], vec![]);
        r.server.set_prompts(r.now, vec![]);
        r.drain();
        let mut checked = std::collections::BTreeSet::new();
        for f in &r.frames {
            let msg = Message::decode(&f.to_string()).unwrap();
            let answered = f
                .get("id")
                .and_then(Value::as_i64)
                .and_then(|id| r.asked.get(&id))
                .map(String::as_str);
            let def =
                def_for(&msg, answered).unwrap_or_else(|| panic!("{v}: no schema mapping for {f}"));
            assert!(!matches!(msg.body(), Body::Error { .. }), "{v}: {f}");
            let instance = if matches!(msg.body(), Body::Response { .. }) {
                f["result"].clone()
            } else {
                f.clone()
            };
            assert_valid(&schema, &def, &instance, v);
            checked.insert(def);
        }
        println!(
            "{v}: {} kinds of server message match the official schema",
            checked.len()
        );
        assert!(checked.len() >= 11, "{v}: only {checked:?}");
    }
}

/// Issue 14: what the client sends when its roots change, and the server's
/// `-32042` error and completion notice the client reads, against each revision.
#[test]
fn roots_and_url_elicitation_messages_match_the_official_schema() {
    let Some(dir) = schema_dir() else {
        return;
    };
    for v in [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
    ] {
        let text = std::fs::read_to_string(dir.join(v.as_str()).join("schema.json")).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        let caps = json!({"roots": {"listChanged": true}});
        let mut s = support::Scripted::new(ClientConfig {
            capabilities: caps.as_object().cloned().unwrap(),
            ..Default::default()
        });
        s.connect_with(v.as_str(), json!({}));
        assert!(s.client.roots_list_changed(s.now));
        s.drain();
        let sent = s.sent.last().unwrap().to_value();
        assert_valid(&schema, "RootsListChangedNotification", &sent, v);
        if v == ProtocolVersion::V2025_11_25 {
            let err = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32042, "message": "more",
                "data": {"elicitations": [{"mode": "url", "elicitationId": "e", "url": "https://a.example", "message": "Go"}]}}});
            assert_valid(&schema, "URLElicitationRequiredError", &err, v);
            let done = json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "e"}});
            assert_valid(&schema, "ElicitationCompleteNotification", &done, v);
        }
    }
}

/// A 2025-11-25 task-augmented call: the `initialize` declaring `tasks`, the
/// `tools/call` with `params.task`, `tasks/get`, `tasks/result` and `tasks/cancel`,
/// all as the client sends them, and the scripted server's task answers, against
/// the official schema.
#[test]
fn task_messages_match_the_official_schema() {
    use mcpg_core::client::TaskRequest;
    let Some(dir) = schema_dir() else {
        return;
    };
    let v = ProtocolVersion::V2025_11_25;
    let text = std::fs::read_to_string(dir.join(v.as_str()).join("schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let mut s = support::Scripted::new(ClientConfig {
        capabilities: crate::tasks::tasks_capability(),
        ..Default::default()
    });
    s.connect_with(
        v.as_str(),
        json!({"tools": {}, "tasks": {"cancel": {}, "requests": {"tools": {"call": {}}}}}),
    );
    let task = |id: &str, status: &str| {
        json!({"taskId": id, "status": status, "ttl": 30000, "pollInterval": 1000,
            "createdAt": "2025-11-25T10:00:00Z", "lastUpdatedAt": "2025-11-25T10:00:00Z"})
    };
    let ask = CallOptions {
        task: Some(TaskRequest {
            ttl: Some(Duration::from_secs(30)),
        }),
        ..Default::default()
    };
    let args = json!({"topic": "tides"}).as_object().cloned();
    s.client
        .call_tool(s.now, "research", args.clone(), ask.clone());
    s.drain();
    let created = json!({ "task": task("t1", "working") });
    assert_valid(&schema, "CreateTaskResult", &created, v);
    s.reply("tools/call", created);
    s.advance(Duration::from_secs(1));
    assert_valid(&schema, "GetTaskResult", &task("t1", "completed"), v);
    s.reply("tasks/get", task("t1", "completed"));
    s.reply("tasks/result", json!({"content": []}));
    let op = s.client.call_tool(s.now, "research", args, ask);
    s.drain();
    s.reply("tools/call", json!({ "task": task("t2", "working") }));
    s.client.cancel(s.now, op, "stop");
    s.drain();
    let mut methods = Vec::new();
    for m in &s.sent {
        let def = match m.method() {
            Some("initialize") => "InitializeRequest",
            Some("notifications/initialized") => "InitializedNotification",
            Some("tools/call") => "CallToolRequest",
            Some("tasks/get") => "GetTaskRequest",
            Some("tasks/result") => "GetTaskPayloadRequest",
            Some("tasks/cancel") => "CancelTaskRequest",
            // The discovery probe belongs to 2026-07-28 and is checked there.
            Some("server/discover") => continue,
            other => panic!("no schema mapping for {other:?}"),
        };
        assert_valid(&schema, def, &m.to_value(), v);
        methods.push(def);
    }
    for def in [
        "CallToolRequest",
        "GetTaskRequest",
        "GetTaskPayloadRequest",
        "CancelTaskRequest",
    ] {
        assert!(methods.contains(&def), "no {def} sent: {methods:?}");
    }
    let init = s.last_request_like("initialize");
    assert_eq!(init["capabilities"]["tasks"], json!({}));
    let val = validator(&schema, "CallToolRequest");
    let mut broken = s
        .sent
        .iter()
        .rev()
        .find(|m| m.method() == Some("tools/call"))
        .unwrap()
        .to_value();
    broken["params"]["task"]["ttl"] = json!("soon");
    assert!(!val.is_valid(&broken), "validator accepts junk");
}
