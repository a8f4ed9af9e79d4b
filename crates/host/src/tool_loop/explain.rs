//! The sentences the page shows under each step. Kept together so the teaching text
//! reads as one voice and is easy to review.

use mcpg_core::client::{CallOutcome, Failure, OpError};
use mcpg_core::jsonrpc::RpcError;
use mcpg_text::num::fmt_num;

/// One line on the difference, shown next to a tool failure.
pub const TOOL_ERROR_LINE: &str = "Tool failure (isError: true): the tool ran and reported a problem; it is a normal result, and the model should see it.";

/// One line on the difference, shown next to a protocol failure.
pub const PROTOCOL_ERROR_LINE: &str = "Protocol failure (JSON-RPC error): the request itself was refused, the tool never ran, and there is no CallToolResult.";

/// Step 1, done.
pub fn listed(pages: u32, tools: usize) -> String {
    if pages <= 1 {
        format!(
            "The server sent all its tools ({tools}) in one page, with no nextCursor. Hosts must still check for nextCursor: many servers page their tools."
        )
    } else {
        format!(
            "The host followed nextCursor through all {pages} pages and got {tools} tools. Stopping at the first page, a common bug, would hide every tool after it from the model."
        )
    }
}

/// Step 1, under way.
pub fn listing(pages: usize, tools: usize) -> String {
    if pages == 0 {
        "The host sent tools/list and waits for the first page.".to_owned()
    } else {
        format!(
            "{pages} page(s) so far, {tools} tools; the last page carried a nextCursor, so the host asks again."
        )
    }
}

/// Step 1, failed.
pub fn list_failed(pages: u32, error: &OpError) -> String {
    format!(
        "tools/list stopped after {pages} page(s): {error}. The tools already received are kept, but the list may be incomplete."
    )
}

/// Step 2.
pub fn reshaped(tools: usize, provider_label: &str, renamed: usize) -> String {
    let names = if renamed == 0 {
        String::new()
    } else {
        format!(
            " {renamed} tool name(s) had to be rewritten to fit the API's naming rules; the host maps them back."
        )
    };
    format!(
        "Inside the host, not over MCP: the {tools} MCP tools became the {provider_label} tool list (inputSchema becomes the API's parameter schema; titles, annotations and outputSchema stay with the host).{names} That is why one MCP server works with any model API: switch the format above to see the same tools in another API's shape."
    )
}

/// Step 2, when tools were held back: MCP Apps tools only a view may call.
pub fn withheld(names: &[&str]) -> String {
    format!(
        "Withheld from the model: {} ({}), whose MCP Apps visibility is [\"app\"]: only the server's own view may call them, and the host refuses the model's call.",
        names.len(),
        names.join(", ")
    )
}

/// Step 3 with a call. `refused`: tools the server never listed, which the
/// careful host will not call.
pub fn chose(why: &str, schema_problems: &[String], refused: &[&str]) -> String {
    let mut s = format!(
        "{why} The host gets back a structured call (a name and arguments); nothing has reached the server yet."
    );
    if !refused.is_empty() {
        s.push_str(&format!(
            " Note: the server never listed {}; the host checks the name against the tools it listed and will not send that call.",
            refused.join(", ")
        ));
    }
    if !schema_problems.is_empty() {
        s.push_str(&format!(
            " Note: these arguments do not fit the tool's inputSchema ({}); the host sends them anyway and the server decides.",
            schema_problems.join("; ")
        ));
    }
    s
}

/// Step 1, the naive way: one page read, `nextCursor` ignored.
pub fn first_page_only(tools: usize, next_cursor: Option<&str>) -> String {
    match next_cursor {
        Some(c) => format!(
            "This host read the first page only ({tools} tools) and ignored nextCursor {c:?}. The server has more tools on later pages, and the model will never see them: a common bug."
        ),
        None => format!(
            "The server sent all its tools ({tools}) in one page, with no nextCursor, so reading one page was enough this time."
        ),
    }
}

/// Step 4: the careful host refused a tool the server never listed.
pub fn refused(name: &str, listed: usize) -> String {
    format!(
        "Refused by the host: the model asked for {name:?}, which is not one of the {listed} tools the server listed, so the host sent no tools/call. Above is what it would have sent. The model will be told that the tool does not exist (step 6)."
    )
}

/// Step 4: the model asked for a tool only the server's view may call.
pub fn refused_app_only(name: &str) -> String {
    format!(
        "Refused by the host: the model asked for {name:?}, which the server listed for its MCP Apps view only (visibility [\"app\"]), so it was never offered to the model and the host sent no tools/call. Above is what it would have sent."
    )
}

