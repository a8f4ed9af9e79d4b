//! Plain HTTP for the auth tests: form bodies, JSON GET/POST, and MCP POSTs with
//! a bearer token (the answer's status, challenge, session and JSON-RPC message).

use serde_json::{Value, json};

const ACCEPT: &str = "application/json, text/event-stream";

/// `application/x-www-form-urlencoded` pairs.
pub fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", super::form_value(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// GETs `url` and parses its JSON body.
pub async fn get_json(url: &str) -> Value {
    let text = reqwest::get(url).await.unwrap().text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: {e}: {text}"))
}

/// POSTs `body`; the status and the JSON answer (a string when it is not JSON).
pub async fn post(url: &str, content_type: &str, body: String, auth: Option<&str>) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", content_type)
        .body(body);
    if let Some(auth) = auth {
        request = request.header("authorization", auth);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// One MCP POST; the answer's status, `WWW-Authenticate`, session id and the
/// JSON-RPC message (from an SSE `data:` line or a plain JSON body).
pub struct Answer {
    pub status: u16,
    pub www_authenticate: Option<String>,
    pub session: Option<String>,
    pub message: Value,
}

/// One MCP POST with an optional bearer token and session.
pub async fn mcp(url: &str, token: Option<&str>, session: Option<&str>, message: Value) -> Answer {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT)
        .body(message.to_string());
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let response = request.send().await.unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let (www_authenticate, session) = (header("www-authenticate"), header("mcp-session-id"));
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let json = text
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or(&text);
    Answer {
        status,
        www_authenticate,
        session,
        message: serde_json::from_str(json).unwrap_or(Value::Null),
    }
}

/// A 2025-11-25 `initialize`.
pub fn initialize() -> Value {
    json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"auth-peers-test","version":"1"}}})
}

/// A `tools/call` of `tool` without arguments.
pub fn call(id: u64, tool: &str) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":tool,"arguments":{}}})
}

/// Opens a session with `token` and calls `tool` in it.
pub async fn call_tool(url: &str, token: &str, tool: &str) -> Answer {
    let init = mcp(url, Some(token), None, initialize()).await;
    assert_eq!(
        init.status, 200,
        "initialize with a token: {:?}",
        init.message
    );
    let session = init.session.as_deref();
    let note = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
    mcp(url, Some(token), session, note).await;
    mcp(url, Some(token), session, call(2, tool)).await
}
