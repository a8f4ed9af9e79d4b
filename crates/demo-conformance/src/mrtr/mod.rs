//! The 2026-07-28 `input_required` fixtures (the suite's `input-required-result-*`
//! scenarios: `resultType: "input_required"`, `inputRequests`, `requestState`).
//! Kept in a file of their own: they come with the core server's side of MRTR
//! (`Server::require_input`), built apart from the other fixtures.
//!
//! Each fixture is stateless, as the generation is: a round is a pure function
//! of the request (its arguments, the capabilities its `_meta` declares, the
//! answers it carries and the `requestState` the core opened for it). A round
//! whose answers are missing asks again (the SEP's advice: re-request, not an
//! error); an answer of the wrong shape is `-32602`. The core has already
//! refused a state that does not open and an answer that is not an object.

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RequestId, RpcError, code};
use mcpg_core::model::{CallToolResult, JsonObject, Tool};
use mcpg_core::server::{CallContext, InputRequest, Server, ServerEvent};
use serde_json::{Value, json};

use parts::{capital, confirm, field, form, listed, name_form, roots, sampled};

mod parts;

/// The fixture tools: name and description, as the suite's reference server has them.
const TOOLS: [(&str, &str); 8] = [
    (
        ELICITATION,
        "MRTR: returns InputRequiredResult with elicitation request",
    ),
    (
        SAMPLING,
        "MRTR: returns InputRequiredResult with sampling request",
    ),
    (
        ROOTS,
        "MRTR: returns InputRequiredResult with roots/list request",
    ),
    (STATE, "MRTR: returns InputRequiredResult with requestState"),
    (
        MULTIPLE,
        "MRTR: returns InputRequiredResult with multiple input requests",
    ),
    (
        MULTI_ROUND,
        "MRTR: multi-round InputRequiredResult workflow",
    ),
    (TAMPERED, "MRTR: HMAC-signed requestState integrity test"),
    (
        CAPABILITIES,
        "MRTR: respects client capabilities in inputRequests",
    ),
];

const ELICITATION: &str = "test_input_required_result_elicitation";
const SAMPLING: &str = "test_input_required_result_sampling";
const ROOTS: &str = "test_input_required_result_list_roots";
const STATE: &str = "test_input_required_result_request_state";
const MULTIPLE: &str = "test_input_required_result_multiple_inputs";
const MULTI_ROUND: &str = "test_input_required_result_multi_round";
const TAMPERED: &str = "test_input_required_result_tampered_state";
const CAPABILITIES: &str = "test_input_required_result_capabilities";
/// The prompt that asks (`prompts/get` answers `input_required` too).
const PROMPT: &str = "test_input_required_result_prompt";

/// The input-required fixture tools, listed after the others.
pub(crate) fn tools() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|(name, description)| Tool {
            name: (*name).to_owned(),
            description: Some((*description).to_owned()),
            input_schema: json!({"type": "object", "properties": {}}),
            ..Default::default()
        })
        .collect()
}

/// The input-required fixture prompt, listed after the others.
pub(crate) fn prompts() -> Vec<Value> {
    vec![json!({
        "name": PROMPT,
        "description": "MRTR: prompt that requires elicitation input",
    })]
}

/// What a round ends in.
enum Round {
    /// Ask these, sealing this state (the application's text) into the result.
    Ask(Vec<(String, InputRequest)>, Option<String>),
    /// The final answer's text.
    Done(String),
    /// A JSON-RPC error.
    Fail(RpcError),
}

/// Answers `ev` if it is a call of one of [`tools`] or a get of the prompt;
/// whether it did.
pub(crate) fn serve(server: &mut Server, now: Timestamp, ev: &ServerEvent) -> bool {
    let (id, name, prompt) = match ev {
        ServerEvent::CallTool { id, name, .. } if TOOLS.iter().any(|(t, _)| t == name) => {
            (id, name.as_str(), false)
        }
        ServerEvent::GetPrompt { id, name, .. } if name == PROMPT => (id, name.as_str(), true),
        _ => return false,
    };
    // Open: the core just handed it over.
    if let Some(ctx) = server.call_context(id).cloned() {
        let round = fixture(name, &ctx);
        finish(server, now, id, prompt, round);
    }
    true
}

fn finish(server: &mut Server, now: Timestamp, id: &RequestId, prompt: bool, round: Round) {
    match round {
        Round::Ask(requests, state) => {
            if let Err(e) = server.require_input(now, id, requests, state.as_deref()) {
                // Under 2025-11-25 (no input_required there), or a capability missing.
                let why = format!("This fixture cannot ask: {e}");
                if prompt {
                    server.respond_error(now, id, RpcError::new(code::INVALID_PARAMS, why));
                } else {
                    server.respond(now, id, &CallToolResult::tool_error(why));
                }
            }
        }
        Round::Done(text) if prompt => {
            let message = json!({"role": "user", "content": {"type": "text", "text": text}});
            server.respond_prompt(now, id, None, vec![message]);
        }
        Round::Done(text) => server.respond(now, id, &CallToolResult::text(text)),
        Round::Fail(e) => server.respond_error(now, id, e),
    }
}

