//! The diagnostic tools the `server-stateless` scenario (2026-07-28, SEP-2575)
//! calls: a tool that needs the client's `sampling` capability (refused with
//! `-32021` when the request's `_meta` does not declare it), a tool whose
//! response stream carries only notifications and its answer, a tool that logs
//! only at the level the request asked for, and two hooks that change the tool
//! or prompt list so a `subscriptions/listen` stream has news to carry.

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RequestId, RpcError, code};
use mcpg_core::model::{CallToolResult, LoggingLevel, Tool};
use mcpg_core::server::{Server, declares};
use serde_json::{Value, json};

/// The diagnostic tools, in `tools/list` order.
pub(crate) fn tools() -> Vec<Tool> {
    [
        ("test_missing_capability", "Test tool requiring sampling"),
        (
            "test_streaming_elicitation",
            "Diagnostic tool validating response progress streams",
        ),
        ("test_logging_tool", "Diagnostic logging validator tool"),
        (
            "test_trigger_tool_change",
            "Changes the tool list (tells listen streams that asked)",
        ),
        (
            "test_trigger_prompt_change",
            "Changes the prompt list (tells listen streams that asked)",
        ),
    ]
    .into_iter()
    .map(|(name, description)| {
        crate::catalogue::tool(
            name,
            description,
            json!({ "type": "object", "properties": {} }),
        )
    })
    .collect()
}

/// Answers call `id` of diagnostic tool `name`; whether `name` is one.
pub(crate) fn call(
    server: &mut Server,
    now: Timestamp,
    id: &RequestId,
    name: &str,
    progress_token: Option<&Value>,
) -> bool {
    match name {
        "test_missing_capability" => {
            let declared = server
                .call_context(id)
                .is_some_and(|c| declares(&c.client_capabilities, "sampling"));
            if declared {
                server.respond(now, id, &CallToolResult::text("Success"));
            } else {
                let error = RpcError {
                    code: code::MISSING_CLIENT_CAPABILITY,
                    message: "MissingRequiredClientCapabilityError: this tool needs sampling"
                        .into(),
                    data: Some(json!({ "requiredCapabilities": { "sampling": {} } })),
                };
                server.respond_error(now, id, error);
            }
        }
        "test_streaming_elicitation" => {
            // Only what belongs to the call goes on its stream: progress when
            // asked for, then the answer (never a request of the server's own).
            if let Some(token) = progress_token {
                server.progress(now, token, 50.0, Some(100.0), None);
            }
            server.respond(now, id, &CallToolResult::text("Streaming complete"));
        }
        "test_logging_tool" => {
            // Sent only when the request (or, before 2026-07-28, the session) set a level.
            server.log(
                now,
                Some(id),
                LoggingLevel::Info,
                Some(crate::steps::LOGGER),
                Value::from("Diagnostic trace logging activated"),
            );
            server.respond(now, id, &CallToolResult::text("Logging evaluated"));
        }
        "test_trigger_tool_change" => {
            let tools = server.tools().to_vec();
            server.set_tools(now, tools);
            server.respond(now, id, &CallToolResult::text("Mutation triggered"));
        }
        "test_trigger_prompt_change" => {
            let prompts = server.prompts().to_vec();
            server.set_prompts(now, prompts);
            server.respond(now, id, &CallToolResult::text("Mutation triggered"));
        }
        _ => return false,
    }
    true
}
