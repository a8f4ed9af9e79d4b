//! The demo's answers to the client's requests: tool calls (the asking tools too),
//! resource reads, prompts and completions, the slow tool's steps and the URL
//! steps. The server reaches this code only through [`crate::Handlers`], so a host
//! can leave it out of its first download (see `hook.rs`).

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RequestId, RpcError, code};
use mcpg_core::model::{CallToolResult, JsonObject, LoggingLevel};
use mcpg_core::server::{ServerEvent, declares_tasks_extension};
use mcpg_core::version::ProtocolVersion;
use serde_json::{Value, json};

use crate::content::{self, CALLS_URI};
use crate::handlers::{self, Reply};
use crate::{DemoServer, Job, LOGGER, asking, catalogue};

impl DemoServer {
    /// Answers one request of the client's (other events need nothing).
    pub(crate) fn serve(&mut self, now: Timestamp, ev: &ServerEvent) {
        match ev {
            ServerEvent::CallTool {
                id,
                name,
                arguments,
                progress_token,
                task,
            } => self.call(
                now,
                id,
                (name, arguments),
                progress_token.as_ref(),
                task.as_ref(),
            ),
            ServerEvent::TaskRequest { id, method, params } => {
                self.task_request(now, id, method, params);
            }
            ServerEvent::ReadResource {
                id, uri, variables, ..
            } => match content::read(uri, variables, &self.calls) {
                Ok(contents) => self.server.respond_read(now, id, contents),
                Err(e) => self.server.respond_error(now, id, e),
            },
            ServerEvent::GetPrompt {
                id,
                name,
                arguments,
            } => match content::get_prompt(name, arguments, &self.offered_tools(id)) {
                Ok((description, messages)) => {
                    self.server
                        .respond_prompt(now, id, Some(&description), messages);
                }
                Err(e) => self.server.respond_error(now, id, e),
            },
            ServerEvent::Complete {
                id,
                argument,
                value,
                context,
                ..
            } => {
                let tools = self.offered_tools(id);
                let values = content::complete(argument, value, context, &tools);
                self.server.respond_completion(now, id, values);
            }
            ServerEvent::Cancelled { id, .. } => {
                // A task's count goes on: its call was answered with the handle.
                self.jobs.retain(|j| &j.id != id || j.task.is_some());
                self.drop_asks(id);
                self.drop_task_waits(id);
            }
            ServerEvent::Answered { id, outcome, .. } => self.answered(now, id, outcome),
            _ => {}
        }
    }

    /// The tools offered to request `id` (`count_task` under 2025-11-25, and under
    /// 2026-07-28 to a request that declares the Tasks extension), for the prompt
    /// and the completion that name tools.
    fn offered_tools(&self, id: &RequestId) -> Vec<mcpg_core::model::Tool> {
        let Some(ctx) = self.server.call_context(id) else {
            return self.server.tools().to_vec();
        };
        let declared = declares_tasks_extension(&ctx.client_capabilities);
        self.server
            .tools()
            .iter()
            .filter(|t| self.server.lists_tool(t, ctx.version, declared))
            .cloned()
            .collect()
    }

    /// Advances the URL steps and the slow jobs (tasks' counts too) to `now`.
    pub(crate) fn advance(&mut self, now: Timestamp) {
        self.complete_links(now);
        let mut i = 0;
        while i < self.jobs.len() {
            let job = &mut self.jobs[i];
            let mut last = None;
            while job.next <= now && job.done < job.to {
                job.done += 1;
                if let Some(t) = &job.token {
                    match &job.task {
                        Some(task) => {
                            let p = crate::tasks::progress_params(t, job.done, job.to, task);
                            self.server.notify(job.next, "notifications/progress", p);
                        }
                        None => {
                            let msg = format!("counted {} of {}", job.done, job.to);
                            self.server.progress(
                                job.next,
                                t,
                                f64::from(job.done),
                                Some(f64::from(job.to)),
                                Some(&msg),
                            );
                        }
                    }
                }
                last = Some(job.next);
                job.next = job
                    .next
                    .after(std::time::Duration::from_millis(job.step_ms));
                // A task that asks stops here until it has its answer.
                if job.ask_at == Some(job.done) {
                    break;
                }
            }
            if let (Some(at), Some(_)) = (last, &job.task) {
                let job = self.jobs.remove(i);
                if let Some(job) = self.task_counted(at, job) {
                    self.jobs.insert(i, job);
                    i += 1;
                }
                continue;
            }
            if job.task.is_some() {
                i += 1;
            } else if job.done >= job.to {
                let job = self.jobs.remove(i);
                self.server.respond(
                    now,
                    &job.id,
                    &CallToolResult::text(format!("Counted to {}.", job.to)),
                );
            } else {
                i += 1;
            }
        }
    }

