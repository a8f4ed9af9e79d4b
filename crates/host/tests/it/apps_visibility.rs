//! MCP Apps' visibility in the loop: a tool whose `_meta.ui.visibility` leaves the
//! model out is listed in step 1, withheld from the model in step 2 (the spec's
//! MUST NOT), and refused if the model asks for it anyway. Driven with the core's
//! events, as the page and the CLI feed them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{Event, OpId};
use mcpg_core::jsonrpc::Message;
use mcpg_core::model::Tool;
use mcpg_host::mock::MockModel;
use mcpg_host::provider::Provider;
use mcpg_host::script::Script;
use mcpg_host::tool_loop::{Action, StepStatus, ToolLoop};
use serde_json::json;

use crate::support::opts;

fn listed() -> ToolLoop {
    let tools: Vec<Tool> = [
        json!({"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}, "_meta": {"ui": {"resourceUri": "ui://demo/weather-card"}}}),
        json!({"name": "refresh_card", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://demo/weather-card", "visibility": ["app"]}}}),
    ]
    .into_iter()
    .map(|v| Tool::from_value(v).unwrap())
    .collect();
    let mut run = ToolLoop::new("refresh the card", Provider::Anthropic, opts());
    assert_eq!(run.next(), Action::ListTools);
    let op = OpId(1);
    run.listing_started(op);
    let message = Message::response(
        mcpg_core::jsonrpc::RequestId::Number(1),
        json!({"tools": tools.iter().map(Tool::to_json).collect::<Vec<_>>()}),
    );
    run.on_event(&Event::ToolsPage {
        op,
        page: 1,
        tools: tools.clone(),
        next_cursor: None,
        message,
    });
    run.on_event(&Event::ToolsListed {
        op,
        pages: 1,
        tools: 2,
    });
    run
}

#[test]
fn an_app_only_tool_is_listed_but_never_offered_to_the_model() {
    let mut run = listed();
    assert_eq!(run.tools().len(), 2, "step 1 keeps what the server listed");
    assert_eq!(run.next(), Action::Reshape);
    run.reshape();
    let s2 = &run.steps()[1];
    assert!(
        s2.explanation
            .contains("Withheld from the model: 1 (refresh_card)"),
        "{}",
        s2.explanation
    );
    assert!(
        s2.explanation.contains("the 1 MCP tools"),
        "{}",
        s2.explanation
    );
    let offered = &s2.blocks[0].json;
    assert!(
        offered.contains("get_weather") && !offered.contains("refresh_card"),
        "{offered}"
    );
    assert!(!run.model_request().to_string().contains("refresh_card"));
    assert_eq!(run.withheld(), ["refresh_card"]);
}

#[test]
fn the_model_asking_for_it_anyway_is_refused() {
    let mut run = listed();
    run.reshape();
    let mut script = Script::from_values(
        &Script::parse(
            r#"[{"calls": [{"name": "refresh_card", "arguments": {}}], "why": "Scripted."}]"#,
        )
        .unwrap(),
    )
    .unwrap();
    assert!(run.script_turn(&mut script, &MockModel));
    let Action::RefuseCall(call) = run.next() else {
        panic!("{:?}", run.next())
    };
    assert_eq!(call.name, "refresh_card");
    run.refuse_call();
    let s4 = run.steps().iter().find(|s| s.number == 4).unwrap();
    assert_eq!(s4.status, StepStatus::Failed);
    assert!(
        s4.explanation.contains("for its MCP Apps view only"),
        "{}",
        s4.explanation
    );
}
