//! 2025-11-25 task-augmented tool calls: the task handle, polling `tasks/get` at
//! the server's interval, `notifications/tasks/status`, `tasks/result`,
//! `tasks/cancel` and the task's lifetime. The call ends, as any call does, in one
//! [`Event::CallFinished`]; the task's steps come as [`Event::Task`].
//!
//! A task of the 2026-07-28 Tasks extension (`task_ext.rs`) is followed by the same
//! code: the same book, polling, statuses and lifetime; it differs where its
//! [`TaskState::ext`] is set.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::task_ext::ExtTask;
use super::task_types::{TaskEvent, TaskInfo, TaskRequest, TaskShape, TaskStatus, TaskStep};
use super::{CallOutcome, Client, Event, Failure, OpId, Pending, What};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;
use crate::time::Timestamp;
use crate::version::ProtocolVersion;

/// A task the client follows, until it ends.
#[derive(Clone, Debug)]
pub(super) struct TaskState {
    pub(super) task_id: String,
    /// The tool called, to check the final result against its output schema.
    pub(super) name: String,
    pub(super) status: TaskStatus,
    pub(super) message: Option<String>,
    pub(super) ttl: Option<Duration>,
    pub(super) interval: Duration,
    /// When to send the next `tasks/get`; `None` while one is in flight or once
    /// the task ended.
    pub(super) next_poll: Option<Timestamp>,
    /// When the client gives up: creation + ttl + slack (`None`: unlimited).
    pub(super) expires: Option<Timestamp>,
    /// Whether a `tasks/result` is in flight.
    pub(super) result_asked: bool,
    /// Set for a task of the 2026-07-28 Tasks extension: it is polled until its
    /// final result or error arrives in the task itself, and never with
    /// `tasks/result`.
    pub(super) ext: Option<ExtTask>,
}

impl TaskState {
    /// When the client must next act on this task.
    pub(super) fn wake(&self) -> Option<Timestamp> {
        [self.next_poll, self.expires].into_iter().flatten().min()
    }
}

/// The tasks a client follows, by the call's operation. Behind a trait object made
/// only where the first task is recorded (`on_task_created`, reached through the
/// readers), so that a client that never follows a task, the page's first load
/// among them, links none of this map's code.
#[derive(Debug, Default)]
pub(super) struct TaskBook(Option<Box<dyn Book>>);

/// The map behind a [`TaskBook`].
trait Book: std::fmt::Debug + Send + Sync {
    fn map(&self) -> &HashMap<OpId, TaskState>;
    fn map_mut(&mut self) -> &mut HashMap<OpId, TaskState>;
}

impl Book for HashMap<OpId, TaskState> {
    fn map(&self) -> &HashMap<OpId, TaskState> {
        self
    }
    fn map_mut(&mut self) -> &mut HashMap<OpId, TaskState> {
        self
    }
}

impl TaskBook {
    pub(super) fn get(&self, op: &OpId) -> Option<&TaskState> {
        self.0.as_ref()?.map().get(op)
    }
    pub(super) fn get_mut(&mut self, op: &OpId) -> Option<&mut TaskState> {
        self.0.as_mut()?.map_mut().get_mut(op)
    }
    pub(super) fn remove(&mut self, op: &OpId) -> Option<TaskState> {
        self.0.as_mut()?.map_mut().remove(op)
    }
    pub(super) fn insert(&mut self, op: OpId, t: TaskState) {
        self.0
            .get_or_insert_with(|| Box::new(HashMap::new()))
            .map_mut()
            .insert(op, t);
    }
    /// The operations followed, in order.
    pub(super) fn ops(&self) -> Vec<OpId> {
        let mut ops: Vec<OpId> = self
            .0
            .as_ref()
            .map(|b| b.map().keys().copied().collect())
            .unwrap_or_default();
        ops.sort();
        ops
    }
    pub(super) fn values(&self) -> impl Iterator<Item = &TaskState> {
        self.0.as_ref().into_iter().flat_map(|b| b.map().values())
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = (&OpId, &TaskState)> {
        self.0.as_ref().into_iter().flat_map(|b| b.map().iter())
    }
}

/// Whether a `tools/call` result is a 2025-11-25 `CreateTaskResult` rather than a
/// tool result.
pub(super) fn is_create_task_result(result: &Value) -> bool {
    result.get("task").is_some_and(Value::is_object) && result.get("content").is_none()
}

/// `params.task` for a request.
pub(super) fn task_param(req: &TaskRequest) -> Value {
    match req.ttl {
        Some(ttl) => json!({ "ttl": u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX) }),
        None => Value::Object(Map::new()),
    }
}

