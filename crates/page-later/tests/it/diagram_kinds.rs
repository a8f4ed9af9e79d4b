//! The picture of the loop where it is most telling: parallel calls in a `par`
//! frame, a tool error (`isError`) and a JSON-RPC error drawn as different failures,
//! a call under way and a cancelled one, failed listings and model turns.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::diagram_support;
use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use diagram_support::{draw, run, run_naive};
use mcpg_host::provider::Provider;
use mcpg_host::{Step, StepStatus};
use mcpg_loop_data::Pitfall;
use mcpg_page::Command;
use mcpg_page_later::diagram::{ArrowKind, DiagramInput, Lane, diagram};
use support::Shell;

use ArrowKind::{Host as H, Mcp as M};
use Lane::{Host, Server};

#[test]
fn parallel_calls_sit_in_one_par_frame() {
    let s = run("weather in Paris and Austin");
    let d = draw(&s, "weather in Paris and Austin");
    let labels: Vec<String> = d.arrows.iter().map(|a| a.label.clone()).collect();
    assert!(labels.contains(&"picks 2 tools".to_owned()), "{labels:?}");
    assert!(
        labels.contains(&"feed back 2 results".to_owned()),
        "{labels:?}"
    );
    let calls: Vec<&mcpg_page_later::diagram::Arrow> = d
        .arrows
        .iter()
        .filter(|a| a.label.starts_with("tools/call"))
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(d.frames.len(), 1);
    let f = &d.frames[0];
    assert_eq!((f.calls, f.label.as_str()), (2, "par · 2 calls"));
    // The frame holds both calls and both results, and nothing else.
    let inside: Vec<&str> = d
        .arrows
        .iter()
        .filter(|a| a.y > f.y && a.y < f.y + f.height)
        .map(|a| a.label.as_str())
        .collect();
    assert_eq!(
        inside,
        [
            "tools/call get_weather",
            "result",
            "tools/call get_weather",
            "result"
        ]
    );
    assert!(f.x < d.lane_x(Host) && f.x + f.width > d.lane_x(Server));
}

#[test]
fn a_parallel_turn_in_step_mode_opens_its_frame_before_the_second_call() {
    let mut s = Shell::demo();
    s.cmd(Command::SetPrompt("weather in Paris and Austin".into()));
    for _ in 0..4 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5]);
    assert_eq!(s.next_step, Some(4), "the second call is still to come");
    let d = draw(&s, "q");
    assert_eq!(d.frames.len(), 1);
    assert_eq!((d.frames[0].calls, d.frames[0].label.as_str()), (2, "par"));
    assert!(d.arrows.iter().any(|a| a.label == "picks tools"));
}

#[test]
fn is_error_and_json_rpc_errors_are_drawn_as_different_failures() {
    let tool = run("What's the weather in Atlantis?");
    let d = draw(&tool, "");
    let result = d.arrows.iter().find(|a| a.number == Some(5)).unwrap();
    assert_eq!(result.kind, ArrowKind::ToolError);
    assert_eq!(result.label, "result isError: true");
    assert!(result.kind.is_error());
    assert_eq!((result.from, result.to), (Server, Host));

    // A tool the server never listed, sent by a naive host: the server refuses it.
    let rpc = run_naive("call no_such_tool", Pitfall::AcceptInventedTool);
    let d = draw(&rpc, "");
    let result = d.arrows.iter().find(|a| a.number == Some(5)).unwrap();
    assert_eq!(result.kind, ArrowKind::ProtocolError);
    assert_eq!(result.label, "JSON-RPC error -32602");
    assert!(result.description.contains("a JSON-RPC error"));
    assert_ne!(
        ArrowKind::ToolError.as_str(),
        ArrowKind::ProtocolError.as_str()
    );
}

#[test]
fn a_refused_call_never_reaches_the_server() {
    let refused = run("call no_such_tool");
    let d = draw(&refused, "");
    let s4 = d.arrows.iter().find(|a| a.number == Some(4)).unwrap();
    assert_eq!((s4.from, s4.to), (Host, Host));
    assert_eq!(s4.label, "tools/call refused");
    assert!(
        !d.arrows.iter().any(|a| a.number == Some(5)),
        "no result arrow"
    );
}

