//! A call that runs as a task, as step 5 shows it: the task handle the server
//! answered with, the first `tasks/get` poll and its answer (later polls and
//! status notifications are counted, not shown, so a long task does not bury the
//! card), `tasks/result` and `tasks/cancel`, and each status in the explanation.
//! Two kinds: a 2025-11-25 task the host asked for (`params.task`), and one of
//! the 2026-07-28 Tasks extension, which the host only declares on the call: the
//! server decides, so the call is a task only once its answer is a handle
//! (`resultType: "task"`); its questions are answered with `tasks/update`.

use std::collections::HashSet;

use mcpg_core::ProtocolVersion;
use mcpg_core::client::{TASKS_EXTENSION, TaskEvent, TaskRequest, TaskStatus};
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_core::model::JsonObject;
use serde_json::Value;

use super::{BlockKind, JsonBlock, Phase, ToolLoop};

/// What the loop knows of the task behind its current call.
#[derive(Clone, Debug, Default)]
pub(super) struct TaskTrack {
    /// The `tools/call` request, whose answer is the task handle.
    call_request: Option<RequestId>,
    /// The server's task id, once created.
    task_id: Option<String>,
    /// The poll interval the server asked for, in milliseconds.
    poll_ms: Option<u128>,
    /// The latest status and its message.
    status: Option<(TaskStatus, Option<String>)>,
    /// `tasks/get` requests sent, and those whose answer is still to show.
    polls: u32,
    shown_polls: HashSet<RequestId>,
    /// `notifications/tasks/status` received.
    notices: u32,
    /// A call that declared the Tasks extension (2026-07-28) rather than asked
    /// for a task.
    ext: bool,
    /// The `tasks/cancel` request, once sent: under the extension its answer
    /// ends the call.
    cancel_request: Option<RequestId>,
}

/// Whether a request declares the Tasks extension in its per-request capabilities.
fn declares_tasks(params: &Value) -> bool {
    params
        .get("_meta")
        .and_then(|m| m.get(mcpg_core::model::meta::CLIENT_CAPABILITIES))
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(TASKS_EXTENSION))
        .is_some()
}

