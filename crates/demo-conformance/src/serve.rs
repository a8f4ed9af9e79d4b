//! The fixtures' answers to the requests the core's server hands over: the
//! content fixtures at once, the slow ones as [`Step`]s, the ones that ask the
//! client through `asking`.

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RpcError, code};
use mcpg_core::model::{CallToolResult, ContentBlock, JsonObject};
use mcpg_core::server::{ServerEvent, blob_contents, resource_not_found, text_contents};
use serde_json::{Value, json};

use crate::ConformanceServer;
use crate::catalogue::{PNG_BASE64, STATIC_BINARY, STATIC_TEXT, WATCHED, WAV_BASE64};
use crate::steps::Step;

/// A content block from its JSON.
fn block(v: Value) -> ContentBlock {
    ContentBlock::from_value(v)
}

fn image() -> Value {
    json!({ "type": "image", "data": PNG_BASE64, "mimeType": "image/png" })
}

/// The values `completion/complete` offers for a prompt argument or template
/// variable, before filtering by what was typed.
const COMPLETIONS: &[&str] = &["alpha", "beta", "gamma"];

impl ConformanceServer {
    /// Answers one event of the core's server (the others need no answer).
    pub(crate) fn serve(&mut self, now: Timestamp, ev: ServerEvent) {
        match ev {
            ServerEvent::CallTool {
                id,
                name,
                arguments,
                progress_token,
                ..
            } => self.call(now, id, &name, &arguments, progress_token),
            ServerEvent::ReadResource {
                id, uri, variables, ..
            } => {
                let contents = read(&uri, &variables);
                match contents {
                    Some(c) => self.server.respond_read(now, &id, vec![c]),
                    None => self
                        .server
                        .respond_error(now, &id, resource_not_found(&uri)),
                }
            }
            ServerEvent::GetPrompt {
                id,
                name,
                arguments,
            } => {
                let messages = prompt(&name, &arguments);
                self.server.respond_prompt(now, &id, None, messages);
            }
            ServerEvent::Complete { id, value, .. } => {
                // Any prompt argument or template variable completes from the same
                // few words; the suite checks the answer's shape.
                let values = COMPLETIONS
                    .iter()
                    .filter(|c| c.starts_with(value.as_str()))
                    .map(|c| (*c).to_owned())
                    .collect();
                self.server.respond_completion(now, &id, values);
            }
            ServerEvent::Answered { id, outcome, .. } => self.answered(now, &id, outcome),
            ServerEvent::Cancelled { id, .. } => self.steps.cancel(&id),
            _ => {}
        }
    }

    fn call(
        &mut self,
        now: Timestamp,
        id: mcpg_core::jsonrpc::RequestId,
        name: &str,
        arguments: &JsonObject,
        progress_token: Option<Value>,
    ) {
        if crate::diagnostic::call(&mut self.server, now, &id, name, progress_token.as_ref()) {
            return;
        }
        let result = match name {
            "test_simple_text" => {
                CallToolResult::text("This is a simple text response for testing.")
            }
            "test_image_content" => content(vec![image()]),
            "test_audio_content" => content(vec![
                json!({ "type": "audio", "data": WAV_BASE64, "mimeType": "audio/wav" }),
            ]),
            "test_embedded_resource" => content(vec![json!({
                "type": "resource",
                "resource": text_contents(
                    "test://embedded-resource",
                    "text/plain",
                    "This is an embedded resource content.",
                ),
            })]),
            "test_multiple_content_types" => content(vec![
                json!({ "type": "text", "text": "Multiple content types test:" }),
                image(),
                json!({
                    "type": "resource",
                    "resource": text_contents(
                        "test://mixed-content-resource",
                        "application/json",
                        &json!({ "test": "data", "value": 123 }).to_string(),
                    ),
                }),
            ]),
            "test_error_handling" => {
                CallToolResult::tool_error("This tool intentionally returns an error for testing")
            }
            "json_schema_2020_12_tool" => CallToolResult::text(format!(
                "JSON Schema 2020-12 tool called with: {}",
                Value::Object(arguments.clone())
            )),
            "test_tool_with_logging" => return self.steps.start(now, id, Step::logging()),
            "test_tool_with_progress" => {
                // The reference server reports on token 0 when none was sent.
                let token = progress_token.unwrap_or(json!(0));
                return self.steps.start(now, id, Step::progress(token));
            }
            "test_sampling"
            | "test_elicitation"
            | "test_elicitation_sep1034_defaults"
            | "test_elicitation_sep1330_enums" => return self.ask(now, id, name, arguments),
            other => {
                let error = RpcError::new(code::INVALID_PARAMS, format!("Unknown tool: {other}"));
                return self.server.respond_error(now, &id, error);
            }
        };
        self.server.respond(now, &id, &result);
    }
}

/// A successful result with these content blocks.
fn content(blocks: Vec<Value>) -> CallToolResult {
    CallToolResult {
        content: blocks.into_iter().map(block).collect(),
        ..Default::default()
    }
}

/// The contents of `uri` (a listed resource, or the template's `variables`).
fn read(uri: &str, variables: &JsonObject) -> Option<Value> {
    match uri {
        STATIC_TEXT => Some(text_contents(
            uri,
            "text/plain",
            "This is the content of the static text resource.",
        )),
        STATIC_BINARY => Some(blob_contents(uri, "image/png", PNG_BASE64)),
        WATCHED => Some(text_contents(uri, "text/plain", "Watched resource content")),
        _ => {
            let id = variables.get("id")?;
            let data = json!({
                "id": id,
                "templateTest": true,
                "data": format!("Data for ID: {}", id.as_str().unwrap_or_default()),
            });
            Some(text_contents(uri, "application/json", &data.to_string()))
        }
    }
}

/// A `PromptMessage` from the user.
fn user(content: Value) -> Value {
    json!({ "role": "user", "content": content })
}

fn text(t: &str) -> Value {
    json!({ "type": "text", "text": t })
}

/// The messages of prompt `name` (known to exist, with its required arguments).
fn prompt(name: &str, args: &JsonObject) -> Vec<Value> {
    let arg = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default();
    match name {
        "test_prompt_with_arguments" => vec![user(text(&format!(
            "Prompt with arguments: arg1='{}', arg2='{}'",
            arg("arg1"),
            arg("arg2")
        )))],
        "test_prompt_with_embedded_resource" => vec![
            user(json!({
                "type": "resource",
                "resource": text_contents(
                    arg("resourceUri"),
                    "text/plain",
                    "Embedded resource content for testing.",
                ),
            })),
            user(text("Please process the embedded resource above.")),
        ],
        "test_prompt_with_image" => {
            vec![user(image()), user(text("Please analyze the image above."))]
        }
        _ => vec![user(text("This is a simple prompt for testing."))],
    }
}
