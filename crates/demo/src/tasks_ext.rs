//! `count_task` under 2026-07-28, as a task of the Tasks extension
//! (`io.modelcontextprotocol/tasks`, SEP-2663), on the 2025-11-25 task code of
//! `tasks.rs`: the same store, count and question, spelled the extension's way.
//!
//! A `tools/call` that declares the extension in its per-request capabilities is
//! answered with the flat task, tagged `resultType: "task"`; one that does not is
//! refused by the core's server with `-32021` (the tool cannot run without a task).
//! The client polls `tasks/get`, which carries the status, its message, the
//! `pollIntervalMs`, and at the end the tool's `result` (a result with `isError`
//! completes the task too: the extension's `failed` is for JSON-RPC errors). With
//! `ask`, the task stops half-way in `input_required` with its question in
//! `inputRequests` (an `elicitation/create` under the key `go_on`), answered by
//! `tasks/update`'s `inputResponses`. `tasks/cancel` is acknowledged with an empty
//! result, and stops a task not yet ended. There is no `tasks/result`, no
//! `tasks/list`, no progress and no status notification (those need a
//! `subscriptions/listen` naming the task, which the demo does not offer).

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RequestId, RpcError};
use mcpg_core::model::JsonObject;
use mcpg_core::server::{AskOutcome, CannotAsk, declares, declares_tasks_extension};
use mcpg_core::version::{Generation, ProtocolVersion};
use serde_json::{Value, json};

use crate::DemoServer;
use crate::asking::{self, Kind};
use crate::tasks::{DemoTask, ExtTask, POLL_INTERVAL_MS, Status, invalid, iso8601};

impl DemoTask {
    /// The extension's `Task`: `ttlMs` and `pollIntervalMs` where 2025-11-25 says
    /// `ttl` and `pollInterval`.
    pub(crate) fn ext_json(&self) -> Value {
        json!({
            "taskId": self.id,
            "status": self.status.as_str(),
            "statusMessage": self.message,
            "createdAt": iso8601(self.created),
            "lastUpdatedAt": iso8601(self.updated),
            "ttlMs": self.ttl_ms,
            "pollIntervalMs": POLL_INTERVAL_MS,
        })
    }

    /// The `DetailedTask` of `tasks/get`: the task with what its status carries
    /// (`inputRequests` or `result`; the demo's tasks never fail with a JSON-RPC
    /// error, so never carry `error`).
    fn detailed(&self) -> Value {
        let mut t = self.ext_json();
        let Value::Object(o) = &mut t else {
            return t;
        };
        match (self.status, &self.result, &self.ext) {
            (
                Status::InputRequired,
                _,
                Some(ExtTask {
                    asking: Some((k, r)),
                    ..
                }),
            ) => {
                o.insert("inputRequests".into(), json!({ k.as_str(): r }));
            }
            (Status::Completed, Some(Ok(r)), _) => {
                o.insert("result".into(), r.clone());
            }
            _ => {}
        }
        t
    }
}

impl DemoServer {
    /// An extension task's record for call `id`, when the call runs under
    /// 2026-07-28 and declares the extension (the demo then always makes the
    /// task: `count_task` runs only as one).
    pub(crate) fn ext_task_for(&self, id: &RequestId) -> Option<ExtTask> {
        let ctx = self.server.call_context(id)?;
        let caps = &ctx.client_capabilities;
        (ctx.version.generation() == Generation::Stateless && declares_tasks_extension(caps)).then(
            || ExtTask {
                caps: caps.clone(),
                asking: None,
            },
        )
    }

    /// The extension's question: whether task `task_id` should go on
    /// (`progress` is "counted 3 of 5"), kept for `tasks/get` to carry.
    pub(crate) fn ext_ask_go_on(&mut self, task_id: &str, progress: &str) -> Result<(), CannotAsk> {
        let kind = Kind::GoOn;
        let t = self
            .task_mut(task_id)
            .ok_or_else(|| CannotAsk::UnknownMethod(kind.method().into()))?;
        let Some(ext) = t.ext.as_mut() else {
            return Err(CannotAsk::UnknownMethod(kind.method().into()));
        };
        if !declares(&ext.caps, kind.capability()) {
            return Err(CannotAsk::NotDeclared {
                capability: kind.capability(),
            });
        }
        let params = asking::params(
            kind,
            &JsonObject::new(),
            ProtocolVersion::V2026_07_28,
            progress,
        );
        let request = json!({"method": kind.method(), "params": params});
        ext.asking = Some((kind.key().to_owned(), request));
        Ok(())
    }

    /// Answers `tasks/get`, `tasks/update` or `tasks/cancel` of the extension
    /// (the core's server offers no other under 2026-07-28).
    pub(crate) fn ext_task_request(
        &mut self,
        now: Timestamp,
        method: &str,
        params: &JsonObject,
    ) -> Result<Option<Value>, RpcError> {
        let task_id = params
            .get("taskId")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(format!("{method} needs params.taskId (a string)")))?;
        let t = self
            .tasks
            .iter()
            .find(|t| t.id == task_id && t.ext.is_some())
            .ok_or_else(|| invalid(format!("no task {task_id:?}: unknown, or expired")))?;
        match method {
            "tasks/get" => Ok(Some(t.detailed())),
            "tasks/update" => {
                let responses = match params.get("inputResponses") {
                    Some(Value::Object(o)) => o.clone(),
                    _ => {
                        return Err(invalid(
                            "tasks/update needs params.inputResponses (an object)".into(),
                        ));
                    }
                };
                self.ext_update(now, task_id, &responses);
                Ok(Some(json!({})))
            }
            _ => {
                // Cooperative, as the extension says: an ended task stays as it
                // ended, and the cancel is acknowledged all the same.
                if !t.status.is_terminal() {
                    self.cancel_task(now, task_id)?;
                }
                Ok(Some(json!({})))
            }
        }
    }

    /// `tasks/update`: the answer to the outstanding question, if among the
    /// responses; every other key is ignored, as the extension says of keys not
    /// outstanding.
    fn ext_update(&mut self, now: Timestamp, task_id: &str, responses: &JsonObject) {
        let Some(t) = self.task_mut(task_id) else {
            return;
        };
        let call = t.call.clone();
        let Some(ext) = t.ext.as_mut() else { return };
        let Some(answer) = ext
            .asking
            .as_ref()
            .and_then(|(k, _)| responses.get(k))
            .cloned()
        else {
            return;
        };
        ext.asking = None;
        let outcome = match RpcError::from_value(answer.get("error").unwrap_or(&answer)) {
            Some(e) => AskOutcome::Error(e),
            None => AskOutcome::Result(answer),
        };
        self.task_answered(now, &call, &outcome);
    }
}
