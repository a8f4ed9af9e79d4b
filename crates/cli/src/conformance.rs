//! `mcpg conformance-client URL`: the client side of the official conformance suite
//! (`@modelcontextprotocol/conformance`). The suite starts a scenario server, runs this
//! command with the server's URL and `MCP_CONFORMANCE_SCENARIO`, and grades what it
//! sees on the wire. Everything goes through the core, like any other mcpg command.

mod arguments;

use std::sync::Arc;

use mcpg_auth::{AuthConfig, ClientIdentity};
use mcpg_core::client::{CallOutcome, ClientConfig, GenerationMode};
use mcpg_core::model::{JsonObject, Tool};
use mcpg_transport::{AuthOptions, Driver, DriverConfig, FollowRedirect, HttpConfig};
use serde_json::{Value, json};

use crate::asks::flags::{Answering, OnElicit};
use crate::asks::{Answerer, call};

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
    // What the scenarios ask back is answered like `--on-elicit` with an empty
    // answers file: every form accepted with its defaults (SEP-1034).
    let answerer = answerer_for(&scenario);
    let handler = answerer.as_ref().map(Answerer::handler);
    if let Some(a) = &answerer {
        client.capabilities.extend(a.capabilities().clone());
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
    let mut http = HttpConfig::new(url);
    if scenario.starts_with("auth/") {
        http.auth = Some(auth_options(url, &context));
    }
    let d = Driver::http(http, cfg)?;
    let outcome = scenario_body(&d, &scenario, &context, answerer.as_deref()).await;
    let _ = d.close().await;
    outcome
}

/// The client ID metadata document URL the suite's CIMD scenarios expect (the
/// suite's AS never fetches it).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// OAuth as the auth scenarios need it: pre-registered credentials when the
/// scenario's context carries them, else CIMD/registration; the authorization
/// URL is followed without a browser ([`FollowRedirect`]).
fn auth_options(url: &str, context: &Value) -> AuthOptions {
    let text = |k: &str| context.get(k).and_then(Value::as_str).map(str::to_owned);
    let identity = match (text("client_id"), text("valid_jwt"), text("idp_id_token")) {
        // SEP-1933: a workload JWT (the scenario's valid one).
        (Some(client_id), Some(assertion), _) => ClientIdentity::WorkloadJwt {
            client_id,
            assertion,
        },
        // SEP-990: the IdP's ID token, exchanged for an ID-JAG.
        (Some(client_id), None, Some(id_token)) => ClientIdentity::Enterprise {
            client_id,
            client_secret: text("client_secret"),
            idp_token_endpoint: text("idp_token_endpoint").unwrap_or_default(),
            idp_client_id: text("idp_client_id").unwrap_or_default(),
            id_token,
        },
        // SEP-1046: client credentials with private_key_jwt.
        (Some(client_id), None, None) if text("private_key_pem").is_some() => {
            ClientIdentity::PrivateKeyJwt {
                client_id,
                private_key_pem: text("private_key_pem").unwrap_or_default(),
            }
        }
        (Some(client_id), None, None) => ClientIdentity::PreRegistered {
            client_id,
            client_secret: text("client_secret"),
        },
        (None, ..) => ClientIdentity::Auto {
            metadata_url: Some(CLIENT_METADATA_URL.into()),
            client_name: "mcpg conformance client".into(),
        },
    };
    let mut config = AuthConfig::new(url, "http://localhost:3000/callback", identity);
    if let Ok(v) = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION") {
        config.revision = v;
    }
    AuthOptions {
        config,
        tokens: None,
        authorizer: Arc::new(FollowRedirect),
        on_tokens: None,
    }
}

/// The answerer a scenario needs: only the elicitation ones (classic, and MRTR's
/// `request-state`) get a declared capability, as a real host would declare only
/// what it handles.
fn answerer_for(scenario: &str) -> Option<Arc<Answerer>> {
    let elicits = scenario.starts_with("elicitation") || scenario.contains("request-state");
    let flags = Answering {
        elicit: elicits.then(|| OnElicit::Answers(JsonObject::new())),
        ..Answering::default()
    };
    Answerer::new(&flags).map(Arc::new)
}

async fn scenario_body(
    d: &Driver,
    scenario: &str,
    context: &Value,
    answerer: Option<&Answerer>,
) -> Result<(), Failure> {
    d.connect().await?;
    let list = d.list_tools().await?;
    // The listed tools (minus any the core left out for invalid x-mcp-header
    // annotations); schemas are kept exactly as sent.
    let tools: Vec<Tool> = list.tools().cloned().collect();
    match scenario {
        "initialize" | "request-metadata" | "json-schema-ref-no-deref" => Ok(()),
        "json-schema-2020-12-preservation" => echo_schema(d, &tools).await,
        "http-standard-headers" => {
            call_all(d, &tools, answerer).await?;
            exercise_resources_and_prompts(d).await
        }
        _ => match context.get("toolCalls").and_then(Value::as_array) {
            Some(calls) => {
                for c in calls {
                    let name = c.get("name").and_then(Value::as_str).unwrap_or_default();
                    let arguments = c.get("arguments").and_then(Value::as_object).cloned();
                    call(d, name, arguments.unwrap_or_default(), answerer).await?;
                }
                Ok(())
            }
            None => call_all(d, &tools, answerer).await,
        },
    }
}

/// Calls every listed tool with arguments made up from its input schema.
async fn call_all(d: &Driver, tools: &[Tool], answerer: Option<&Answerer>) -> Result<(), Failure> {
    for t in tools {
        let arguments = arguments::from_schema(&t.input_schema);
        call(d, &t.name, arguments, answerer).await?;
    }
    Ok(())
}

/// One tool call, its `input_required` rounds (2026-07-28 MRTR) answered and
/// continued by the same code as `mcpg tools call`.
async fn call(
    d: &Driver,
    name: &str,
    arguments: JsonObject,
    answerer: Option<&Answerer>,
) -> Result<(), Failure> {
    let (report, rounds) = call::call_tool(d, name, Some(arguments), answerer).await?;
    match report.outcome {
        CallOutcome::InputRequired(_) => Err(call::still_needs_input(name, rounds)),
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
