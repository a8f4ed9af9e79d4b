//! What the fixture server lists: its configuration, tools, resources, templates
//! and prompts, named and shaped as the suite's scenarios ask for them.

use mcpg_core::model::{Implementation, Tool};
use mcpg_core::server::{PromptFeatures, ResourceFeatures, Server, ServerConfig};
use serde_json::{Value, json};

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
        ..Default::default()
    }
}

/// A tool from its name, description and input schema.
fn tool(name: &str, description: &str, input_schema: Value) -> Tool {
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

/// The fixture tools, in `tools/list` order.
pub(crate) fn tools() -> Vec<Tool> {
    let mut tools = vec![tool(
        "test_simple_text",
        "Tests simple text content response",
        no_arguments(),
    )];
    tools.extend(crate::mrtr::tools());
    tools
}

/// A fresh server with every fixture.
pub(crate) fn server() -> Server {
    Server::new(config(), tools())
}
