//! `mcpg conformance-client URL`: the client side of the official conformance suite
//! (`@modelcontextprotocol/conformance`). The suite starts a scenario server, runs this
//! command with the server's URL and `MCP_CONFORMANCE_SCENARIO`, and grades what it
//! sees on the wire. Everything goes through the core, like any other mcpg command.

mod fill;

use mcpg_core::client::{CallOutcome, ClientConfig, GenerationMode};
use mcpg_core::jsonrpc::{RpcError, code};
use mcpg_core::model::{JsonObject, Tool};
use mcpg_transport::{Driver, DriverConfig, HttpConfig, RequestHandler};
use serde_json::{Value, json};

use crate::connect::verbose_observer;
use crate::exit::Failure;

/// Runs the scenario named by `MCP_CONFORMANCE_SCENARIO` against `url`.
pub async fn run(url: &str) -> Result<(), Failure> {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    // Some scenarios pass what to do (e.g. which tools to call) as JSON.
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    let mut client = ClientConfig::default();
    let mut handler: Option<RequestHandler> = None;
    if scenario.starts_with("elicitation") || scenario.contains("request-state") {
        client.capabilities.insert("elicitation".into(), json!({}));
        handler = Some(Box::new(fill::answer_elicitation));
    }
    if let Ok(v) = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION")
        && v.as_str() < "2026-07-28"
    {
        client.mode = GenerationMode::Initialize;
    }
    // The suite keeps stderr per scenario: the wire log there explains any failure.
    let cfg = DriverConfig {
        client,
        observer: Some(verbose_observer()),
        handler,
    };
    let d = Driver::http(HttpConfig::new(url), cfg)?;
    let outcome = scenario_body(&d, &scenario, &context).await;
    let _ = d.close().await;
    outcome
}

async fn scenario_body(d: &Driver, scenario: &str, context: &Value) -> Result<(), Failure> {
    d.connect().await?;
    let list = d.list_tools().await?;
    // The listed tools (minus any the core left out for invalid x-mcp-header
    // annotations); schemas are kept exactly as sent.
    let tools: Vec<Tool> = list.tools().cloned().collect();
    match scenario {
        "initialize" | "request-metadata" | "json-schema-ref-no-deref" => Ok(()),
        "json-schema-2020-12-preservation" => echo_schema(d, &tools).await,
        "http-standard-headers" => {
            call_all(d, &tools).await?;
            exercise_resources_and_prompts(d).await
        }
        _ => match context.get("toolCalls").and_then(Value::as_array) {
            Some(calls) => {
                for c in calls {
                    let name = c.get("name").and_then(Value::as_str).unwrap_or_default();
                    let arguments = c.get("arguments").and_then(Value::as_object).cloned();
                    call(d, name, arguments.unwrap_or_default()).await?;
                }
                Ok(())
            }
            None => call_all(d, &tools).await,
        },
    }
}

/// Calls every listed tool with arguments made up from its input schema.
async fn call_all(d: &Driver, tools: &[Tool]) -> Result<(), Failure> {
    for t in tools {
        let arguments = fill::from_schema(&t.input_schema);
        call(d, &t.name, arguments).await?;
    }
    Ok(())
}

/// How many input rounds one call may take before we stop answering.
const MAX_INPUT_ROUNDS: usize = 8;

/// One tool call; when the server answers `input_required` (2026-07-28 MRTR), the
/// input requests are answered and the core continues the call (a new request with
/// `inputResponses` and the untouched `requestState`), until a final outcome.
async fn call(d: &Driver, name: &str, arguments: JsonObject) -> Result<(), Failure> {
    let mut report = d.call_tool(name, Some(arguments), false).await?;
    for _ in 0..MAX_INPUT_ROUNDS {
        let CallOutcome::InputRequired(pending) = &report.outcome else {
            return Ok(());
        };
        let answers = fill::input_responses(pending);
        report = d.continue_call(report.op, answers).await?;
    }
    match report.outcome {
        CallOutcome::InputRequired(_) => Err(Failure::transport(format!(
            "{name} still needed input after {MAX_INPUT_ROUNDS} rounds"
        ))),
        _ => Ok(()),
    }
}

/// `json-schema-2020-12-preservation`: send the focal tool's `inputSchema` back,
/// verbatim, through the echo tool.
async fn echo_schema(d: &Driver, tools: &[Tool]) -> Result<(), Failure> {
    let focal = tools
        .iter()
        .find(|t| t.name != "json_schema_echo")
        .map(|t| t.input_schema.clone())
        .ok_or_else(|| {
            Failure::transport("the server listed no tool whose schema could be echoed")
        })?;
    let mut arguments = JsonObject::new();
    arguments.insert("schema".into(), focal);
    d.call_tool("json_schema_echo", Some(arguments), false)
        .await?;
    Ok(())
}

/// Lists and reads every resource and lists and gets every prompt (each request
/// carries its own standard headers).
async fn exercise_resources_and_prompts(d: &Driver) -> Result<(), Failure> {
    let resources = d.request("resources/list", None).await?;
    for r in resources
        .get("resources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(uri) = r.get("uri").and_then(Value::as_str) {
            d.request("resources/read", Some(json!({ "uri": uri })))
                .await?;
        }
    }
    let prompts = d.request("prompts/list", None).await?;
    for p in prompts
        .get("prompts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(name) = p.get("name").and_then(Value::as_str) {
            d.request("prompts/get", Some(json!({ "name": name })))
                .await?;
        }
    }
    Ok(())
}

/// The error for server requests no scenario asked for.
pub fn unsupported(method: &str) -> RpcError {
    RpcError::new(
        code::METHOD_NOT_FOUND,
        format!("mcpg conformance-client does not handle {method}"),
    )
}