    /// Runs a tool, with log messages at several levels (sent only when the client
    /// asked for them), then counts the call in calls.json and tells subscribers.
    fn call(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        (name, arguments): (&str, &JsonObject),
        progress_token: Option<&Value>,
        task: Option<&JsonObject>,
    ) {
        let schema = self
            .server
            .tools()
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.input_schema.clone());
        if let Some(why) = schema.and_then(|s| crate::types::wrong_type(name, &s, arguments)) {
            // The tool never runs, so it is not counted either. Since 2025-11-25
            // (SEP-1303) an input validation error is a tool error the model can
            // read and correct; before, the spec listed invalid arguments among the
            // protocol errors (-32602).
            // A call asked as a task (2025-11-25) gets its handle all the same.
            let revision = self.server.call_context(id).map(|c| c.version);
            if let Some(task) = task {
                self.task_at_once(now, id, task, CallToolResult::tool_error(why));
            } else if revision.is_some_and(|v| v < ProtocolVersion::V2025_11_25) {
                self.server
                    .respond_error(now, id, RpcError::new(code::INVALID_PARAMS, why));
            } else {
                self.server
                    .respond(now, id, &CallToolResult::tool_error(why));
            }
            return;
        }
        let debug = json!({"tool": name, "arguments": arguments});
        self.log(now, id, LoggingLevel::Debug, debug);
        let reply = match asking::Kind::of(name) {
            Some(kind) => Reply::Ask(kind),
            None => handlers::run(name, arguments),
        };
        match reply {
            Reply::Now(r) => match task {
                Some(task) => self.task_at_once(now, id, task, *r),
                None => self.answer(now, id, name, *r),
            },
            Reply::Task { to, step_ms, ask } => {
                self.start_task(now, id, task, (to, step_ms, ask), progress_token);
            }
            Reply::Ask(kind) => self.ask(now, id, kind, name, arguments),
            Reply::Slow { to, step_ms } => {
                let said = format!("{name}: counting to {to}, one step every {step_ms} ms");
                self.log(now, id, LoggingLevel::Info, Value::from(said));
                self.jobs.push(Job {
                    id: id.clone(),
                    token: progress_token.cloned(),
                    to,
                    done: 0,
                    step_ms,
                    next: now.after(std::time::Duration::from_millis(step_ms)),
                    task: None,
                    ask_at: None,
                });
            }
            Reply::Toggle => {
                let said = "the tool list is about to change";
                self.log(now, id, LoggingLevel::Notice, Value::from(said));
                self.toggle(now, id);
            }
        }
        self.calls.count += 1;
        self.calls.last = Some(name.to_owned());
        self.server.resource_updated(now, CALLS_URI);
    }

    /// Answers a call, logging `info`, or `warning` for `isError`.
    pub(crate) fn answer(&mut self, now: Timestamp, id: &RequestId, name: &str, r: CallToolResult) {
        let (level, said) = if r.is_error == Some(true) {
            (LoggingLevel::Warning, format!("{name} returned isError"))
        } else {
            (LoggingLevel::Info, format!("{name} answered"))
        };
        self.log(now, id, level, Value::from(said));
        self.server.respond(now, id, &r);
    }

    fn log(&mut self, now: Timestamp, id: &RequestId, level: LoggingLevel, data: Value) {
        self.server.log(now, Some(id), level, Some(LOGGER), data);
    }

    fn toggle(&mut self, now: Timestamp, id: &RequestId) {
        let mut tools = self.server.tools().to_vec();
        let had = tools.iter().any(|t| t.name == catalogue::BONUS);
        let text = if had {
            tools.retain(|t| t.name != catalogue::BONUS);
            format!("Removed {}; the tool list changed.", catalogue::BONUS)
        } else {
            // Before the task tool, which stays last (it is listed under 2025-11-25 only).
            let at = tools
                .iter()
                .position(|t| t.name == catalogue::TASK)
                .unwrap_or(tools.len());
            if let Some(bonus) = catalogue::bonus_tool() {
                tools.insert(at, bonus);
            }
            format!("Added {}; the tool list changed.", catalogue::BONUS)
        };
        // Answer first, then announce: the client sees the result, then the change.
        self.server.respond(now, id, &CallToolResult::text(text));
        self.server.set_tools(now, tools);
    }
}
