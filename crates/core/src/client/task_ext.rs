//! The 2026-07-28 Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663), on
//! the 2025-11-25 task code (`tasks.rs`, `task_ends.rs`).
//!
//! With [`super::ClientConfig::tasks_extension`] on, every 2026-07-28 request
//! declares the extension in its per-request capabilities, and the server may
//! answer a `tools/call` with a task handle (`resultType: "task"`, a flat `Task`).
//! The client then polls `tasks/get` at the server's `pollIntervalMs` (bounded as
//! for 2025-11-25) until the task carries its final `result` (the call ends with
//! that `CallToolResult`) or `error` (a protocol error); there is no
//! `tasks/result`. [`super::Client::cancel`] sends `tasks/cancel`, whose empty
//! acknowledgement ends the call.
//!
//! An `input_required` task carries `inputRequests`. Each key is surfaced once (the
//! spec has clients deduplicate across polls) the way a 2026-07-28
//! `input_required` tool result is: a [`CallOutcome::InputRequired`] holding an
//! `InputRequiredResult` with the new requests, answered with
//! [`super::Client::continue_call`], which here sends `tasks/update` with the
//! `inputResponses` (no `requestState`; only keys the task asked for and not
//! answered yet, as the spec requires). Polling goes on meanwhile, and the call
//! ends later in another [`Event::CallFinished`].
//!
//! Reached only through the answer readers' [`super::readers::TaskCode`], so the
//! page's first load carries none of it (bar the declaration, in `stamp.rs`).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::task_types::{TASKS_EXTENSION, TaskInfo, TaskShape, TaskStatus, TaskStep};
use super::{CallOutcome, Client, Event, Failure, OpError, OpId, Pending};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Message, RequestId, RpcError};
use crate::model::{JsonObject, meta};
use crate::time::Timestamp;

/// What the client keeps about an extension task beyond a 2025-11-25 one.
#[derive(Clone, Debug, Default)]
pub(super) struct ExtTask {
    /// The `inputRequests` surfaced to the host, by key, as first seen.
    surfaced: HashMap<String, Value>,
    /// The keys answered with a `tasks/update` not refused.
    answered: HashSet<String>,
    /// The host's reason, once `tasks/cancel` is sent.
    pub(super) cancel_reason: Option<String>,
}

/// Whether a result is the extension's task handle (`CreateTaskResult`).
pub(super) fn is_task_handle(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("task")
}

/// The `taskId` of a request the extension defines about one task (`tasks/get`,
/// `tasks/update`, `tasks/cancel`), for its `Mcp-Name` header.
pub(super) fn raw_task_id(method: &str, params: Option<&Value>) -> Option<String> {
    if !matches!(method, "tasks/get" | "tasks/update" | "tasks/cancel") {
        return None;
    }
    params?.get("taskId")?.as_str().map(str::to_owned)
}

/// Whether a stamped request declared the extension in its capabilities.
fn declares_extension(params: Option<&Value>) -> bool {
    params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(meta::CLIENT_CAPABILITIES))
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(TASKS_EXTENSION))
        .is_some_and(Value::is_object)
}

impl Client {
    /// Whether the server declared the extension in `server/discover`.
    fn server_declares_tasks(&self) -> bool {
        self.negotiated
            .as_ref()
            .and_then(|n| n.capabilities.get("extensions"))
            .and_then(|e| e.get(TASKS_EXTENSION))
            .is_some_and(Value::is_object)
    }

    /// A 2026-07-28 `tools/call` answered with a task handle.
    pub(super) fn on_ext_task_created(
        &mut self,
        now: Timestamp,
        p: &Pending,
        name: &str,
        msg: &Message,
        result: &Value,
    ) {
        if !declares_extension(p.params.as_ref()) {
            // The spec forbids it; following it would mean tasks/get requests that
            // do not declare the extension either, which servers must refuse.
            let text = format!(
                "the server answered tools/call {name:?} with a task handle (resultType \"task\"), but the request did not declare the {TASKS_EXTENSION} extension: servers must not create a task for such a request"
            );
            let d = Diagnostic::new(Rule::Task, Severity::Error, text);
            self.diag(d.with_raw(msg.raw_shared()));
            let why = format!(
                "a task handle this client cannot follow: it does not speak {TASKS_EXTENSION} (ClientConfig::tasks_extension)"
            );
            return self.end_call(p.op, CallOutcome::Failed(Failure::Malformed(why)), msg);
        }
        if !self.server_declares_tasks() {
            let text = format!(
                "the server answered tools/call {name:?} with a task handle, but did not declare the {TASKS_EXTENSION} extension in server/discover"
            );
            let d = Diagnostic::new(Rule::Task, Severity::Warning, text);
            self.diag(d.with_raw(msg.raw_shared()));
        }
        let Some(info) = self.read_task(result, "tools/call", msg, TaskShape::Handle) else {
            let text = "the tools/call task handle has no usable taskId and status".to_owned();
            return self.end_call(p.op, CallOutcome::Failed(Failure::Malformed(text)), msg);
        };
        self.follow_task(now, p.op, name, &info, msg, Some(ExtTask::default()));
    }

