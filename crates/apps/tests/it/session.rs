use mcpg_apps::{
    AppEvent, AppSession, Csp, FLOOD_LIMIT, Failure, HostSetup, INIT_MS, Phase, Refusal, ServerAsk,
    TEARDOWN_MS,
};
use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RequestId, RpcError};
use mcpg_core::model::Tool;
use serde_json::{Value, json};

fn t(ms: u64) -> Timestamp {
    Timestamp::from_millis(ms)
}

fn tools() -> Vec<Tool> {
    [
        json!({"name": "get_weather", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://demo/weather"}}}),
        json!({"name": "refresh", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["app"]}}}),
        json!({"name": "delete_all", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["model"]}}}),
    ]
    .into_iter()
    .map(|v| Tool::from_value(v).unwrap())
    .collect()
}

fn session() -> AppSession {
    let tools = tools();
    AppSession::new(
        t(0),
        HostSetup {
            name: "MCP Playground".into(),
            version: "0.1.0".into(),
            theme: "light",
            locale: "en-US".into(),
            width: 600,
            max_height: 800,
        },
        tools[0].clone(),
        Some(RequestId::Number(7)),
        &Csp::default(),
        &tools,
    )
}

fn to_view(s: &mut AppSession) -> Vec<Value> {
    std::iter::from_fn(|| s.poll_to_view())
        .map(|r| serde_json::from_str(&r).unwrap())
        .collect()
}

fn events(s: &mut AppSession) -> Vec<AppEvent> {
    std::iter::from_fn(|| s.poll_event())
        .filter(|e| !matches!(e, AppEvent::Wire { .. }))
        .collect()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"v","version":"1"},"appCapabilities":{"availableDisplayModes":["inline","fullscreen"]}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized"}"#;

fn ready(s: &mut AppSession) {
    s.handle_view(t(1), INIT);
    s.handle_view(t(2), INITIALIZED);
    to_view(s);
    events(s);
}

#[test]
fn nothing_reaches_the_view_before_initialized_then_input_comes_before_result() {
    let mut s = session();
    s.tool_input(&json!({"city": "Paris"}));
    s.tool_result(&json!({"content": [{"type": "text", "text": "Paris: 18C"}]}));
    assert!(to_view(&mut s).is_empty(), "held before the handshake");
    s.handle_view(t(1), INIT);
    let answer = to_view(&mut s);
    assert_eq!(
        answer.len(),
        1,
        "only the answer to ui/initialize: {answer:?}"
    );
    let ctx = &answer[0]["result"]["hostContext"];
    assert_eq!(ctx["toolInfo"]["id"], 7);
    assert_eq!(ctx["toolInfo"]["tool"]["name"], "get_weather");
    assert_eq!(ctx["displayMode"], "inline");
    assert_eq!(answer[0]["result"]["protocolVersion"], "2026-01-26");
    assert_eq!(s.phase(), Phase::Initializing);
    s.handle_view(t(2), INITIALIZED);
    let sent: Vec<_> = to_view(&mut s)
        .into_iter()
        .map(|m| m["method"].clone())
        .collect();
    assert_eq!(
        sent,
        [
            json!("ui/notifications/tool-input"),
            json!("ui/notifications/tool-result")
        ]
    );
    assert_eq!(events(&mut s), [AppEvent::Ready]);
}

#[test]
fn a_view_calls_back_only_tools_visible_to_apps() {
    let mut s = session();
    ready(&mut s);
    s.handle_view(t(3), r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"refresh","arguments":{}}}"#);
    let ev = events(&mut s);
    let [AppEvent::ToServer { ticket, ask }] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(
        *ask,
        ServerAsk::CallTool {
            name: "refresh".into(),
            arguments: json!({})
        }
    );
    s.server_answered(*ticket, Ok(json!({"content": []})));
    assert_eq!(to_view(&mut s)[0]["id"], 2);

    s.handle_view(
        t(4),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"delete_all"}}"#,
    );
    assert_eq!(
        events(&mut s),
        [AppEvent::Refused(Refusal::NotForApps("delete_all".into()))]
    );
    let refused = to_view(&mut s);
    assert_eq!(refused[0]["id"], 3);
    assert!(
        refused[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("visibility")
    );

    s.handle_view(
        t(5),
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope"}}"#,
    );
    assert_eq!(
        events(&mut s),
        [AppEvent::Refused(Refusal::UnknownTool("nope".into()))]
    );
    assert_eq!(to_view(&mut s)[0]["error"]["code"], -32602);

    // A server error goes back as it came.
    s.handle_view(t(6), r#"{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"ui://demo/weather"}}"#);
    let ev = events(&mut s);
    let [AppEvent::ToServer { ticket, .. }] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    s.server_answered(*ticket, Err(RpcError::new(-32002, "gone")));
    assert_eq!(to_view(&mut s)[0]["error"]["code"], -32002);
}

#[test]
fn requests_before_the_handshake_are_refused() {
    let mut s = session();
    s.handle_view(
        t(1),
        r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"refresh"}}"#,
    );
    assert_eq!(
        events(&mut s),
        [AppEvent::Refused(Refusal::BeforeInitialized(
            "tools/call".into()
        ))]
    );
    assert_eq!(to_view(&mut s)[0]["id"], 9);
    s.handle_view(t(2), INITIALIZED);
    assert_eq!(
        s.phase(),
        Phase::Loading,
        "initialized before ui/initialize counts for nothing"
    );
}