impl Client {
    /// When the next task needs polling or expires.
    pub(super) fn task_wake(&self) -> Option<Timestamp> {
        self.tasks.values().filter_map(TaskState::wake).min()
    }

    /// The server's task id behind call `op`, while the client follows it.
    pub fn task_id(&self, op: OpId) -> Option<&str> {
        self.tasks.get(&op).map(|t| t.task_id.as_str())
    }

    /// The tool's `execution.taskSupport`, when the tool was listed (absent means
    /// `"forbidden"`).
    fn task_support(&self, name: &str) -> Option<String> {
        let tool = self.tools.get(name)?;
        let support = tool
            .execution
            .as_ref()
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
            .unwrap_or("forbidden");
        Some(support.to_owned())
    }

    /// Checks a call against the tool's declared task support before it is sent.
    pub(super) fn check_task_ask(&mut self, name: &str, asked: bool) {
        let support = self.task_support(name);
        let text = match (support.as_deref(), asked) {
            (Some("forbidden"), true) => format!(
                "the client asks tool {name:?} as a task, but its execution.taskSupport is \"forbidden\" (or absent)"
            ),
            (Some("required"), false) => format!(
                "tool {name:?} declares execution.taskSupport \"required\", but the client calls it without a task"
            ),
            _ => String::new(),
        };
        if !text.is_empty() {
            self.diag(Diagnostic::new(Rule::Task, Severity::Warning, text));
        }
        let version = self.stamp_version();
        if asked && let Some(v) = version.filter(|v| *v != ProtocolVersion::V2025_11_25) {
            // Before 2025-11-25 `params.task` means nothing; 2026-07-28 moved tasks
            // to an extension where the server decides (`task_ext.rs`).
            let text = format!(
                "the client asks a tools/call as a task under {v}; params.task is a 2025-11-25 feature (2026-07-28 has the Tasks extension instead, where the server decides), and the server will likely ignore it"
            );
            self.diag(Diagnostic::new(Rule::Task, Severity::Warning, text));
        }
        if asked {
            self.require_capability(
                &["tasks", "requests", "tools", "call"],
                "the client asks a tools/call as a task",
                None,
            );
        }
    }

    /// The server answered a `tools/call` with a task handle.
    pub(super) fn on_task_created(
        &mut self,
        now: Timestamp,
        p: &Pending,
        name: &str,
        msg: &Message,
    ) {
        let asked = p.params.as_ref().is_some_and(|v| v.get("task").is_some());
        let forbidden = self.task_support(name).as_deref() == Some("forbidden");
        let wrong = if !asked {
            Some(format!(
                "the server answered tools/call {name:?} with a task handle, but the client asked for no task"
            ))
        } else if forbidden {
            Some(format!(
                "the server answered tools/call {name:?} with a task handle, but the tool declares execution.taskSupport \"forbidden\" (or none)"
            ))
        } else {
            None
        };
        if let Some(text) = wrong {
            let d = Diagnostic::new(Rule::Task, Severity::Error, text);
            self.diag(d.with_raw(msg.raw_shared()));
        }
        let task = msg
            .to_value()
            .get("result")
            .and_then(|r| r.get("task"))
            .cloned()
            .unwrap_or(Value::Null);
        let Some(info) = self.read_task(&task, "tools/call", msg, TaskShape::Core) else {
            let text = "the tools/call task handle has no usable taskId and status".to_owned();
            return self.end_call(p.op, CallOutcome::Failed(Failure::Malformed(text)), msg);
        };
        self.follow_task(now, p.op, name, &info, msg, None);
    }