fn fixture(name: &str, ctx: &CallContext) -> Round {
    match name {
        ELICITATION => once(ctx, vec![name_form("user_name")], None, |a| {
            format!("Hello, {}!", field(a[0], "name"))
        }),
        SAMPLING => once(ctx, vec![capital()], None, |a| {
            format!("The model answered: {}", sampled(a[0]))
        }),
        ROOTS => once(ctx, vec![roots()], None, |a| listed(a[0])),
        STATE => once(ctx, vec![confirm()], Some("request-state"), |_| {
            "state-ok: the requestState came back intact".into()
        }),
        MULTIPLE => {
            let greeting = InputRequest::sampling(json!({
                "messages": [{"role": "user", "content": {"type": "text", "text": "Generate a greeting"}}],
                "maxTokens": 50,
            }));
            let asked = vec![
                name_form("user_name"),
                ("greeting".into(), greeting),
                roots(),
            ];
            once(ctx, asked, Some("multiple-inputs"), |a| {
                format!(
                    "{} (for {}); {}",
                    sampled(a[1]),
                    field(a[0], "name"),
                    listed(a[2])
                )
            })
        }
        MULTI_ROUND => multi_round(ctx),
        TAMPERED => once(ctx, vec![confirm()], Some("tamper-evident"), |_| {
            "The requestState verified.".into()
        }),
        CAPABILITIES => {
            let asked: Vec<_> = [name_form("user_name"), capital(), roots()]
                .into_iter()
                .filter(|(_, r)| ctx.can_ask(r))
                .collect();
            if asked.is_empty() {
                return Round::Done("The request declares nothing to ask with.".into());
            }
            once(ctx, asked, None, |a| {
                format!("{} answer(s) received.", a.len())
            })
        }
        _ => {
            let context = (
                "user_context".to_owned(),
                form("What context should the prompt use?", "context"),
            );
            once(ctx, vec![context], None, |a| {
                format!("Use this context: {}", field(a[0], "context"))
            })
        }
    }
}

/// A fixture of one round: ask `asked` (with `state`) until a retry carries every
/// answer (and `state`, opened), then `done` with the answers, in order.
fn once(
    ctx: &CallContext,
    asked: Vec<(String, InputRequest)>,
    state: Option<&str>,
    done: impl Fn(&[&JsonObject]) -> String,
) -> Round {
    if state.is_some() && ctx.request_state.as_deref() != state {
        return Round::Ask(asked, state.map(str::to_owned));
    }
    match answers(ctx, &asked) {
        Ok(Some(a)) => Round::Done(done(&a)),
        Ok(None) => Round::Ask(asked, state.map(str::to_owned)),
        Err(e) => Round::Fail(e),
    }
}

/// Every answer to `asked`, in order; `None` if one is missing.
fn answers<'c>(
    ctx: &'c CallContext,
    asked: &[(String, InputRequest)],
) -> Result<Option<Vec<&'c JsonObject>>, RpcError> {
    let mut out = Vec::with_capacity(asked.len());
    for (key, request) in asked {
        match ctx.input_response(key, request) {
            Ok(Some(a)) => out.push(a),
            Ok(None) => return Ok(None),
            Err(bad) => return Err(bad.to_rpc_error()),
        }
    }
    Ok(Some(out))
}

/// Name, then colour, across three rounds; the name rides in the sealed state.
fn multi_round(ctx: &CallContext) -> Round {
    const FIRST: &str = "multi-round:1";
    const SECOND: &str = "multi-round:2:";
    let step2 = || {
        let r = form("Step 2: What is your favorite color?", "color");
        vec![("step2".to_owned(), r)]
    };
    match ctx.request_state.as_deref() {
        Some(s) if s.starts_with(SECOND) => {
            let name = s.get(SECOND.len()..).unwrap_or_default().to_owned();
            once(ctx, step2(), Some(s), |a| {
                format!("{name}'s favorite color is {}.", field(a[0], "color"))
            })
        }
        _ => {
            let step1 = (
                "step1".to_owned(),
                form("Step 1: What is your name?", "name"),
            );
            match once(ctx, vec![step1], Some(FIRST), |a| field(a[0], "name")) {
                Round::Done(name) => Round::Ask(step2(), Some(format!("{SECOND}{name}"))),
                other => other,
            }
        }
    }
}