#[test]
fn links_are_checked_then_opened_only_by_the_learner() {
    let mut s = session();
    ready(&mut s);
    s.handle_view(t(3), r#"{"jsonrpc":"2.0","id":2,"method":"ui/open-link","params":{"url":"javascript:alert(1)"}}"#);
    let ev = events(&mut s);
    assert!(
        matches!(ev.as_slice(), [AppEvent::Refused(Refusal::BadLink(_))]),
        "{ev:?}"
    );
    assert_eq!(to_view(&mut s)[0]["error"]["code"], -32000);
    s.handle_view(t(4), r#"{"jsonrpc":"2.0","id":3,"method":"ui/open-link","params":{"url":"https://example.com/docs"}}"#);
    let ev = events(&mut s);
    let [AppEvent::OpenLink { ticket, url }] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(url, "https://example.com/docs");
    assert!(
        to_view(&mut s).is_empty(),
        "the answer waits for the learner"
    );
    s.link_decided(*ticket, false);
    assert_eq!(
        to_view(&mut s)[0]["error"]["message"],
        "Link opening denied by user"
    );
}

#[test]
fn messages_context_size_and_display_mode() {
    let mut s = session();
    ready(&mut s);
    s.handle_view(t(3), r#"{"jsonrpc":"2.0","id":2,"method":"ui/message","params":{"role":"user","content":{"type":"text","text":"more"}}}"#);
    s.handle_view(t(4), r#"{"jsonrpc":"2.0","id":3,"method":"ui/update-model-context","params":{"structuredContent":{"city":"Paris"}}}"#);
    s.handle_view(t(5), r#"{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":320,"height":99999}}"#);
    s.handle_view(t(6), r#"{"jsonrpc":"2.0","id":4,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}}"#);
    s.handle_view(
        t(7),
        r#"{"jsonrpc":"2.0","id":5,"method":"ui/request-display-mode","params":{"mode":"pip"}}"#,
    );
    let ev = events(&mut s);
    assert_eq!(
        ev,
        [
            AppEvent::Message {
                role: "user".into(),
                content: json!({"type": "text", "text": "more"})
            },
            AppEvent::ModelContext {
                content: None,
                structured: Some(json!({"city": "Paris"}))
            },
            AppEvent::Size {
                width: Some(320),
                height: Some(4000)
            },
            AppEvent::Display(mcpg_apps::DisplayMode::Fullscreen),
        ]
    );
    let out = to_view(&mut s);
    let modes: Vec<_> = out
        .iter()
        .filter_map(|m| m["result"]["mode"].as_str())
        .collect();
    assert_eq!(
        modes,
        ["fullscreen", "fullscreen"],
        "pip is not offered: the mode stays"
    );
    assert!(
        out.iter()
            .any(|m| m["method"] == "ui/notifications/host-context-changed")
    );
}

#[test]
fn teardown_asks_the_view_and_waits_a_little() {
    let mut s = session();
    ready(&mut s);
    s.teardown(t(10), "the loop was reset");
    let out = to_view(&mut s);
    assert_eq!(out[0]["method"], "ui/resource-teardown");
    assert_eq!(s.phase(), Phase::TearingDown);
    s.tool_result(&json!({"content": []}));
    assert!(to_view(&mut s).is_empty(), "nothing after teardown");
    let id = out[0]["id"].clone();
    s.handle_view(
        t(11),
        &json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string(),
    );
    assert_eq!(events(&mut s), [AppEvent::Gone]);

    let mut silent = session();
    ready(&mut silent);
    silent.teardown(t(10), "reset");
    silent.handle_timeout(t(10 + TEARDOWN_MS - 1));
    assert_eq!(silent.phase(), Phase::TearingDown);
    silent.handle_timeout(t(10 + TEARDOWN_MS));
    assert_eq!(events(&mut silent), [AppEvent::Gone]);
}

#[test]
fn a_view_that_never_initializes_fails_and_goes() {
    let mut s = session();
    assert_eq!(s.poll_timeout(), Some(t(INIT_MS)));
    s.handle_timeout(t(INIT_MS));
    assert_eq!(
        events(&mut s),
        [AppEvent::Failed(Failure::NeverInitialized), AppEvent::Gone]
    );
    s.handle_view(t(INIT_MS + 1), INIT);
    assert!(to_view(&mut s).is_empty(), "a gone view gets no answer");
}

#[test]
fn a_flood_is_cut_and_said_once() {
    let mut s = session();
    ready(&mut s);
    for i in 0..FLOOD_LIMIT * 3 {
        s.handle_view(
            t(100),
            &format!(r#"{{"jsonrpc":"2.0","id":{},"method":"ping"}}"#, i + 10),
        );
    }
    let answered = to_view(&mut s).len() as u32;
    assert_eq!(
        answered,
        FLOOD_LIMIT - 2,
        "the handshake's two messages counted in the window"
    );
    assert_eq!(events(&mut s), [AppEvent::Refused(Refusal::Flood)]);
    s.handle_view(t(2_000), r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    assert_eq!(to_view(&mut s).len(), 1, "a new window");
}

#[test]
fn junk_and_unknown_methods_are_refused_not_fatal() {
    let mut s = session();
    ready(&mut s);
    s.handle_view(t(3), "not json");
    s.handle_view(
        t(3),
        r#"{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{}}"#,
    );
    s.handle_view(
        t(3),
        r#"{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready"}"#,
    );
    let ev = events(&mut s);
    assert_eq!(
        ev,
        [
            AppEvent::Refused(Refusal::Malformed),
            AppEvent::Refused(Refusal::UnknownMethod("sampling/createMessage".into())),
            AppEvent::Refused(Refusal::UnknownMethod(
                "ui/notifications/sandbox-proxy-ready".into()
            )),
        ]
    );
    assert_eq!(to_view(&mut s)[0]["error"]["code"], -32601);
    assert_eq!(s.phase(), Phase::Ready);
}
