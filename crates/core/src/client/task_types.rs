//! Tasks as the client sees them (2025-11-25, and the 2026-07-28 Tasks extension):
//! what a call asks for, the statuses a task moves through, the events it raises,
//! and the server's `Task` read from JSON.

use std::time::Duration;

use serde_json::Value;

/// The Tasks extension's identifier (SEP-2663), under `capabilities.extensions`
/// (the client's per-request capabilities, the server's `server/discover` answer).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Asks for a task-augmented `tools/call` (2025-11-25 `params.task`): the server
/// answers at once with a task handle, and the client polls until it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskRequest {
    /// How long the server should keep the task from its creation; the server may
    /// choose another value (it says which in the task).
    pub ttl: Option<Duration>,
}

/// The status of a task (2025-11-25 `TaskStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskStatus {
    /// The task is running.
    Working,
    /// The task waits for the client. 2025-11-25: the server sends its elicitation
    /// or sampling request through the usual server-request path. The extension:
    /// the task carries `inputRequests`, answered with `tasks/update`.
    InputRequired,
    /// The task finished; its result is fetched with `tasks/result` (2025-11-25) or
    /// comes in the task itself (the extension).
    Completed,
    /// The task failed; `tasks/result` (2025-11-25) or the task's `error` (the
    /// extension) carries the failure.
    Failed,
    /// The task was cancelled.
    Cancelled,
}

impl TaskStatus {
    /// The status named `s` on the wire, if it is one.
    pub fn parse(s: &str) -> Option<TaskStatus> {
        Some(match s {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            _ => return None,
        })
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the task can no longer change (spec: terminal statuses are final).
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

impl std::fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What happened to the task behind a call. The call itself still ends with one
/// [`super::Event::CallFinished`] carrying the tool's result, so a host that does
/// not care about tasks needs nothing new.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskEvent {
    /// The server answered the call with a task handle.
    Created {
        /// The server's task id.
        task_id: String,
        /// How long the server keeps the task (`None`: unlimited).
        ttl: Option<Duration>,
        /// The polling interval the server suggested, if any.
        poll_interval: Option<Duration>,
    },
    /// The status or its message changed (from `tasks/get`, a
    /// `notifications/tasks/status` or `notifications/tasks`, or a 2025-11-25
    /// `tasks/cancel` answer).
    Status {
        /// The new status.
        status: TaskStatus,
        /// `statusMessage`, if any.
        message: Option<String>,
    },
    /// The task outlived its `ttl` (plus slack) without ending: polling stopped and
    /// the call ends with [`super::Failure::TaskExpired`].
    Expired {
        /// The server's task id.
        task_id: String,
    },
}

/// Which `Task` is read: its members' names and what it must carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TaskShape {
    /// 2025-11-25: `ttl`, `pollInterval`.
    Core,
    /// The extension's `CreateTaskResult` (a `Task`: `ttlMs`, `pollIntervalMs`).
    Handle,
    /// The extension's `DetailedTask` (`tasks/get`, `notifications/tasks`): a
    /// `Task` plus `inputRequests`, `result` or `error` as its status asks.
    Detailed,
}

impl TaskShape {
    /// The spec's name for the shape, for diagnostics.
    pub fn name(self) -> &'static str {
        match self {
            TaskShape::Core => "2025-11-25 Task",
            TaskShape::Handle => "CreateTaskResult of io.modelcontextprotocol/tasks",
            TaskShape::Detailed => "DetailedTask of io.modelcontextprotocol/tasks",
        }
    }
}

/// The members of a `Task` the client acts on.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct TaskInfo {
    pub task_id: String,
    pub status: TaskStatus,
    pub message: Option<String>,
    /// `None` for unlimited (`null`) or absent.
    pub ttl: Option<Duration>,
    pub poll_interval: Option<Duration>,
    /// Required members the server left out or sent with the wrong type.
    pub missing: Vec<&'static str>,
    /// The extension's `DetailedTask` payload: `inputRequests`, `result` or
    /// `error`, whichever the status carries (objects only).
    pub payload: Option<Value>,
}

impl TaskInfo {
    /// Reads a `Task` of `shape`. `Err` names why it cannot be used at all (no id
    /// or no known status); lesser faults are listed in `missing`.
    pub fn read(v: &Value, shape: TaskShape) -> Result<TaskInfo, String> {
        let Some(obj) = v.as_object() else {
            return Err(format!(
                "the task is {}, not an object",
                crate::validate::kind_of(v)
            ));
        };
        let (ttl_key, poll_key) = match shape {
            TaskShape::Core => ("ttl", "pollInterval"),
            TaskShape::Handle | TaskShape::Detailed => ("ttlMs", "pollIntervalMs"),
        };
        let mut missing = Vec::new();
        for (key, ok) in [
            (
                "createdAt",
                obj.get("createdAt").is_some_and(Value::is_string),
            ),
            (
                "lastUpdatedAt",
                obj.get("lastUpdatedAt").is_some_and(Value::is_string),
            ),
            (
                ttl_key,
                obj.get(ttl_key).is_some_and(|t| t.is_null() || t.is_u64()),
            ),
        ] {
            if !ok {
                missing.push(key);
            }
        }
        let task_id = match obj.get("taskId").and_then(Value::as_str) {
            Some(id) => id.to_owned(),
            None => return Err("the task has no taskId string".into()),
        };
        let status = match obj.get("status").and_then(Value::as_str) {
            Some(s) => TaskStatus::parse(s).ok_or_else(|| {
                format!(
                    "the task's status {:?} is not a TaskStatus",
                    crate::validate::truncate(s, 40)
                )
            })?,
            None => return Err("the task has no status string".into()),
        };
        // What a DetailedTask carries for its status (the spec's status variants).
        let payload_key = match (shape, status) {
            (TaskShape::Detailed, TaskStatus::InputRequired) => Some("inputRequests"),
            (TaskShape::Detailed, TaskStatus::Completed) => Some("result"),
            (TaskShape::Detailed, TaskStatus::Failed) => Some("error"),
            _ => None,
        };
        let payload = payload_key.and_then(|k| obj.get(k).filter(|p| p.is_object()).cloned());
        if let Some(key) = payload_key
            && payload.is_none()
        {
            missing.push(key);
        }
        let millis = |key: &str| {
            obj.get(key)
                .and_then(Value::as_u64)
                .map(Duration::from_millis)
        };
        Ok(TaskInfo {
            task_id,
            status,
            message: obj
                .get("statusMessage")
                .and_then(Value::as_str)
                .map(str::to_owned),
            ttl: millis(ttl_key),
            poll_interval: millis(poll_key),
            missing,
            payload,
        })
    }
}

/// Which request about a task is in flight (both kinds: a type of its own, so
/// the 2025-11-25 code and the extension's share it without importing each other).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TaskStep {
    Get,
    /// 2025-11-25 only.
    Result,
    Cancel,
    /// The extension only: `inputResponses` for an `input_required` task.
    Update,
}

impl TaskStep {
    pub(super) fn method(self) -> &'static str {
        match self {
            TaskStep::Get => "tasks/get",
            TaskStep::Result => "tasks/result",
            TaskStep::Cancel => "tasks/cancel",
            TaskStep::Update => "tasks/update",
        }
    }
}