    /// What an extension task's status brings, once reported: its input requests,
    /// or the end of the call with its result or error. A handle (`first`) carries
    /// neither, so a terminal handle is polled for them.
    pub(super) fn ext_after_status(
        &mut self,
        op: OpId,
        info: &TaskInfo,
        msg: &Message,
        first: bool,
    ) {
        match (info.status, &info.payload) {
            (TaskStatus::InputRequired, Some(Value::Object(requests))) => {
                self.surface_input(op, requests, msg);
            }
            (TaskStatus::Completed, Some(result)) => {
                if let Some(t) = self.end_task(op) {
                    self.read_call_result(op, &t.name, msg, result);
                }
            }
            (TaskStatus::Failed, Some(error)) => {
                self.end_task(op);
                let outcome = match RpcError::from_value(error) {
                    Some(e) => CallOutcome::ProtocolError(e),
                    None => {
                        let text = "the failed task's error is not a JSON-RPC error (an object with an integer code)";
                        let d = Diagnostic::new(Rule::Task, Severity::Error, text);
                        self.diag(d.with_raw(msg.raw_shared()));
                        CallOutcome::Failed(Failure::Malformed(text.to_owned()))
                    }
                };
                self.end_call(op, outcome, msg);
            }
            (status @ (TaskStatus::Completed | TaskStatus::Failed), None) if !first => {
                // Already a diagnostic (a required member missing): nothing to end with.
                self.end_task(op);
                let what = if status == TaskStatus::Completed {
                    "result"
                } else {
                    "error"
                };
                let text = format!("the task is {status} but carries no {what}");
                self.end_call(op, CallOutcome::Failed(Failure::Malformed(text)), msg);
            }
            _ => {}
        }
    }

    /// Surfaces the input requests the host has not seen yet, as one
    /// [`CallOutcome::InputRequired`].
    fn surface_input(&mut self, op: OpId, requests: &JsonObject, msg: &Message) {
        let mut fresh = Map::new();
        let mut reused = Vec::new();
        {
            let Some(ext) = self.tasks.get_mut(&op).and_then(|t| t.ext.as_mut()) else {
                return;
            };
            for (key, req) in requests {
                match ext.surfaced.get(key) {
                    None => {
                        ext.surfaced.insert(key.clone(), req.clone());
                        fresh.insert(key.clone(), req.clone());
                    }
                    Some(seen) if seen != req => reused.push(key.clone()),
                    // The same request again: the spec has clients deduplicate.
                    Some(_) => {}
                }
            }
        }
        for key in reused {
            let text = format!(
                "input request {key:?} now asks something else than before: a key must name one request over the task's lifetime (not surfaced again)"
            );
            let d = Diagnostic::new(Rule::Task, Severity::Error, text);
            self.diag(d.with_raw(msg.raw_shared()));
        }
        if fresh.is_empty() {
            return;
        }
        for (key, req) in &fresh {
            if let Some(d) = self.check_input_request(key, req) {
                self.diag(d.with_raw(msg.raw_shared()));
            }
        }
        let result = json!({ "resultType": "input_required", "inputRequests": fresh });
        self.events.push_back(Event::CallFinished {
            op,
            outcome: CallOutcome::InputRequired(result),
            message: Some(msg.clone()),
        });
    }