#[test]
fn a_cancelled_call_is_drawn_as_no_response_and_a_running_one_as_waiting() {
    let mut s = Shell::demo();
    s.cmd(Command::SetPrompt("Count slowly to 20".into()));
    for _ in 0..4 {
        s.cmd(Command::Step);
    }
    let d = draw(&s, "");
    let waiting = d.arrows.last().unwrap();
    assert_eq!(
        (waiting.label.as_str(), waiting.running),
        ("result (waiting)", true)
    );
    assert!(d.status.ends_with("(under way)."), "{}", d.status);
    s.cmd(Command::Cancel);
    s.advance(1_000);
    let d = draw(&s, "");
    let result = d.arrows.iter().find(|a| a.number == Some(5)).unwrap();
    assert_eq!(result.kind, ArrowKind::Failed, "{result:?}");
    assert!(!result.running);
}

#[test]
fn a_failed_model_turn_and_a_failed_listing_are_red() {
    let mut steps = vec![
        Step::new(1, StepStatus::Failed, "no"),
        Step::new(2, StepStatus::Done, ""),
        Step::new(3, StepStatus::Failed, "HTTP 401"),
    ];
    steps[0].blocks.push(mcpg_host::tool_loop::JsonBlock::wire(
        mcpg_host::tool_loop::BlockKind::Sent,
        "→ tools/list",
        "{}",
    ));
    let d = diagram(&DiagramInput {
        steps: &steps,
        prompt: None,
        answered: false,
        provider: Provider::OpenAiResponses,
        next_step: Some(3),
        current: Some(2),
        views: &[],
        follow_ups: &[],
    });
    let kinds: Vec<_> = d
        .arrows
        .iter()
        .map(|a| (a.kind, a.label.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (M, "tools/list"),
            (ArrowKind::Failed, "list failed"),
            (H, "reshape → OpenAI Responses"),
            (H, "tools + message"),
            (ArrowKind::Failed, "model error"),
        ]
    );
}

/// The picture reads each block's kind, never its words: a question and an answer
/// whose labels say nothing of asking still draw as the server asking and the host
/// answering, and a block received with a "→" in its label still counts as received.
#[test]
fn the_picture_reads_block_kinds_not_labels() {
    use mcpg_host::tool_loop::{BlockKind, JsonBlock};
    let call =
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#;
    let mut steps = vec![
        Step::new(1, StepStatus::Done, ""),
        Step::new(2, StepStatus::Done, ""),
        Step::new(3, StepStatus::Done, ""),
        Step::new(4, StepStatus::Done, ""),
        Step::new(5, StepStatus::Failed, ""),
    ];
    steps[0]
        .blocks
        .push(JsonBlock::wire(BlockKind::Sent, "one", "{}"));
    steps[0]
        .blocks
        .push(JsonBlock::wire(BlockKind::Received, "→ two", "{}"));
    steps[0]
        .blocks
        .push(JsonBlock::wire(BlockKind::Received, "three", "{}"));
    steps[3]
        .blocks
        .push(JsonBlock::wire(BlockKind::Sent, "the call", call));
    steps[3].blocks.push(JsonBlock::wire(
        BlockKind::Asked("elicitation/create".to_owned()),
        "a question",
        "{}",
    ));
    steps[3]
        .blocks
        .push(JsonBlock::wire(BlockKind::Answer, "its answer", "{}"));
    steps[4].blocks.push(JsonBlock::wire(
        BlockKind::Received,
        "the reply",
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no"}}"#,
    ));
    let d = diagram(&DiagramInput {
        steps: &steps,
        prompt: None,
        answered: false,
        provider: Provider::Anthropic,
        next_step: None,
        views: &[],
        follow_ups: &[],
        current: None,
    });
    let labels: Vec<&str> = d.arrows.iter().map(|a| a.label.as_str()).collect();
    assert!(labels.contains(&"asks: elicitation"), "{labels:?}");
    assert!(labels.contains(&"answer"), "{labels:?}");
    assert!(labels.iter().any(|l| l.contains("2 pages")), "{labels:?}");
    assert!(
        d.arrows
            .iter()
            .any(|a| a.kind == ArrowKind::ProtocolError && a.label == "JSON-RPC error -32602"),
        "{labels:?}"
    );
}

