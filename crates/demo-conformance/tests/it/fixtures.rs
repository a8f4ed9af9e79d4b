//! The fixtures that answer at once, and the slow ones on the virtual clock.

use mcpg_core::Timestamp;
use serde_json::{Value, json};

use crate::{answer, call, drain, request, session};

#[test]
fn initialize_declares_what_the_scenarios_exercise() {
    let mut s = mcpg_demo_conformance::ConformanceServer::new();
    let sent = request(
        &mut s,
        0,
        "initialize",
        json!({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}),
    );
    let r = &answer(&sent)["result"];
    assert_eq!(r["serverInfo"]["name"], mcpg_demo_conformance::NAME);
    let caps = &r["capabilities"];
    assert_eq!(
        caps["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    assert_eq!(caps["prompts"]["listChanged"], true);
    assert_eq!(caps["tools"]["listChanged"], true);
    assert!(
        caps["completions"].is_object() && caps["logging"].is_object(),
        "{caps}"
    );
}

#[test]
fn every_fixture_tool_is_listed() {
    let mut s = session(json!({}));
    let sent = request(&mut s, 0, "tools/list", json!({}));
    let names: Vec<&str> = answer(&sent)["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for n in [
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_tool_with_logging",
        "test_tool_with_progress",
        "test_error_handling",
        "test_sampling",
        "test_elicitation",
        "test_elicitation_sep1034_defaults",
        "test_elicitation_sep1330_enums",
        "json_schema_2020_12_tool",
        "test_missing_capability",
    ] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
}

#[test]
fn the_content_fixtures_answer_their_blocks() {
    let mut s = session(json!({}));
    let kinds = |r: &Value| -> Vec<String> {
        r["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].as_str().unwrap().to_owned())
            .collect()
    };
    let r = call(&mut s, "test_simple_text", json!({}));
    assert_eq!(
        r["content"][0]["text"],
        "This is a simple text response for testing."
    );
    let r = call(&mut s, "test_image_content", json!({}));
    assert_eq!(
        (
            r["content"][0]["type"].as_str(),
            r["content"][0]["mimeType"].as_str()
        ),
        (Some("image"), Some("image/png"))
    );
    let r = call(&mut s, "test_audio_content", json!({}));
    assert_eq!(r["content"][0]["mimeType"], "audio/wav");
    let r = call(&mut s, "test_embedded_resource", json!({}));
    assert_eq!(
        r["content"][0]["resource"]["uri"],
        "test://embedded-resource"
    );
    let r = call(&mut s, "test_multiple_content_types", json!({}));
    assert_eq!(kinds(&r), ["text", "image", "resource"]);
    let r = call(&mut s, "test_error_handling", json!({}));
    assert_eq!(r["isError"], true, "{r}");
    let r = call(
        &mut s,
        "json_schema_2020_12_tool",
        json!({"name":"Ada","email":"a@b"}),
    );
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains(r#""name":"Ada""#),
        "{r}"
    );
}

#[test]
fn resources_read_by_uri_and_template() {
    let mut s = session(json!({}));
    let read =
        |s: &mut _, uri: &str| answer(&request(s, 0, "resources/read", json!({"uri":uri}))).clone();
    let a = read(&mut s, "test://static-text");
    assert_eq!(
        a["result"]["contents"][0]["text"],
        "This is the content of the static text resource."
    );
    let a = read(&mut s, "test://static-binary");
    assert!(
        a["result"]["contents"][0]["blob"]
            .as_str()
            .unwrap()
            .starts_with("iVBOR")
    );
    let a = read(&mut s, "test://template/123/data");
    let text = a["result"]["contents"][0]["text"].as_str().unwrap();
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        v,
        json!({"id":"123","templateTest":true,"data":"Data for ID: 123"})
    );
    let a = read(&mut s, "test://nothing-here");
    assert_eq!(a["error"]["code"], -32002, "{a}");
    let a = answer(&request(
        &mut s,
        0,
        "resources/subscribe",
        json!({"uri":"test://watched-resource"}),
    ))
    .clone();
    assert_eq!(a["result"], json!({}), "{a}");
}

#[test]
fn prompts_fill_in_their_arguments() {
    let mut s = session(json!({}));
    let get = |s: &mut _, name: &str, args: Value| {
        answer(&request(
            s,
            0,
            "prompts/get",
            json!({"name":name,"arguments":args}),
        ))["result"]
            .clone()
    };
    let r = get(
        &mut s,
        "test_prompt_with_arguments",
        json!({"arg1":"a","arg2":"b"}),
    );
    assert_eq!(
        r["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='a', arg2='b'"
    );
    let r = get(
        &mut s,
        "test_prompt_with_embedded_resource",
        json!({"resourceUri":"test://x"}),
    );
    assert_eq!(r["messages"][0]["content"]["resource"]["uri"], "test://x");
    let r = get(&mut s, "test_prompt_with_image", json!({}));
    assert_eq!(r["messages"][0]["content"]["type"], "image");
    let r = get(&mut s, "test_simple_prompt", json!({}));
    assert_eq!(
        r["messages"][0]["content"]["text"],
        "This is a simple prompt for testing."
    );
    let c = answer(&request(
        &mut s,
        0,
        "completion/complete",
        json!({"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"b"}}),
    ))["result"]["completion"]
        .clone();
    assert_eq!(c["values"], json!(["beta"]), "{c}");
}

#[test]
fn the_logging_fixture_logs_three_times_50_ms_apart_then_answers() {
    let mut s = session(json!({}));
    request(&mut s, 0, "logging/setLevel", json!({"level":"debug"}));
    let sent = request(
        &mut s,
        1_000,
        "tools/call",
        json!({"name":"test_tool_with_logging","arguments":{}}),
    );
    assert_eq!(sent.len(), 1, "the first message at once: {sent:?}");
    assert_eq!(sent[0]["params"]["data"], "Tool execution started");
    assert_eq!(s.poll_timeout(), Some(Timestamp(1_050)));
    s.handle_timeout(Timestamp(1_050));
    assert_eq!(drain(&mut s)[0]["params"]["data"], "Tool processing data");
    s.handle_timeout(Timestamp(1_100));
    s.handle_timeout(Timestamp(1_150));
    let rest = drain(&mut s);
    assert_eq!(rest[0]["params"]["data"], "Tool execution completed");
    assert_eq!(
        answer(&rest)["result"]["content"][0]["text"],
        "Tool with logging executed successfully"
    );
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn the_logging_fixture_stays_quiet_without_a_level() {
    let mut s = session(json!({}));
    request(
        &mut s,
        0,
        "tools/call",
        json!({"name":"test_tool_with_logging","arguments":{}}),
    );
    s.handle_timeout(Timestamp(1_000));
    let sent = drain(&mut s);
    assert_eq!(sent.len(), 1, "only the answer: {sent:?}");
}

#[test]
fn the_progress_fixture_reports_on_the_token_it_was_given() {
    let mut s = session(json!({}));
    let params =
        json!({"name":"test_tool_with_progress","arguments":{},"_meta":{"progressToken":"p-1"}});
    let mut sent = request(&mut s, 0, "tools/call", params);
    s.handle_timeout(Timestamp(500));
    sent.extend(drain(&mut s));
    let progress: Vec<f64> = sent
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .inspect(|m| assert_eq!(m["params"]["progressToken"], "p-1"))
        .map(|m| m["params"]["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(progress, [0.0, 50.0, 100.0]);
    assert_eq!(answer(&sent)["result"]["content"][0]["text"], "p-1");
}

#[test]
fn a_cancelled_slow_call_stops() {
    let mut s = session(json!({}));
    request(
        &mut s,
        0,
        "tools/call",
        json!({"name":"test_tool_with_progress","arguments":{},"_meta":{"progressToken":1}}),
    );
    s.handle_text(
        Timestamp(10),
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
    );
    assert_eq!(s.poll_timeout(), None);
    s.handle_timeout(Timestamp(1_000));
    assert!(drain(&mut s).is_empty());
}