    /// [`Client::continue_call`] for an extension task waiting for input: sends
    /// `tasks/update` with the responses to requests not answered yet. `None` when
    /// `op` is no such task (the MRTR path then applies), else whether a
    /// `tasks/update` went out.
    pub(super) fn answer_task_input(
        &mut self,
        now: Timestamp,
        op: OpId,
        responses: &mut JsonObject,
    ) -> Option<bool> {
        let t = self.tasks.get_mut(&op)?;
        let task_id = t.task_id.clone();
        let ext = t.ext.as_mut()?;
        let again: Vec<String> = responses
            .keys()
            .filter(|k| ext.answered.contains(*k))
            .cloned()
            .collect();
        // Each key sent must name a request outstanding for the task.
        let unknown: Vec<String> = responses
            .keys()
            .filter(|k| !ext.surfaced.contains_key(*k))
            .cloned()
            .collect();
        for k in again.iter().chain(&unknown) {
            responses.remove(k);
        }
        let mut open: Vec<String> = ext
            .surfaced
            .keys()
            .filter(|k| !ext.answered.contains(*k) && !responses.contains_key(*k))
            .cloned()
            .collect();
        open.sort();
        ext.answered.extend(responses.keys().cloned());
        if !again.is_empty() {
            let text = format!(
                "inputResponses {again:?} were already sent for task {task_id}; not sent again"
            );
            self.diag(Diagnostic::new(Rule::Task, Severity::Warning, text));
        }
        if !unknown.is_empty() {
            let text = format!(
                "inputResponses {unknown:?} answer nothing task {task_id} asked for; not sent (each key must name an outstanding request)"
            );
            self.diag(Diagnostic::new(Rule::Task, Severity::Warning, text));
        }
        if responses.is_empty() {
            return Some(false);
        }
        if !open.is_empty() {
            let text = format!(
                "a partial answer: task {task_id} stays input_required until {open:?} are answered too (continue_call again)"
            );
            self.diag(Diagnostic::new(Rule::Task, Severity::Info, text));
        }
        let params = json!({ "taskId": task_id, "inputResponses": std::mem::take(responses) });
        let timeout = self.cfg.request_timeout;
        self.send_task_request(now, op, TaskStep::Update, params, timeout);
        Some(true)
    }

    /// The answer to `tasks/cancel` or `tasks/update` of an extension task: both
    /// are empty acknowledgements. A cancel's ends the call (the host asked it to
    /// end); an update's changes nothing until the next poll shows it.
    pub(super) fn on_ext_ack(&mut self, op: OpId, step: TaskStep, msg: &Message) {
        if step != TaskStep::Cancel {
            return;
        }
        let Some(t) = self.end_task(op) else { return };
        let why = t
            .ext
            .and_then(|e| e.cancel_reason)
            .unwrap_or_else(|| "the task was cancelled".into());
        self.end_call(op, CallOutcome::Failed(Failure::Cancelled(why)), msg);
    }

    /// A `tasks/update` refused or unanswered: the keys it answered count as
    /// unanswered again, so the next poll that still lists them surfaces them anew.
    pub(super) fn on_ext_update_failed(&mut self, op: OpId, e: &OpError, msg: Option<Message>) {
        let Some(t) = self.tasks.get_mut(&op) else {
            return;
        };
        let task_id = t.task_id.clone();
        if let Some(ext) = &mut t.ext {
            for k in std::mem::take(&mut ext.answered) {
                ext.surfaced.remove(&k);
            }
        }
        let text = format!(
            "the server refused tasks/update for task {task_id}: {e}; the requests it still lists will be asked again"
        );
        let mut d = Diagnostic::new(Rule::Task, Severity::Warning, text);
        if let Some(m) = &msg {
            d = d.with_raw(m.raw_shared());
        }
        self.diag(d);
    }

    /// A `tasks/get` answer is the standard result of its method: `resultType`
    /// `"complete"` (its absence is reported with every 2026-07-28 result).
    pub(super) fn check_get_result_type(&mut self, result: &Value, msg: &Message) {
        if let Some(t) = result.get("resultType").and_then(Value::as_str)
            && t != "complete"
        {
            let text =
                format!("the tasks/get result has resultType {t:?}; it must be \"complete\"");
            let d = Diagnostic::new(Rule::Task, Severity::Error, text);
            self.diag(d.with_raw(msg.raw_shared()));
        }
    }

    /// A raw extension request about a task (`mcpg tasks get ID`) carries
    /// `Mcp-Name: <taskId>` as the client's own do: rmcp refuses one without it.
    /// Only a request sent at once (the session ready) is named; one deferred
    /// until the connection is made goes without.
    pub(super) fn name_raw_task_request(&mut self, op: OpId, task_id: &str) {
        let stateless = self
            .stamp_version()
            .is_some_and(|v| v.generation() == crate::version::Generation::Stateless);
        if !(self.cfg.tasks_extension && stateless) {
            return;
        }
        let id = self
            .pending
            .iter()
            .find(|(_, p)| p.op == op)
            .map(|(id, _)| id.clone());
        if let Some(id) = id {
            self.name_task_request(&id, task_id);
        }
    }

    /// Adds `Mcp-Name: <taskId>` to the request `id` waiting in the outbox.
    pub(super) fn name_task_request(&mut self, id: &RequestId, task_id: &str) {
        if let Some(o) = self
            .outbox
            .iter_mut()
            .rev()
            .find(|o| o.message.id() == Some(id))
            && !o.headers.iter().any(|(h, _)| *h == "Mcp-Name")
        {
            let value = super::outgoing::header_value(task_id);
            o.headers.push(("Mcp-Name", value));
        }
    }
}