    /// Starts following the task a call was answered with, and reports it.
    pub(super) fn follow_task(
        &mut self,
        now: Timestamp,
        op: OpId,
        name: &str,
        info: &TaskInfo,
        msg: &Message,
        ext: Option<ExtTask>,
    ) {
        let timing = self.cfg.task_timing;
        self.tasks.insert(
            op,
            TaskState {
                task_id: info.task_id.clone(),
                name: name.to_owned(),
                // Not the real status yet: `apply_status` below reports the first one.
                status: TaskStatus::Working,
                message: None,
                ttl: info.ttl,
                interval: timing.interval(info.poll_interval),
                next_poll: None,
                expires: info.ttl.map(|t| now.after(t).after(timing.ttl_slack)),
                result_asked: false,
                ext,
            },
        );
        self.events.push_back(Event::Task {
            op,
            event: TaskEvent::Created {
                task_id: info.task_id.clone(),
                ttl: info.ttl,
                poll_interval: info.poll_interval,
            },
        });
        self.apply_status(now, op, info, msg, true);
        self.schedule_poll(now, op);
    }

    /// Reads a `Task` from an answer or notification: `None` (with a diagnostic)
    /// when it cannot be used; a diagnostic for missing required members.
    pub(super) fn read_task(
        &mut self,
        task: &Value,
        what: &str,
        msg: &Message,
        shape: TaskShape,
    ) -> Option<TaskInfo> {
        match TaskInfo::read(task, shape) {
            Ok(info) => {
                if !info.missing.is_empty() {
                    let text = format!(
                        "the task in the {what} message lacks required {} ({})",
                        info.missing.join(", "),
                        shape.name()
                    );
                    let d = Diagnostic::new(Rule::Task, Severity::Error, text);
                    self.diag(d.with_raw(msg.raw_shared()));
                }
                Some(info)
            }
            Err(why) => {
                let d = Diagnostic::new(Rule::Task, Severity::Error, format!("{what}: {why}"));
                self.diag(d.with_raw(msg.raw_shared()));
                None
            }
        }
    }

    /// Takes a status reported by the server, from whatever source (`first`: the
    /// handle the call was answered with).
    fn apply_status(
        &mut self,
        now: Timestamp,
        op: OpId,
        info: &TaskInfo,
        msg: &Message,
        first: bool,
    ) {
        let hint = info.poll_interval;
        let timing = self.cfg.task_timing;
        let Some(t) = self.tasks.get_mut(&op) else {
            return;
        };
        let was = t.status;
        if was.is_terminal() && info.status != was {
            let text = format!(
                "task {} went from {was} to {}: a terminal status must not change",
                t.task_id, info.status
            );
            let d = Diagnostic::new(Rule::Task, Severity::Error, text);
            return self.diag(d.with_raw(msg.raw_shared()));
        }
        if hint.is_some() {
            t.interval = timing.interval(hint);
        }
        let changed = first || info.status != was || info.message != t.message;
        t.status = info.status;
        t.message.clone_from(&info.message);
        let ext = t.ext.is_some();
        let ask_result = match info.status {
            // The spec has the requestor call tasks/result at input_required: servers
            // (server-everything) deliver the task's own requests on that stream.
            TaskStatus::InputRequired | TaskStatus::Completed | TaskStatus::Failed => {
                !t.result_asked && !ext
            }
            _ => false,
        };
        // An extension task is polled until its result or error is in hand.
        if info.status.is_terminal() && !ext {
            t.next_poll = None;
        }
        if changed {
            self.events.push_back(Event::Task {
                op,
                event: TaskEvent::Status {
                    status: info.status,
                    message: info.message.clone(),
                },
            });
        }
        if info.status == TaskStatus::Cancelled {
            let why = info
                .message
                .clone()
                .unwrap_or_else(|| "the task was cancelled".into());
            self.end_task(op);
            let outcome = CallOutcome::Failed(Failure::Cancelled(why));
            return self.end_call(op, outcome, msg);
        }
        if ext {
            return self.ext_after_status(op, info, msg, first);
        }
        if ask_result {
            self.ask_result(now, op);
        }
    }

    /// Schedules the next `tasks/get` of a task that has not ended. The next poll
    /// is always one interval (the server's hint, bounded) after the answer to the
    /// last one, and only one `tasks/get` is in flight at a time: polling faster
    /// than the hint cannot happen.
    pub(super) fn schedule_poll(&mut self, now: Timestamp, op: OpId) {
        if let Some(t) = self.tasks.get_mut(&op)
            && (!t.status.is_terminal() || t.ext.is_some())
        {
            t.next_poll = Some(now.after(t.interval));
        }
    }

