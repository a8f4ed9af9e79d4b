//! The fixture server, message by message on a virtual clock: what each fixture
//! answers (both generations), the slow fixtures' notifications and pauses, the
//! questions to the client, and the profile on `HttpDemo`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod asking;
mod fixtures;
mod mrtr;
mod profile;
mod stateless;

use mcpg_core::Timestamp;
use mcpg_demo_conformance::ConformanceServer;
use serde_json::{Value, json};

/// A 2025-11-25 session, initialized, with client capabilities `caps`.
pub fn session(caps: Value) -> ConformanceServer {
    let mut s = ConformanceServer::new();
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":caps,
        "clientInfo":{"name":"t","version":"1"}}});
    s.handle_text(Timestamp(0), &init.to_string());
    s.handle_text(
        Timestamp(0),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    drain(&mut s);
    s
}

/// Every message the server has to send, as JSON.
pub fn drain(s: &mut ConformanceServer) -> Vec<Value> {
    std::iter::from_fn(|| s.poll_transmit())
        .map(|m| serde_json::from_str(m.raw()).unwrap())
        .collect()
}

/// Sends request `method` with `params` as id 1 at `at`; what came out.
pub fn request(s: &mut ConformanceServer, at: u64, method: &str, params: Value) -> Vec<Value> {
    let msg = json!({"jsonrpc":"2.0","id":1,"method":method,"params":params});
    s.handle_text(Timestamp(at), &msg.to_string());
    drain(s)
}

/// The answer (result or error) to request 1 among `sent`.
pub fn answer(sent: &[Value]) -> &Value {
    sent.iter()
        .find(|m| m["id"] == 1 && m.get("method").is_none())
        .unwrap_or_else(|| panic!("no answer to request 1 in {sent:?}"))
}

/// Calls tool `name` with `arguments` (id 1); the answer's `result`.
pub fn call(s: &mut ConformanceServer, name: &str, arguments: Value) -> Value {
    let sent = request(
        s,
        0,
        "tools/call",
        json!({"name":name,"arguments":arguments}),
    );
    answer(&sent)["result"].clone()
}