impl ToolLoop {
    /// Whether the host should ask `name` as a 2025-11-25 task (under 2026-07-28
    /// the host asks nothing: it declares the Tasks extension on every request
    /// and the server decides): 2025-11-25, the tool's
    /// `execution.taskSupport` is `required`, or `optional` and the server declares
    /// task-augmented `tools/call` in `capabilities` (what the spec lets a host do).
    pub fn task_for(
        &self,
        name: &str,
        version: ProtocolVersion,
        capabilities: &JsonObject,
    ) -> Option<TaskRequest> {
        if version != ProtocolVersion::V2025_11_25 {
            return None;
        }
        let tool = self.tools.iter().find(|t| t.name == name)?;
        let support = tool
            .execution
            .as_ref()
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str);
        let server = capabilities
            .get("tasks")
            .and_then(|t| t.get("requests"))
            .and_then(|r| r.get("tools"))
            .and_then(|t| t.get("call"))
            .is_some();
        match support {
            Some("required") => Some(TaskRequest::default()),
            Some("optional") if server => Some(TaskRequest::default()),
            _ => None,
        }
    }

    /// A `tools/call` went out: its answer may be a task handle (asked for, or,
    /// under the extension, the server's choice).
    pub(super) fn task_call_sent(&mut self, msg: &Message) {
        let asked = msg.params().is_some_and(|p| p.get("task").is_some());
        let ext = !asked && msg.params().is_some_and(declares_tasks);
        self.task = (asked || ext).then(|| TaskTrack {
            call_request: msg.id().cloned(),
            ext,
            ..TaskTrack::default()
        });
    }

    /// Whether the current call became a task of the Tasks extension.
    pub(super) fn in_ext_task(&self) -> bool {
        self.task
            .as_ref()
            .is_some_and(|t| t.ext && t.task_id.is_some())
    }

    /// A task request the core sent while the call waits.
    pub(super) fn task_request_sent(&mut self, method: &str, msg: &Message, raw: &str) {
        let Some(t) = self.task.as_mut() else {
            return;
        };
        let label = match method {
            "tasks/get" => {
                t.polls += 1;
                if t.polls > 1 {
                    self.task_explain();
                    return;
                }
                if let Some(id) = msg.id() {
                    t.shown_polls.insert(id.clone());
                }
                "→ tasks/get: the host polls the task (sent; later polls are counted below)"
            }
            "tasks/result" => "→ tasks/result: the host asks for the tool's result (sent)",
            "tasks/cancel" => {
                t.cancel_request = msg.id().cloned();
                "→ tasks/cancel: the host cancels the task (sent)"
            }
            "tasks/update" => {
                "→ tasks/update: the host sends the answers to the task's questions (inputResponses, sent)"
            }
            _ => return,
        };
        self.push_task_block(JsonBlock::wire(BlockKind::Sent, label, raw));
        self.task_explain();
    }

    /// A message received while the call waits: the task handle, the first poll's
    /// answer, or a status notification.
    pub(super) fn task_received(&mut self, msg: &Message, raw: &str) {
        if self.phase != Phase::Calling {
            return;
        }
        let Some(t) = self.task.as_mut() else {
            return;
        };
        let label = if msg.method() == Some("notifications/tasks/status") {
            t.notices += 1;
            if t.notices > 1 {
                return;
            }
            "← notifications/tasks/status: the server says how the task moves (received; later ones are counted below)"
        } else if msg.method().is_some() {
            return;
        } else if msg.id().is_some() && msg.id() == t.call_request.as_ref() {
            let handle = msg
                .result()
                .and_then(|r| r.get("resultType"))
                .and_then(Value::as_str)
                == Some("task");
            if t.ext && !handle {
                // The server chose to answer at once: no task, step 5 as ever.
                self.task = None;
                return;
            }
            "← the task handle (CreateTaskResult): the server answers at once and works on (received)"
        } else if msg.id().is_some_and(|id| t.shown_polls.remove(id)) {
            "← tasks/get's answer (received)"
        } else {
            return;
        };
        self.push_task_block(JsonBlock::wire(BlockKind::Received, label, raw));
    }

    /// The core's account of the task.
    pub(super) fn on_task_event(&mut self, event: &TaskEvent) {
        let Some(t) = self.task.as_mut() else {
            return;
        };
        match event {
            TaskEvent::Created {
                task_id,
                poll_interval,
                ..
            } => {
                t.task_id = Some(task_id.clone());
                t.poll_ms = poll_interval.map(|d| d.as_millis());
            }
            TaskEvent::Status { status, message } => t.status = Some((*status, message.clone())),
            TaskEvent::Expired { .. } => {}
        }
        self.task_explain();
    }

    /// Whether the current call had become a task (its handle came), of either kind.
    pub(super) fn in_task(&self) -> bool {
        self.task.as_ref().is_some_and(|t| t.task_id.is_some())
    }

    /// The label of `msg`, the message that ended a call that became a task of
    /// the extension: the `tasks/cancel` acknowledgement, or the poll whose task
    /// ended (its result or error is inside: there is no `tasks/result`). `None`:
    /// the generic label.
    pub(super) fn ext_task_end_label(&self, msg: &Message) -> Option<&'static str> {
        let t = self
            .task
            .as_ref()
            .filter(|t| t.ext && t.task_id.is_some())?;
        if msg.id().is_some() && msg.id() == t.cancel_request.as_ref() {
            return Some("← tasks/cancel's answer: the server acknowledges (received)");
        }
        let r = msg.result()?;
        r.get("taskId")?;
        match r.get("status").and_then(Value::as_str)? {
            "completed" => Some(
                "← tasks/get's answer: the task completed, with the tool's result inside (received)",
            ),
            "failed" => {
                Some("← tasks/get's answer: the task failed, with its error inside (received)")
            }
            "cancelled" => Some("← tasks/get's answer: the task was cancelled (received)"),
            _ => None,
        }
    }

    fn push_task_block(&mut self, block: JsonBlock) {
        if let Some(s) = self.last_step_mut(5) {
            s.blocks.push(block);
        }
    }

    /// Step 5's explanation while the task runs.
    fn task_explain(&mut self) {
        let Some(t) = &self.task else {
            return;
        };
        let text = super::explain::task_running(
            t.task_id.as_deref(),
            (t.poll_ms, t.ext),
            t.polls,
            t.notices,
            t.status.as_ref().map(|(s, m)| (s.as_str(), m.as_deref())),
        );
        if let Some(s) = self.last_step_mut(5) {
            s.explanation = text;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use mcpg_core::model::Tool;
    use serde_json::json;

    use super::*;
    use crate::provider::{Provider, RequestOptions};

    fn run_with(support: Option<&str>) -> ToolLoop {
        let mut run = ToolLoop::new(
            "research tides",
            Provider::Anthropic,
            RequestOptions::default(),
        );
        let mut t = json!({"name": "research", "inputSchema": {"type": "object"}});
        if let Some(s) = support {
            t["execution"] = json!({"taskSupport": s});
        }
        run.tools.push(Tool::from_json(&t).unwrap());
        run
    }

    fn caps(tasks: bool) -> JsonObject {
        let v = if tasks {
            json!({"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}})
        } else {
            json!({"tools": {}})
        };
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_task_is_asked_when_the_tool_and_the_revision_allow_it() {
        let v = ProtocolVersion::V2025_11_25;
        assert!(
            run_with(Some("required"))
                .task_for("research", v, &caps(false))
                .is_some()
        );
        assert!(
            run_with(Some("optional"))
                .task_for("research", v, &caps(true))
                .is_some()
        );
        assert!(
            run_with(Some("optional"))
                .task_for("research", v, &caps(false))
                .is_none()
        );
        assert!(
            run_with(Some("forbidden"))
                .task_for("research", v, &caps(true))
                .is_none()
        );
        assert!(
            run_with(None)
                .task_for("research", v, &caps(true))
                .is_none()
        );
        assert!(
            run_with(Some("required"))
                .task_for("other", v, &caps(true))
                .is_none()
        );
        // Before 2025-11-25 `params.task` means nothing; 2026-07-28 made tasks an
        // extension.
        for old in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2026_07_28] {
            assert!(
                run_with(Some("required"))
                    .task_for("research", old, &caps(true))
                    .is_none()
            );
        }
    }

    #[test]
    fn the_message_that_ends_an_extension_task_is_named_by_what_it_carries() {
        let mut run = run_with(None);
        let label =
            |run: &ToolLoop, raw: &str| run.ext_task_end_label(&Message::decode(raw).unwrap());
        let done = r#"{"jsonrpc":"2.0","id":4,"result":{"taskId":"t","status":"completed","result":{"content":[]}}}"#;
        assert_eq!(label(&run, done), None, "no task: the generic label");
        run.task = Some(TaskTrack {
            ext: true,
            task_id: Some("t".into()),
            cancel_request: Some(RequestId::Number(9)),
            ..TaskTrack::default()
        });
        assert!(
            label(&run, done)
                .unwrap()
                .contains("completed, with the tool's result inside")
        );
        let failed = r#"{"jsonrpc":"2.0","id":4,"result":{"taskId":"t","status":"failed","error":{"code":-1,"message":"x"}}}"#;
        assert!(
            label(&run, failed)
                .unwrap()
                .contains("failed, with its error inside")
        );
        let ack = r#"{"jsonrpc":"2.0","id":9,"result":{}}"#;
        assert!(
            label(&run, ack)
                .unwrap()
                .starts_with("← tasks/cancel's answer")
        );
        // Another answer, or a JSON-RPC error: the generic label.
        assert_eq!(label(&run, r#"{"jsonrpc":"2.0","id":5,"result":{}}"#), None);
        let error = r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"no task"}}"#;
        assert_eq!(label(&run, error), None);
        // A 2025-11-25 task ends on tasks/result's answer, labelled as ever.
        run.task.as_mut().unwrap().ext = false;
        assert_eq!(label(&run, done), None);
    }
}
