//! What the fixture server lists: its configuration, tools, resources, templates
//! and prompts, named and shaped as the suite's scenarios ask for them (its
//! reference server, `examples/servers/typescript/everything-server.ts`).

use mcpg_core::model::{Implementation, Tool};
use mcpg_core::server::{PromptFeatures, ResourceFeatures, Server, ServerConfig};
use serde_json::{Value, json};

/// A 1x1 PNG, the image of every image fixture.
pub(crate) const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A WAV header with one silent sample, the audio fixture.
pub(crate) const WAV_BASE64: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// The listed resources' URIs.
pub(crate) const STATIC_TEXT: &str = "test://static-text";
/// The binary resource (the PNG).
pub(crate) const STATIC_BINARY: &str = "test://static-binary";
/// The resource the subscribe scenarios watch.
pub(crate) const WATCHED: &str = "test://watched-resource";
/// The one template.
pub(crate) const TEMPLATE: &str = "test://template/{id}/data";

/// The configuration: every capability the scenarios exercise.
fn config() -> ServerConfig {
    ServerConfig {
        info: Implementation::new(crate::NAME, env!("CARGO_PKG_VERSION")),
        resources: Some(ResourceFeatures {
            subscribe: true,
            list_changed: true,
        }),
        prompts: Some(PromptFeatures { list_changed: true }),
        completions: true,
        logging: true,
        tools_list_changed: true,
        ..Default::default()
    }
}

/// A tool from its name, description and input schema.
pub(crate) fn tool(name: &str, description: &str, input_schema: Value) -> Tool {
    Tool {
        name: name.to_owned(),
        description: Some(description.to_owned()),
        input_schema,
        ..Default::default()
    }
}

fn no_arguments() -> Value {
    json!({ "type": "object", "properties": {} })
}

/// An object schema with one required string argument.
fn one_string(name: &str, description: &str) -> Value {
    json!({
        "type": "object",
        "properties": { name: { "type": "string", "description": description } },
        "required": [name],
    })
}

/// The SEP-1613 tool's input schema: JSON Schema 2020-12 features a client must
/// pass through untouched (`$schema`, `$defs`, `$ref`, `allOf`/`anyOf`, `if`/`then`/`else`).
fn schema_2020_12() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": { "street": { "type": "string" }, "city": { "type": "string" } },
            },
        },
        "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/address" },
            "contactMethod": { "type": "string", "enum": ["phone", "email"] },
            "phone": { "type": "string" },
            "email": { "type": "string" },
        },
        "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
        "if": { "properties": { "contactMethod": { "const": "phone" } }, "required": ["contactMethod"] },
        "then": { "required": ["phone"] },
        "else": { "required": ["email"] },
        "additionalProperties": false,
    })
}

/// The fixture tools of the 2025-11-25 scenarios, in `tools/list` order.
pub(crate) fn tools() -> Vec<Tool> {
    vec![
        tool(
            "test_simple_text",
            "Tests simple text content response",
            no_arguments(),
        ),
        tool(
            "test_image_content",
            "Tests image content response",
            no_arguments(),
        ),
        tool(
            "test_audio_content",
            "Tests audio content response",
            no_arguments(),
        ),
        tool(
            "test_embedded_resource",
            "Tests embedded resource content response",
            no_arguments(),
        ),
        tool(
            "test_multiple_content_types",
            "Tests response with multiple content types (text, image, resource)",
            no_arguments(),
        ),
        tool(
            "test_tool_with_logging",
            "Tests tool that emits log messages during execution",
            no_arguments(),
        ),
        tool(
            "test_tool_with_progress",
            "Tests tool that reports progress notifications",
            no_arguments(),
        ),
        tool(
            "test_error_handling",
            "Tests error response handling",
            no_arguments(),
        ),
        tool(
            "test_sampling",
            "Tests server-initiated sampling (LLM completion request)",
            one_string("prompt", "The prompt to send to the LLM"),
        ),
        tool(
            "test_elicitation",
            "Tests server-initiated elicitation (user input request)",
            one_string("message", "The message to show the user"),
        ),
        tool(
            "test_elicitation_sep1034_defaults",
            "Tests elicitation with default values per SEP-1034",
            no_arguments(),
        ),
        tool(
            "test_elicitation_sep1330_enums",
            "Tests elicitation with enum schema improvements per SEP-1330",
            no_arguments(),
        ),
        tool(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
            schema_2020_12(),
        ),
    ]
}

/// `Resource` objects, in `resources/list` order.
fn resources() -> Vec<Value> {
    vec![
        json!({
            "uri": STATIC_TEXT, "name": "static-text", "title": "Static Text Resource",
            "description": "A static text resource for testing", "mimeType": "text/plain",
        }),
        json!({
            "uri": STATIC_BINARY, "name": "static-binary", "title": "Static Binary Resource",
            "description": "A static binary resource (image) for testing", "mimeType": "image/png",
        }),
        json!({
            "uri": WATCHED, "name": "watched-resource", "title": "Watched Resource",
            "description": "A resource to subscribe to", "mimeType": "text/plain",
        }),
    ]
}

/// `ResourceTemplate` objects.
fn templates() -> Vec<Value> {
    vec![json!({
        "uriTemplate": TEMPLATE, "name": "template", "title": "Resource Template",
        "description": "A resource template with parameter substitution",
        "mimeType": "application/json",
    })]
}

/// An argument of a prompt.
fn argument(name: &str, description: &str) -> Value {
    json!({ "name": name, "description": description, "required": true })
}

/// `Prompt` objects, in `prompts/list` order.
fn prompts() -> Vec<Value> {
    vec![
        json!({
            "name": "test_simple_prompt", "title": "Simple Test Prompt",
            "description": "A simple prompt without arguments",
        }),
        json!({
            "name": "test_prompt_with_arguments", "title": "Prompt With Arguments",
            "description": "A prompt with required arguments",
            "arguments": [
                argument("arg1", "First test argument"),
                argument("arg2", "Second test argument"),
            ],
        }),
        json!({
            "name": "test_prompt_with_embedded_resource", "title": "Prompt With Embedded Resource",
            "description": "A prompt that includes an embedded resource",
            "arguments": [argument("resourceUri", "URI of the resource to embed")],
        }),
        json!({
            "name": "test_prompt_with_image", "title": "Prompt With Image",
            "description": "A prompt that includes image content",
        }),
    ]
}

/// A fresh server offering `tools` and every resource and prompt.
pub(crate) fn server(tools: Vec<Tool>) -> Server {
    Server::new(config(), tools)
        .with_resources(resources(), templates())
        .with_prompts([prompts(), crate::mrtr::prompts()].concat())
}
