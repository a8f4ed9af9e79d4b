//! The fixtures' answers to the requests the core's server hands over.

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RpcError, code};
use mcpg_core::model::CallToolResult;
use mcpg_core::server::{Server, ServerEvent};

/// Answers one event of the core's server (the others need no answer).
pub(crate) fn serve(server: &mut Server, now: Timestamp, ev: ServerEvent) {
    if let ServerEvent::CallTool { id, name, .. } = ev {
        match name.as_str() {
            "test_simple_text" => server.respond(
                now,
                &id,
                &CallToolResult::text("This is a simple text response for testing."),
            ),
            other => server.respond_error(
                now,
                &id,
                RpcError::new(code::INVALID_PARAMS, format!("no fixture answers {other}")),
            ),
        }
    }
}