/// A call that ran as a 2025-11-25 task is drawn as a `task` span: the handle, one
/// "polled" arrow however many polls, the `tasks/result` request, then the result;
/// a cancelled task shows `tasks/cancel`. Read from the wire JSON, not the labels.
#[test]
fn a_task_is_drawn_as_a_span_from_its_handle_to_its_result() {
    use mcpg_host::tool_loop::{BlockKind, JsonBlock};
    let step5 = |cancel: bool| {
        let mut s = Step::new(5, StepStatus::Done, "");
        let wire = [
            (
                BlockKind::Received,
                r#"{"jsonrpc":"2.0","id":2,"result":{"task":{"taskId":"t1","status":"working"}}}"#,
            ),
            (
                BlockKind::Sent,
                r#"{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t1"}}"#,
            ),
            (
                BlockKind::Received,
                r#"{"jsonrpc":"2.0","id":3,"result":{"taskId":"t1","status":"working"}}"#,
            ),
        ];
        for (kind, raw) in wire {
            s.blocks.push(JsonBlock::wire(kind, "x", raw));
        }
        let end = if cancel {
            "tasks/cancel"
        } else {
            "tasks/result"
        };
        let raw =
            format!(r#"{{"jsonrpc":"2.0","id":4,"method":"{end}","params":{{"taskId":"t1"}}}}"#);
        s.blocks.push(JsonBlock::wire(BlockKind::Sent, "x", &raw));
        s
    };
    for cancel in [false, true] {
        let steps = vec![
            Step::new(1, StepStatus::Done, ""),
            Step::new(2, StepStatus::Done, ""),
            Step::new(3, StepStatus::Done, ""),
            Step::new(4, StepStatus::Done, ""),
            step5(cancel),
        ];
        let d = diagram(&DiagramInput {
            steps: &steps,
            prompt: None,
            answered: false,
            provider: Provider::Anthropic,
            next_step: None,
            views: &[],
            follow_ups: &[],
            current: None,
        });
        let labels: Vec<&str> = d.arrows.iter().map(|a| a.label.as_str()).collect();
        let end = if cancel {
            "tasks/cancel"
        } else {
            "tasks/result"
        };
        let at = labels
            .iter()
            .position(|l| *l == "task handle")
            .expect("the handle");
        assert_eq!(
            labels[at..at + 4],
            ["task handle", "tasks/get, polled", end, "result"],
            "{labels:?}"
        );
        assert_eq!(d.frames.len(), 1, "one span");
        assert_eq!(d.frames[0].kind, mcpg_page_later::diagram::FrameKind::Task);
        assert_eq!(d.frames[0].label, "task");
        let top = d.arrows[at].y;
        let frame = &d.frames[0];
        assert!(frame.y < top && frame.y + frame.height > d.arrows[at + 3].y);
    }
    // Without a handle, no span.
    let plain = vec![
        Step::new(4, StepStatus::Done, ""),
        Step::new(5, StepStatus::Done, ""),
    ];
    let d = diagram(&DiagramInput {
        steps: &plain,
        prompt: None,
        answered: false,
        provider: Provider::Anthropic,
        next_step: None,
        views: &[],
        follow_ups: &[],
        current: None,
    });
    assert!(d.frames.is_empty());
}

/// A server that writes the task handle's keys with `\u` escapes ("t\u0061sk") means
/// the same JSON: the picture still draws the span (the block is the wire text
/// re-indented, so the key reads plainly).
#[test]
fn a_task_handle_written_with_escapes_is_still_a_task() {
    use mcpg_host::tool_loop::{BlockKind, JsonBlock};
    let mut s = Step::new(5, StepStatus::Done, "");
    s.blocks.push(JsonBlock::wire(
        BlockKind::Received,
        "x",
        r#"{"jsonrpc":"2.0","id":2,"result":{"t\u0061sk":{"t\u0061skId":"t1","status":"working"}}}"#,
    ));
    s.blocks.push(JsonBlock::wire(
        BlockKind::Sent,
        "x",
        r#"{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"t1"}}"#,
    ));
    let steps = vec![
        Step::new(1, StepStatus::Done, ""),
        Step::new(2, StepStatus::Done, ""),
        Step::new(3, StepStatus::Done, ""),
        Step::new(4, StepStatus::Done, ""),
        s,
    ];
    let d = diagram(&DiagramInput {
        steps: &steps,
        prompt: None,
        answered: false,
        provider: Provider::Anthropic,
        next_step: None,
        views: &[],
        follow_ups: &[],
        current: None,
    });
    let labels: Vec<&str> = d.arrows.iter().map(|a| a.label.as_str()).collect();
    assert!(labels.contains(&"task handle"), "{labels:?}");
    assert_eq!(d.frames.len(), 1, "one span: {labels:?}");
}