/// Step 3 (or 6): the model API refused the naive host's tool names.
pub fn names_refused(provider_label: &str, status: u16, name: &str, fix: &str) -> String {
    format!(
        "The {provider_label} API answered HTTP {status} before any model read the request: the tool name {name:?} breaks its naming rules, and this host sent the MCP names unchanged. The loop ends here: with no model turn there is no tool call and no answer. A careful host rewrites such names in step 2 ({name} → {fix}) and maps them back when the model calls one."
    )
}

/// Step 3 without a call.
pub fn answered_without_tool(why: &str) -> String {
    format!("{why} The loop ends here: with no tool call, steps 4 to 6 do not happen.")
}

/// Step 4.
pub fn call_sent(name: &str) -> String {
    format!(
        "Over MCP again: the host sends tools/call with the model's name ({name}) and arguments, plus _meta.progressToken so the server may report progress. The server, not the model, validates and runs it."
    )
}

/// Step 5 while the call runs.
pub fn call_running(progress: Option<(f64, Option<f64>, Option<&str>)>) -> String {
    match progress {
        None => "Waiting for the server's answer.".to_owned(),
        Some((p, total, message)) => {
            let of = total
                .map(|t| format!(" of {}", fmt_num(t)))
                .unwrap_or_default();
            let msg = message.map(|m| format!(": {m}")).unwrap_or_default();
            format!(
                "Running: progress {}{of}{msg}. Each notifications/progress also restarts the host's timeout.",
                fmt_num(p)
            )
        }
    }
}

/// Step 5 while the call runs as a task (2025-11-25).
pub fn task_running(
    task_id: Option<&str>,
    (poll_ms, ext): (Option<u128>, bool),
    polls: u32,
    notices: u32,
    status: Option<(&str, Option<&str>)>,
) -> String {
    let Some(id) = task_id else {
        return "The host asked for this call as a task (params.task): the server should answer at once with a task handle.".to_owned();
    };
    let hint = if ext {
        "pollIntervalMs"
    } else {
        "pollInterval"
    };
    let every = match poll_ms {
        Some(ms) => format!(
            "every {} s, as the server asked ({hint})",
            fmt_num(ms as f64 / 1000.0)
        ),
        None => format!("every second (the server gave no {hint})"),
    };
    let now = match status {
        Some((s, Some(m))) => format!(" Now: {s} ({m})."),
        Some((s, None)) => format!(" Now: {s}."),
        None => String::new(),
    };
    let heard = if notices > 0 {
        format!(", and heard {notices} status notification(s)")
    } else {
        String::new()
    };
    if ext {
        return format!(
            "The server made this call a task ({id:?}) of the Tasks extension, which the host declared on the call (2026-07-28: the server decides, the host asks nothing): it answered at once and works on. The host polls tasks/get {every}: {polls} poll(s) so far. A question of the task's (input_required) goes to the server's questions, its answer back as tasks/update; the poll that finds the task completed or failed carries the tool's result or error (there is no tasks/result); Cancel sends tasks/cancel.{now}"
        );
    }
    format!(
        "The server made this call a task ({id:?}): it answered at once and works on. The host polls tasks/get {every}: {polls} poll(s) so far{heard}. When the status is completed, failed or cancelled, tasks/result brings the tool's result; Cancel sends tasks/cancel.{now}"
    )
}

/// Step 5, when the learner cancelled a call that had become a task (either
/// kind): the core sent `tasks/cancel`, not `notifications/cancelled`.
pub fn task_cancelled(f: &Failure) -> String {
    format!(
        "No answer: {f}. The call had become a task, so the host sent tasks/cancel (not notifications/cancelled): the server stops the task, and the model hears only that the call was cancelled."
    )
}

/// Step 4, when the server asks the host something while the call waits.
pub fn server_asked(what: &str) -> String {
    let how = match what {
        "sampling/createMessage" => "to have the model write something (sampling/createMessage)",
        "elicitation/create" => "for input from the user (elicitation/create)",
        "roots/list" => "which folders it may see (roots/list)",
        "task_input" => {
            "for input, in the task's inputRequests (the Tasks extension): the host answers with tasks/update, and the task goes on"
        }
        _ => {
            "for input, in an InputRequiredResult (2026-07-28): the host answers by sending tools/call again with inputResponses and the server's requestState"
        }
    };
    format!(
        "The direction has reversed: while the call waits, the server asks the host {how}. Nothing goes back until a person answers."
    )
}

