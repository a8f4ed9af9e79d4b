use mcpg_apps::{ToolUi, Visibility, for_model};
use mcpg_core::model::Tool;
use serde_json::json;

fn tool(v: serde_json::Value) -> Tool {
    Tool::from_value(v).unwrap()
}

#[test]
fn a_tool_links_its_view_and_defaults_to_both_callers() {
    let t = tool(
        json!({"name": "w", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://w/card"}}}),
    );
    let ui = ToolUi::of(&t);
    assert_eq!(ui.resource_uri.as_deref(), Some("ui://w/card"));
    assert_eq!(ui.visibility, Visibility::BOTH);
    assert!(ui.problems.is_empty());
}

#[test]
fn app_only_tools_are_withheld_from_the_model() {
    let tools = [
        tool(json!({"name": "seen", "inputSchema": {"type": "object"}})),
        tool(
            json!({"name": "app-only", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["app"]}}}),
        ),
        tool(
            json!({"name": "model-only", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["model"]}}}),
        ),
    ];
    let names: Vec<_> = for_model(&tools).map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["seen", "model-only"]);
}

#[test]
fn bad_metadata_is_named() {
    let t = tool(
        json!({"name": "x", "inputSchema": {"type": "object"}, "_meta": {"ui/resourceUri": "https://evil.example/", "ui": {"visibility": ["agent"]}}}),
    );
    let ui = ToolUi::of(&t);
    assert_eq!(ui.resource_uri, None, "only ui:// links a view");
    assert_eq!(ui.problems.len(), 4, "{:?}", ui.problems);
    assert!(!ui.visibility.model && !ui.visibility.app);
}
