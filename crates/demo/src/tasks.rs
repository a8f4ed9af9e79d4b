//! `count_task`: a 2025-11-25 task on the demo's virtual clock. The call is
//! answered at once with a `CreateTaskResult`; the count then runs as
//! `count_slowly`'s does (a [`Job`] that [`DemoServer::advance`] steps), the task's
//! `statusMessage` saying how far it got. With `ask`, it stops half-way in
//! `input_required` and asks whether to go on (an `elicitation/create` tied to the
//! task by its `_meta`, sent the way the asking tools send theirs). The client
//! follows it with `tasks/get`, `tasks/list`, `tasks/result` (held open until the
//! task ends) and `tasks/cancel`, which the core's server hands on; every status
//! change also goes out as `notifications/tasks/status`.
//!
//! The demo reads no clock: a task's `createdAt` and `lastUpdatedAt` are the
//! server's `now` read as milliseconds after 2025-11-25T00:00:00Z, the revision's
//! own day, so a recorded session replays to the same bytes.

use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RequestId, RpcError, code};
use mcpg_core::model::{CallToolResult, ContentBlock, JsonObject};
use mcpg_core::server::AskOutcome;
use mcpg_core::version::Generation;
use serde_json::{Map, Value, json};

use crate::asking::{self, Kind};
use crate::{DemoServer, Job, PAGE_SIZE};

/// The `_meta` key that ties a request, notification or result to its task.
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// How long a task is kept after its count would end, when the call asks no
/// `ttl` (milliseconds).
pub const DEFAULT_TTL_MS: u64 = 60_000;

/// The polling interval the demo suggests (milliseconds).
pub const POLL_INTERVAL_MS: u64 = 500;

/// A task's status, as 2025-11-25 names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// What a 2026-07-28 Tasks extension task keeps beyond a 2025-11-25 one (its
/// handling is in `tasks_ext.rs`; the type is here, where the store keeps it).
#[derive(Debug)]
pub(crate) struct ExtTask {
    /// The client capabilities its `tools/call` declared: the question needs
    /// `elicitation` among them (a task asks within the call's capabilities).
    pub(crate) caps: JsonObject,
    /// The outstanding input request, by its key, while `input_required`.
    pub(crate) asking: Option<(String, Value)>,
}

/// One task of `count_task`.
#[derive(Debug)]
pub(crate) struct DemoTask {
    pub(crate) id: String,
    /// The `tools/call` that made it (its asks are filed under it).
    pub(crate) call: RequestId,
    pub(crate) status: Status,
    pub(crate) message: String,
    pub(crate) created: Timestamp,
    pub(crate) updated: Timestamp,
    pub(crate) ttl_ms: u64,
    /// The count, while the task waits for the answer to its question.
    pub(crate) paused: Option<Job>,
    /// Once it ended: what `tasks/result` returns (the tool's result, or an error).
    pub(crate) result: Option<Result<Value, RpcError>>,
    /// `tasks/result` requests held open until it ends.
    waiting: Vec<RequestId>,
    /// What a 2026-07-28 Tasks extension task has beyond (`tasks_ext.rs`); `None`
    /// for a 2025-11-25 task.
    pub(crate) ext: Option<ExtTask>,
}

impl DemoTask {
    /// The `Task` object (the extension's spelling for one of its tasks).
    fn to_json(&self) -> Value {
        if self.ext.is_some() {
            return self.ext_json();
        }
        json!({
            "taskId": self.id,
            "status": self.status.as_str(),
            "statusMessage": self.message,
            "createdAt": iso8601(self.created),
            "lastUpdatedAt": iso8601(self.updated),
            "ttl": self.ttl_ms,
            "pollInterval": POLL_INTERVAL_MS,
        })
    }
}

/// `{"io.modelcontextprotocol/related-task": {"taskId": id}}`.
fn related(task_id: &str) -> Value {
    let mut m = Map::new();
    m.insert(RELATED_TASK.into(), json!({ "taskId": task_id }));
    Value::Object(m)
}

/// `-32602`, as 2025-11-25 asks for every unusable `taskId` or cursor (and the
/// extension for an unknown one).
pub(crate) fn invalid(message: String) -> RpcError {
    RpcError::new(code::INVALID_PARAMS, message)
}

/// The `notifications/progress` params of a task's step: the token of the call
/// that made it, which stays valid for the task's life, and its `_meta`.
pub(crate) fn progress_params(token: &Value, done: u32, to: u32, task_id: &str) -> Value {
    json!({
        "progressToken": token,
        "progress": f64::from(done),
        "total": f64::from(to),
        "message": format!("counted {done} of {to}"),
        "_meta": related(task_id),
    })
}