/// Step 5, finished.
pub fn call_finished(outcome: &CallOutcome, structured_check: Option<&str>) -> String {
    let check = structured_check
        .map(|c| format!(" {c}"))
        .unwrap_or_default();
    match outcome {
        CallOutcome::Success(r) => {
            let kinds: Vec<&str> = r.content.iter().map(|b| b.kind()).collect();
            format!(
                "The tool ran and returned a CallToolResult with {} content block(s) ({}).{check}",
                r.content.len(),
                if kinds.is_empty() { "none".to_owned() } else { kinds.join(", ") }
            )
        }
        CallOutcome::ToolError(_) => format!(
            "isError: true. The tool ran and failed (a business-logic failure, such as an unknown city). This is still a normal result: the host hands it to the model, which can tell the user or try again.{check}"
        ),
        CallOutcome::ProtocolError(e) => protocol_error(e),
        CallOutcome::InputRequired(_) => "The server needs more input before it can finish (a 2026-07-28 InputRequiredResult), and the host did not retry the call with answers.".to_owned(),
        CallOutcome::Failed(f) => failed(f),
    }
}

fn protocol_error(e: &RpcError) -> String {
    format!(
        "A JSON-RPC error ({}: {}): the protocol layer refused the request, so the tool never ran. Unlike isError there is no CallToolResult; it usually means the call itself was wrong (unknown tool, invalid params).",
        e.code,
        mcpg_core::validate::truncate(&e.message, 160)
    )
}

fn failed(f: &Failure) -> String {
    match f {
        Failure::Cancelled(_) => format!(
            "No answer: {f}. The host sent notifications/cancelled; if the server answers late, the answer is ignored."
        ),
        Failure::Timeout(_) => {
            format!("No answer in time ({f}). The host gave up and sent notifications/cancelled.")
        }
        _ => format!("No usable answer: {f}."),
    }
}

/// Step 6.
pub fn fed_back(outcome: Option<&CallOutcome>, why: &str) -> String {
    let how = match outcome {
        Some(CallOutcome::Success(_)) => {
            "The host appended the result to the conversation as a tool_result and asked the model again."
        }
        Some(CallOutcome::ToolError(_)) => {
            "The host appended the result as a tool_result with is_error: true, so the model knows the tool failed."
        }
        Some(CallOutcome::ProtocolError(_)) => {
            "There was no CallToolResult to feed back. This host tells the model the call failed (as an error tool_result); other hosts stop and show the error to the user."
        }
        _ => "The call produced no result; the host tells the model it did not finish.",
    };
    format!("{how} {why}")
}

/// Said after every failed model turn: nothing is lost.
const KEPT: &str = "Nothing is lost: the conversation is kept, so you can fix the setting and press Step or Run to ask again, or switch to the mock model.";

/// Step 3 or 6: the model API answered with an HTTP error.
pub fn http_failed(provider_label: &str, status: u16, said: &str) -> String {
    let hint = match status {
        401 | 403 => {
            " The key was refused: check the API key (and that it belongs to this provider)."
        }
        400 if mcpg_text::case::to_lower(said).contains("key") => {
            " The key was refused: check the API key."
        }
        404 => " Check the base URL and the model name.",
        429 => " That is a rate limit or an exhausted quota: wait a little and ask again.",
        500..=599 => " The provider had a problem on its side; asking again later may work.",
        _ => "",
    };
    format!("The {provider_label} API answered HTTP {status}: {said}.{hint} {KEPT}")
}

/// Step 3 or 6: a reply the host cannot use (shape, unknown tool, arguments not JSON).
pub fn reply_unusable(error: &str) -> String {
    format!(
        "The host could not use the model's reply: {error}. A real host must check this before calling any tool; here no tools/call was sent. {KEPT}"
    )
}

/// Step 3 or 6: the request never got an HTTP answer.
pub fn unreachable(
    provider: crate::provider::Provider,
    url: &str,
    detail: &str,
    origin: &str,
) -> String {
    let ollama = if provider == crate::provider::Provider::Ollama || url.contains(":11434") {
        format!(
            " For Ollama, allow this page's origin when you start it: OLLAMA_ORIGINS={origin} ollama serve."
        )
    } else {
        String::new()
    };
    format!(
        "The browser got no answer from {url} ({detail}). In a browser a CORS refusal and a server that is down look exactly the same: either nothing is listening at that address, or the server does not allow calls from this page ({origin}).{ollama} {KEPT}"
    )
}

/// Step 3 or 6: what a real model's reply said and how the host read it.
pub fn real_reply(
    provider_label: &str,
    status: u16,
    turn: &crate::provider::ModelTurn,
    where_calls: &str,
) -> String {
    match turn {
        crate::provider::ModelTurn::ToolCalls { calls, .. } => {
            let list: Vec<String> = calls
                .iter()
                .map(|c| {
                    format!(
                        "{} {}",
                        c.name,
                        serde_json::Value::Object(c.arguments.clone())
                    )
                })
                .collect();
            format!(
                "The {provider_label} API replied (HTTP {status}). The host read {} tool call(s) out of {where_calls}: {}.",
                calls.len(),
                list.join(", ")
            )
        }
        crate::provider::ModelTurn::Answer { .. } => format!(
            "The {provider_label} API replied (HTTP {status}) with text and no tool call: that is the model's answer."
        ),
    }
}