    /// Sends a request about the task behind `op` (`params` carry its `taskId`).
    /// Under the extension it carries `Mcp-Name: <taskId>`, as the spec asks of
    /// Streamable HTTP (set here rather than in `outgoing.rs`, whose header code
    /// is in the page's first load).
    pub(super) fn send_task_request(
        &mut self,
        now: Timestamp,
        op: OpId,
        step: TaskStep,
        params: Value,
        timeout: Duration,
    ) {
        let ext = self.tasks.get(&op).is_some_and(|t| t.ext.is_some());
        let task_id = params
            .get("taskId")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let what = What::Task(step);
        let id = self.send_request(now, op, what, step.method(), Some(params), timeout);
        if let (true, Some(task_id)) = (ext, task_id) {
            self.name_task_request(&id, &task_id);
        }
    }

    fn ask_result(&mut self, now: Timestamp, op: OpId) {
        let default = self.cfg.request_timeout;
        let Some(t) = self.tasks.get_mut(&op) else {
            return;
        };
        t.result_asked = true;
        // tasks/result blocks until the task ends: wait as long as the task may live.
        let timeout = t.expires.map_or(default, |e| e.since(now).max(default));
        let params = json!({ "taskId": t.task_id });
        self.send_task_request(now, op, TaskStep::Result, params, timeout);
    }

    /// An answer to one of the client's task requests.
    pub(super) fn on_task_answer(
        &mut self,
        now: Timestamp,
        p: &Pending,
        step: TaskStep,
        msg: &Message,
        result: &Value,
    ) {
        let op = p.op;
        if step == TaskStep::Result {
            let Some(t) = self.end_task(op) else { return };
            return match self.readers {
                Some(r) => (r.call)(self, now, p, &t.name, msg, result),
                None => self.unread(p.clone(), msg),
            };
        }
        let Some(expected) = self.task_id(op).map(str::to_owned) else {
            return;
        };
        let ext = self.tasks.get(&op).is_some_and(|t| t.ext.is_some());
        if ext && step != TaskStep::Get {
            return self.on_ext_ack(op, step, msg);
        }
        let shape = if ext {
            self.check_get_result_type(result, msg);
            TaskShape::Detailed
        } else {
            TaskShape::Core
        };
        let Some(info) = self.read_task(result, &p.method, msg, shape) else {
            if step == TaskStep::Get {
                self.schedule_poll(now, op);
            }
            return;
        };
        if info.task_id != expected {
            let text = format!(
                "the {} answer is about task {:?}, not the task asked about ({expected:?})",
                p.method, info.task_id
            );
            let d = Diagnostic::new(Rule::Task, Severity::Error, text);
            self.diag(d.with_raw(msg.raw_shared()));
        } else {
            self.apply_status(now, op, &info, msg, false);
        }
        if step == TaskStep::Get {
            self.schedule_poll(now, op);
        }
    }

    /// `notifications/tasks/status` (2025-11-25) or, for an extension task,
    /// `notifications/tasks`: `false` when it is about no task the client follows
    /// (the host then sees it as a plain notification).
    pub(super) fn on_task_status(
        &mut self,
        now: Timestamp,
        ext: bool,
        params: Option<&Value>,
        msg: &Message,
    ) -> bool {
        let id = params.and_then(|p| p.get("taskId")).and_then(Value::as_str);
        let Some(op) = self
            .tasks
            .iter()
            .find(|(_, t)| Some(t.task_id.as_str()) == id && t.ext.is_some() == ext)
            .map(|(op, _)| *op)
        else {
            return false;
        };
        let task = params.cloned().unwrap_or(Value::Null);
        let (what, shape) = if ext {
            ("notifications/tasks", TaskShape::Detailed)
        } else {
            ("notifications/tasks/status", TaskShape::Core)
        };
        if let Some(info) = self.read_task(&task, what, msg, shape) {
            self.apply_status(now, op, &info, msg, false);
        }
        true
    }
}