/// `now` as an ISO 8601 (RFC 3339) UTC time: milliseconds after
/// 2025-11-25T00:00:00Z, e.g. `2025-11-25T00:00:01.500Z`.
pub fn iso8601(now: Timestamp) -> String {
    // Days from 1970-01-01 to 2025-11-25.
    const EPOCH_DAYS: u64 = 20_417;
    let ms = now.as_millis();
    let (days, ms_of_day) = (ms / 86_400_000, ms % 86_400_000);
    let (y, m, d) = civil(EPOCH_DAYS + days);
    let secs = ms_of_day / 1000;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        ms_of_day % 1000
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's
/// `civil_from_days`, for days on or after the epoch).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// The text of a result's first text block.
pub(crate) fn first_text(r: &CallToolResult) -> String {
    r.content
        .iter()
        .find_map(|c| match c {
            ContentBlock::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

impl DemoServer {
    pub(crate) fn task_mut(&mut self, task_id: &str) -> Option<&mut DemoTask> {
        self.tasks.iter_mut().find(|t| t.id == task_id)
    }

    /// Makes a task for call `id` (`task` is its `params.task`; `runs` how long its
    /// count takes) and answers the call with its `CreateTaskResult`; the task's id.
    pub(crate) fn create_task(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        task: &JsonObject,
        (runs, message): (u64, String),
        ext: Option<ExtTask>,
    ) -> String {
        self.next_task += 1;
        let task_id = format!("task-{}", self.next_task);
        // The ttl asked for, kept as asked; else long enough for the count, and a
        // minute more to fetch the result.
        let ttl_ms = task
            .get("ttl")
            .and_then(Value::as_u64)
            .unwrap_or_else(|| runs.saturating_add(DEFAULT_TTL_MS));
        let t = DemoTask {
            id: task_id.clone(),
            call: id.clone(),
            status: Status::Working,
            message,
            created: now,
            updated: now,
            ttl_ms,
            paused: None,
            result: None,
            waiting: Vec::new(),
            ext,
        };
        // The extension's handle is the flat task, tagged (`CreateTaskResult`).
        let handle = match t.to_json() {
            Value::Object(mut o) if t.ext.is_some() => {
                o.insert("resultType".into(), Value::from("task"));
                Value::Object(o)
            }
            task => json!({ "task": task }),
        };
        self.server.respond_result(now, id, handle);
        self.tasks.push(t);
        task_id
    }

    /// Starts `count_task` for call `id`: the task handle now, the count on the
    /// clock. Without `params.task` (which the core's server already refuses for
    /// a tool whose `taskSupport` is `required`) it is a tool error.
    pub(crate) fn start_task(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        task: Option<&JsonObject>,
        (to, step_ms, ask): (u32, u64, bool),
        token: Option<&Value>,
    ) {
        let ext = JsonObject::new();
        let Some(task) = task.or_else(|| self.ext_task_for(id).map(|_| &ext)) else {
            let r = CallToolResult::tool_error("count_task runs only as a task: send params.task");
            return self.answer(now, id, crate::catalogue::TASK, r);
        };
        let runs = u64::from(to).saturating_mul(step_ms);
        let ext = self.ext_task_for(id);
        // The extension supports no progress notifications on tasks.
        let token = token.filter(|_| ext.is_none());
        let task_id = self.create_task(now, id, task, (runs, format!("counted 0 of {to}")), ext);
        self.jobs.push(Job {
            id: id.clone(),
            token: token.cloned(),
            to,
            done: 0,
            step_ms,
            next: now.after(Duration::from_millis(step_ms)),
            task: Some(task_id),
            ask_at: ask.then(|| to.div_ceil(2)),
        });
    }

    /// A call asked as a task whose result is known at once (bad arguments): the
    /// task is made `working`, as every task begins, and ends at once.
    pub(crate) fn task_at_once(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        task: &JsonObject,
        r: CallToolResult,
    ) {
        let task_id = self.create_task(now, id, task, (0, "checking the arguments".into()), None);
        self.end_task(now, &task_id, r);
    }

    /// After a task's count moved on (its last step at `at`): its message, then
    /// its end, its question, or (`Some`) the job back to go on counting.
    pub(crate) fn task_counted(&mut self, at: Timestamp, mut job: Job) -> Option<Job> {
        let task_id = job.task.clone()?;
        let t = self.task_mut(&task_id)?;
        if t.status.is_terminal() {
            return None;
        }
        let progress = format!("counted {} of {}", job.done, job.to);
        t.message.clone_from(&progress);
        t.updated = at;
        if job.done >= job.to {
            let r = CallToolResult::text(format!("Counted to {}.", job.to));
            self.end_task(at, &task_id, r);
            return None;
        }
        if job.ask_at != Some(job.done) {
            return Some(job);
        }
        job.ask_at = None;
        let call = job.id.clone();
        let asked = if self.task_mut(&task_id).is_some_and(|t| t.ext.is_some()) {
            self.ext_ask_go_on(&task_id, &progress)
        } else {
            self.ask_go_on(at, &call, &progress, related(&task_id))
        };
        match asked {
            Ok(()) => {
                if let Some(t) = self.task_mut(&task_id) {
                    t.status = Status::InputRequired;
                    t.message = format!("{progress}: waiting for the answer to go on or stop");
                    t.paused = Some(job);
                }
                self.task_status(at, &task_id);
            }
            Err(e) => {
                let r = asking::missing_capability(Kind::GoOn, &e.to_string());
                self.end_task(at, &task_id, r);
            }
        }
        None
    }

    /// The client answered (or did not) the question of the task made by `call`.
    pub(crate) fn task_answered(&mut self, now: Timestamp, call: &RequestId, outcome: &AskOutcome) {
        let Some(t) = self.tasks.iter_mut().find(|t| &t.call == call) else {
            return;
        };
        // Cancelled meanwhile: the answer changes nothing.
        let Some(mut job) = t.paused.take().filter(|_| !t.status.is_terminal()) else {
            return;
        };
        let task_id = t.id.clone();
        let r = match asking::go_on_answer(outcome) {
            Ok(true) => {
                t.status = Status::Working;
                t.message = format!("counted {} of {}: going on", job.done, job.to);
                t.updated = now;
                job.next = now.after(Duration::from_millis(job.step_ms));
                self.jobs.push(job);
                return self.task_status(now, &task_id);
            }
            Ok(false) => CallToolResult::text(format!(
                "Stopped at {} of {}: you chose not to go on.",
                job.done, job.to
            )),
            Err(why) => CallToolResult::tool_error(why),
        };
        self.end_task(now, &task_id, r);
    }

    /// Ends a task with the tool's result: `completed`, or `failed` for a result
    /// with `isError` (as 2025-11-25 says of tool calls). The status goes out,
    /// then the result to every `tasks/result` held open.
    pub(crate) fn end_task(&mut self, now: Timestamp, task_id: &str, r: CallToolResult) {
        let mut result = r.to_json();
        let Some(t) = self.task_mut(task_id) else {
            return;
        };
        // The extension's `failed` is for JSON-RPC errors only: a result with
        // `isError` completes its task, and carries no related-task `_meta`.
        // Its `result` is the tool's 2026-07-28 `CallToolResult`, whose
        // `resultType` is required.
        let ext = t.ext.is_some();
        if let Value::Object(o) = &mut result {
            if ext {
                o.insert("resultType".into(), Value::from("complete"));
            } else {
                o.insert("_meta".into(), related(task_id));
            }
        }
        t.status = if r.is_error == Some(true) && !ext {
            Status::Failed
        } else {
            Status::Completed
        };
        t.message = first_text(&r);
        t.updated = now;
        t.result = Some(Ok(result.clone()));
        let waiting = std::mem::take(&mut t.waiting);
        self.task_status(now, task_id);
        for w in waiting {
            self.server.respond_result(now, &w, result.clone());
        }
    }

    /// `notifications/tasks/status` with the task as it is now (none for the
    /// extension's tasks: its `notifications/tasks` need a `subscriptions/listen`
    /// naming the task, which the demo does not offer; clients poll).
    pub(crate) fn task_status(&mut self, now: Timestamp, task_id: &str) {
        if let Some(t) = self
            .tasks
            .iter()
            .find(|t| t.id == task_id && t.ext.is_none())
        {
            let task = t.to_json();
            self.server.notify(now, "notifications/tasks/status", task);
        }
    }

    /// Answers `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel`.
    pub(crate) fn task_request(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        method: &str,
        params: &JsonObject,
    ) {
        // Ended tasks past their ttl are gone (a task still counting stays).
        self.tasks.retain(|t| {
            !t.status.is_terminal() || now < t.created.after(Duration::from_millis(t.ttl_ms))
        });
        let ext = self
            .server
            .call_context(id)
            .is_some_and(|c| c.version.generation() == Generation::Stateless);
        let answer = if ext {
            self.ext_task_request(now, method, params)
        } else if method == "tasks/list" {
            self.list_tasks(params)
        } else {
            self.about_task(now, id, method, params)
        };
        match answer {
            Ok(Some(v)) => self.server.respond_result(now, id, v),
            Ok(None) => {}
            Err(e) => self.server.respond_error(now, id, e),
        }
    }

    /// `tasks/get`, `tasks/result` (`None`: held until the task ends) or `tasks/cancel`.
    fn about_task(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        method: &str,
        params: &JsonObject,
    ) -> Result<Option<Value>, RpcError> {
        let task_id = params
            .get("taskId")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(format!("{method} needs params.taskId (a string)")))?;
        let t = self
            .task_mut(task_id)
            .ok_or_else(|| invalid(format!("no task {task_id:?}: unknown, or expired")))?;
        match method {
            "tasks/get" => Ok(Some(t.to_json())),
            "tasks/result" => match &t.result {
                Some(Ok(v)) => Ok(Some(v.clone())),
                Some(Err(e)) => Err(e.clone()),
                None => {
                    t.waiting.push(id.clone());
                    Ok(None)
                }
            },
            _ => self.cancel_task(now, task_id).map(Some),
        }
    }

    /// `tasks/cancel`: a task not yet ended stops and is `cancelled` (its
    /// `tasks/result`, now or held, is an error: it has no result); an ended one
    /// is `-32602`, as 2025-11-25 says.
    pub(crate) fn cancel_task(&mut self, now: Timestamp, task_id: &str) -> Result<Value, RpcError> {
        let t = self
            .task_mut(task_id)
            .ok_or_else(|| invalid(format!("no task {task_id:?}")))?;
        if t.status.is_terminal() {
            return Err(invalid(format!(
                "task {task_id:?} is already {}: an ended task cannot be cancelled",
                t.status.as_str()
            )));
        }
        let gone = invalid(format!(
            "task {task_id:?} was cancelled before it ended: it has no result"
        ));
        t.message = format!("Cancelled by request ({}).", t.message);
        t.status = Status::Cancelled;
        t.updated = now;
        t.paused = None;
        t.result = Some(Err(gone.clone()));
        let (call, waiting, task) = (t.call.clone(), std::mem::take(&mut t.waiting), t.to_json());
        self.jobs.retain(|j| j.task.as_deref() != Some(task_id));
        self.drop_asks(&call);
        for w in waiting {
            self.server.respond_error(now, &w, gone.clone());
        }
        Ok(task)
    }

    /// `tasks/list`: every task, [`PAGE_SIZE`] a page, oldest first.
    fn list_tasks(&self, params: &JsonObject) -> Result<Option<Value>, RpcError> {
        let len = self.tasks.len();
        let start = match params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(Value::String(c)) => c
                .strip_prefix("tasks-")
                .and_then(|n| n.parse().ok())
                .filter(|&n| n < len)
                .ok_or_else(|| invalid(format!("invalid cursor {c:?}")))?,
            Some(_) => return Err(invalid("cursor must be a string".into())),
        };
        let end = (start + PAGE_SIZE).min(len);
        let tasks: Vec<Value> = self
            .tasks
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .map(DemoTask::to_json)
            .collect();
        let mut r = json!({ "tasks": tasks });
        if end < len
            && let Value::Object(o) = &mut r
        {
            o.insert("nextCursor".into(), Value::from(format!("tasks-{end}")));
        }
        Ok(Some(r))
    }

    /// Forgets the `tasks/result` requests the client cancelled.
    pub(crate) fn drop_task_waits(&mut self, id: &RequestId) {
        for t in &mut self.tasks {
            t.waiting.retain(|w| w != id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_from_the_revisions_day() {
        assert_eq!(iso8601(Timestamp::ZERO), "2025-11-25T00:00:00.000Z");
        assert_eq!(iso8601(Timestamp(1500)), "2025-11-25T00:00:01.500Z");
        let day = 86_400_000;
        assert_eq!(
            iso8601(Timestamp(6 * day + 3_723_004)),
            "2025-12-01T01:02:03.004Z"
        );
        assert_eq!(iso8601(Timestamp(37 * day)), "2026-01-01T00:00:00.000Z");
        // 2028 is a leap year.
        assert_eq!(
            iso8601(Timestamp((37 + 365 + 365 + 59) * day)),
            "2028-02-29T00:00:00.000Z"
        );
    }
}
