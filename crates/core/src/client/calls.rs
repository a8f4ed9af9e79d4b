//! `tools/call`: the call, its typed outcome, cancellation and progress.

use serde_json::{Map, Value};

use super::mrtr::is_input_required;
use super::requests::token_key;
use super::{CallOptions, Client, Pending, What};
use super::{CallOutcome, Event, Failure, OpError, OpId};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;
use crate::model::{CallToolResult, JsonObject};
use crate::time::Timestamp;
use crate::validate;
use crate::version::ProtocolVersion;

impl Client {
    /// Calls a tool. The end arrives as [`Event::CallFinished`].
    pub fn call_tool(
        &mut self,
        now: Timestamp,
        name: &str,
        arguments: Option<JsonObject>,
        opts: CallOptions,
    ) -> OpId {
        let op = self.new_op();
        if let Some(why) = self.dropped.get(name) {
            // The spec has clients leave such a tool out; calling it anyway could not
            // carry the headers the server expects.
            let text = format!("tool {name:?} was left out of the listing: {why}");
            self.events.push_back(Event::CallFinished {
                op,
                outcome: CallOutcome::Failed(Failure::Malformed(text)),
                message: None,
            });
            return op;
        }
        let mut params = Map::new();
        params.insert("name".into(), Value::from(name));
        if let Some(args) = arguments {
            params.insert("arguments".into(), Value::Object(args));
        }
        let mut m = opts.meta.unwrap_or_default();
        if opts.progress {
            // The op number is unique for the session's life, so it makes a good token.
            m.insert(
                "progressToken".into(),
                Value::from(format!("mcpg-{}", op.0)),
            );
        }
        if !m.is_empty() {
            params.insert("_meta".into(), Value::Object(m));
        }
        self.check_task_ask(name, opts.task.is_some());
        if let Some(task) = &opts.task {
            params.insert("task".into(), super::tasks::task_param(task));
        }
        let timeout = opts.timeout.unwrap_or(self.cfg.request_timeout);
        self.submit(
            now,
            op,
            What::Call {
                name: name.to_owned(),
            },
            "tools/call",
            Some(Value::Object(params)),
            timeout,
        );
        op
    }

    /// Cancels an operation in flight: sends `notifications/cancelled` and ends it
    /// with [`Failure::Cancelled`]. A late response is then ignored. A call waiting
    /// for input has nothing in flight: it is just forgotten, without an event (its
    /// round already ended with [`CallOutcome::InputRequired`]).
    ///
    /// A call whose task is under way is cancelled with `tasks/cancel` instead
    /// ([`Client::cancel_task`]): neither 2025-11-25 nor the Tasks extension has
    /// `notifications/cancelled` for tasks. Under the extension the call ends with
    /// `reason` once the server acknowledges.
    pub fn cancel(&mut self, now: Timestamp, op: OpId, reason: &str) {
        if let Some(r) = self.readers
            && (r.tasks.cancel)(self, now, op, reason)
        {
            return;
        }
        if self.suspended.remove(&op).is_some() || self.cancel_ack(op, reason) {
            return;
        }
        if let Some(pos) = self.waiting.iter().position(|d| d.op == op) {
            let d = self.waiting.remove(pos);
            self.finish(
                op,
                &d.what,
                None,
                Err(OpError::Failed(Failure::Cancelled(reason.to_owned()))),
            );
            return;
        }
        let Some(id) = self
            .pending
            .iter()
            .find(|(_, p)| p.op == op)
            .map(|(id, _)| id.clone())
        else {
            return;
        };
        if let Some(p) = self.pending.remove(&id) {
            self.send_cancelled(now, &id, reason);
            self.forget(&id, &p);
            self.finish(
                op,
                &p.what,
                None,
                Err(OpError::Failed(Failure::Cancelled(reason.to_owned()))),
            );
        }
    }

    pub(super) fn on_call_result(
        &mut self,
        now: Timestamp,
        p: &Pending,
        name: &str,
        msg: &Message,
        result: &Value,
    ) {
        let op = p.op;
        if p.method == "tools/call"
            && self.check_version() == ProtocolVersion::V2026_07_28
            && super::task_ext::is_task_handle(result)
        {
            return self.on_ext_task_created(now, p, name, msg, result);
        }
        if p.method == "tools/call" && super::tasks::is_create_task_result(result) {
            return self.on_task_created(now, p, name, msg);
        }
        if is_input_required(result) {
            self.suspend(p, result, msg);
            self.events.push_back(Event::CallFinished {
                op,
                outcome: CallOutcome::InputRequired(result.clone()),
                message: Some(msg.clone()),
            });
            return;
        }
        self.read_call_result(op, name, msg, result);
    }

    /// Reads a `CallToolResult` (checked against tool `name`'s output schema) and
    /// ends call `op` with it.
    pub(super) fn read_call_result(&mut self, op: OpId, name: &str, msg: &Message, result: &Value) {
        let version = self.check_version();
        let outcome = match CallToolResult::from_json(result) {
            Ok(r) if result.is_object() => {
                let mut diags = Vec::new();
                validate::check_call_result(result, &r, self.tools.get(name), version, &mut diags);
                for d in diags {
                    self.diag(d.with_raw(msg.raw_shared()));
                }
                if r.failed() {
                    CallOutcome::ToolError(r)
                } else {
                    CallOutcome::Success(r)
                }
            }
            Ok(_) | Err(_) => {
                let text = format!(
                    "the tools/call result is {}, not a CallToolResult",
                    validate::kind_of(result)
                );
                self.diag(
                    Diagnostic::new(Rule::ResultShape, Severity::Error, text.clone())
                        .with_raw(msg.raw_shared()),
                );
                CallOutcome::Failed(Failure::Malformed(text))
            }
        };
        self.events.push_back(Event::CallFinished {
            op,
            outcome,
            message: Some(msg.clone()),
        });
    }

    pub(super) fn on_progress(&mut self, now: Timestamp, params: Value, msg: &Message) {
        let token = params.get("progressToken").map(token_key);
        let progress = params.get("progress").and_then(Value::as_f64);
        let (Some(token), Some(progress)) = (token, progress) else {
            let d = Diagnostic::new(
                Rule::Progress,
                Severity::Error,
                "notifications/progress needs progressToken and a numeric progress",
            )
            .with_raw(msg.raw_shared());
            return self.diag(d);
        };
        let Some((id, last)) = self.progress.get(&token).cloned() else {
            let d = Diagnostic::new(
                Rule::Progress,
                Severity::Warning,
                format!("progress for token {token} that matches no request in flight"),
            )
            .with_raw(msg.raw_shared());
            return self.diag(d);
        };
        if progress <= last {
            let d = Diagnostic::new(
                Rule::Progress,
                Severity::Warning,
                format!(
                    "progress went from {} to {}; it must increase",
                    crate::fmt::fmt_num(last),
                    crate::fmt::fmt_num(progress)
                ),
            )
            .with_raw(msg.raw_shared());
            self.diag(d);
        }
        self.progress.insert(token, (id.clone(), progress));
        let Some(p) = self.pending.get_mut(&id) else {
            return;
        };
        // Progress shows the server is alive, so the timeout starts again (spec: MAY).
        p.deadline = now.after(p.timeout);
        let op = p.op;
        self.events.push_back(Event::Progress {
            op,
            progress,
            total: params.get("total").and_then(Value::as_f64),
            message: params
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned),
        });
    }
}
