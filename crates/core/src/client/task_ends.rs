//! How a followed task ends besides its result: `tasks/cancel`, a task request
//! that failed, the ttl running out, the connection closing; and the timer that
//! sends each due `tasks/get`.

use serde_json::json;

use super::task_types::TaskEvent;
use super::task_types::TaskStep;
use super::tasks::TaskState;
use super::{CallOutcome, Client, Event, Failure, OpError, OpId, What};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;
use crate::time::Timestamp;

impl Client {
    /// Asks the server to cancel the task behind call `op` (`tasks/cancel`). The
    /// call ends with [`Failure::Cancelled`] once the server reports the task
    /// cancelled (2025-11-25) or acknowledges the cancel (the Tasks extension,
    /// whose cancel is cooperative: the task may still end otherwise first); if the
    /// server refuses, a diagnostic says so and polling goes on. `false` when `op`
    /// has no task (yet).
    pub fn cancel_task(&mut self, now: Timestamp, op: OpId) -> bool {
        self.cancel_task_because(now, op, "cancelled with tasks/cancel")
    }

    /// [`Client::cancel_task`], with the host's reason (the extension's call ends
    /// with it).
    pub(super) fn cancel_task_because(&mut self, now: Timestamp, op: OpId, reason: &str) -> bool {
        let Some(t) = self.tasks.get_mut(&op) else {
            return false;
        };
        if let Some(ext) = &mut t.ext {
            if ext.cancel_reason.is_some() {
                // Already asked; the answer is on its way.
                return true;
            }
            ext.cancel_reason = Some(reason.to_owned());
        }
        let timeout = self.cfg.request_timeout;
        let params = json!({ "taskId": t.task_id });
        self.send_task_request(now, op, TaskStep::Cancel, params, timeout);
        true
    }

    /// A task request ended without an answer (`Err`) or with a JSON-RPC error.
    pub(super) fn on_task_error(
        &mut self,
        op: OpId,
        step: TaskStep,
        msg: Option<Message>,
        e: OpError,
    ) {
        let Some(t) = self.tasks.get_mut(&op) else {
            return;
        };
        match step {
            TaskStep::Cancel => {
                if let Some(ext) = &mut t.ext {
                    ext.cancel_reason = None;
                }
                let text = format!(
                    "the server refused tasks/cancel for task {}: {e}",
                    t.task_id
                );
                let mut d = Diagnostic::new(Rule::Task, Severity::Warning, text);
                if let Some(m) = &msg {
                    d = d.with_raw(m.raw_shared());
                }
                return self.diag(d);
            }
            // A tasks/result asked at input_required may outwait its timeout while
            // the task goes on: ask again when it ends.
            TaskStep::Result
                if matches!(e, OpError::Failed(Failure::Timeout(_))) && !t.status.is_terminal() =>
            {
                t.result_asked = false;
                return;
            }
            TaskStep::Update => return self.on_ext_update_failed(op, &e, msg),
            TaskStep::Get | TaskStep::Result => {}
        }
        self.end_task(op);
        let outcome = match e {
            OpError::Rpc(e) => CallOutcome::ProtocolError(e),
            OpError::Failed(f) => CallOutcome::Failed(f),
        };
        self.events.push_back(Event::CallFinished {
            op,
            outcome,
            message: msg,
        });
    }

    /// Polls the tasks that are due, and gives up on those past their ttl.
    pub(super) fn task_timers(&mut self, now: Timestamp) {
        let ops = self.tasks.ops();
        for op in ops {
            let Some(t) = self.tasks.get_mut(&op) else {
                continue;
            };
            if t.expires.is_some_and(|e| e <= now) {
                let (task_id, ttl) = (t.task_id.clone(), t.ttl.unwrap_or_default());
                self.end_task(op);
                let text = format!(
                    "task {task_id} is still not over {} s after its ttl of {} s; stopped polling it",
                    crate::fmt::fmt_secs(self.cfg.task_timing.ttl_slack),
                    crate::fmt::fmt_secs(ttl)
                );
                self.diag(Diagnostic::new(Rule::Task, Severity::Warning, text));
                self.events.push_back(Event::Task {
                    op,
                    event: TaskEvent::Expired {
                        task_id: task_id.clone(),
                    },
                });
                let f = Failure::TaskExpired { task_id, ttl };
                self.events.push_back(Event::CallFinished {
                    op,
                    outcome: CallOutcome::Failed(f),
                    message: None,
                });
            } else if t.next_poll.is_some_and(|at| at <= now) {
                t.next_poll = None;
                let params = json!({ "taskId": t.task_id });
                let timeout = self.cfg.request_timeout;
                self.send_task_request(now, op, TaskStep::Get, params, timeout);
            }
        }
    }

    /// The connection is gone: every task the client followed ends its call.
    pub(super) fn close_tasks(&mut self, reason: &str) {
        let ops = self.tasks.ops();
        for op in ops {
            self.tasks.remove(&op);
            let f = Failure::Transport(reason.to_owned());
            self.events.push_back(Event::CallFinished {
                op,
                outcome: CallOutcome::Failed(f),
                message: None,
            });
        }
    }

    /// Stops following the task behind `op`; its requests still in flight are
    /// forgotten (their late answers read as late).
    pub(super) fn end_task(&mut self, op: OpId) -> Option<TaskState> {
        let t = self.tasks.remove(&op)?;
        let ids: Vec<_> = self
            .pending
            .iter()
            .filter(|(_, p)| p.op == op && matches!(p.what, What::Task(_)))
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            if let Some(p) = self.pending.remove(&id) {
                self.forget(&id, &p);
            }
        }
        Some(t)
    }

    pub(super) fn end_call(&mut self, op: OpId, outcome: CallOutcome, msg: &Message) {
        self.events.push_back(Event::CallFinished {
            op,
            outcome,
            message: Some(msg.clone()),
        });
    }
}
