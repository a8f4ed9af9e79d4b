//! The core's events, and the loop's state turned into view changes (only what
//! changed since the last time, so the shell writes each signal once per change).

use std::sync::Arc;

use mcpg_core::Generation;
use mcpg_core::client::{CallOutcome, Direction, Event, Negotiated};
use mcpg_core::jsonrpc::{Body, Message, RequestId};
use mcpg_host::Action;
use mcpg_host::tool_loop::PageRecord;

use crate::driver::PageDriver;
use crate::later::Later;
use crate::log::LogRow;
use crate::view::{CallView, Conn, ServerInfo, Source, ViewChange};

fn summary(msg: &Message, methods: &std::collections::HashMap<RequestId, String>) -> String {
    match msg.body() {
        Body::Request { method, .. } | Body::Notification { method, .. } => method.clone(),
        Body::Response { id, .. } => match methods.get(id) {
            Some(m) => format!("result of {m}"),
            None => "result".to_owned(),
        },
        Body::Error { id, error } => match id.as_ref().and_then(|i| methods.get(i)) {
            Some(m) => format!("error {} on {m}", error.code),
            None => format!("error {}", error.code),
        },
    }
}

fn server_info(n: &Negotiated) -> ServerInfo {
    let info = n.server_info.clone().unwrap_or_default();
    ServerInfo {
        name: info.name,
        version: info.version,
        title: info.title,
        protocol: n.version.as_str().to_owned(),
        generation: match n.version.generation() {
            Generation::Initialize => "initialize handshake".to_owned(),
            Generation::Stateless => "stateless (server/discover, no handshake)".to_owned(),
        },
        capabilities: serde_json::to_string_pretty(&serde_json::Value::Object(
            n.capabilities.clone(),
        ))
        .unwrap_or_default(),
        instructions: n.instructions.clone(),
    }
}

impl PageDriver {
    pub(crate) fn on_event(&mut self, ev: Event) {
        if let (Some(run), Some(engine)) = (&mut self.run, self.engine) {
            engine.0.on_event(run, &ev);
        }
        if crate::later::for_engine(&ev) {
            self.through_engine(Later::Event(ev));
            return;
        }
        match ev {
            Event::Wire(w) => {
                let seq = self.log.next_seq();
                let summary = Message::decode(&w.raw)
                    .map(|m| summary(&m, &self.methods))
                    .unwrap_or_else(|_| "not JSON-RPC".to_owned());
                let sent = w.direction == Direction::Sent;
                let at_ms = w.at.as_millis().saturating_sub(self.started.as_millis());
                let raw: Arc<str> = w.raw;
                if sent && summary == "resources/read" {
                    self.read_sent(&raw);
                }
                self.recorder.record_wire(sent, at_ms, raw.clone());
                self.log.push(LogRow::Wire {
                    seq,
                    sent,
                    at_ms,
                    size: raw.len(),
                    summary,
                    raw,
                });
            }
            Event::Connected(n) => {
                self.emit(ViewChange::Server(Some(Box::new(server_info(&n)))));
                self.emit(ViewChange::Conn(Conn::Ready));
                self.list_tools();
                self.relist_features();
            }
            Event::ConnectFailed(e) => {
                self.note(format!("connection failed: {e}"));
                self.emit(ViewChange::Conn(Conn::Closed(e.why)));
            }
            Event::ToolsPage {
                op,
                page,
                tools,
                next_cursor,
                ..
            } if Some(op) == self.list_op => {
                self.pages.push(PageRecord {
                    page,
                    tools,
                    next_cursor,
                });
                self.pages_dirty = true;
            }
            Event::ToolsListed { op, .. } if Some(op) == self.list_op => {
                self.list_op = None;
                if self.source == Source::Demo && !self.first_list_done {
                    self.first_list_done = true;
                    self.emit(ViewChange::FirstToolList);
                }
            }
            Event::ToolsListFailed { op, error, .. } if Some(op) == self.list_op => {
                self.list_op = None;
                self.note(format!("tools/list failed: {error}"));
            }
            Event::ToolsListChanged => {
                self.note("the server says its tool list changed (notifications/tools/list_changed): listing again");
                self.list_tools();
            }
            Event::Diagnostic(d) => {
                let seq = self.log.next_seq();
                self.log.push(LogRow::Diag {
                    seq,
                    severity: format!("{:?}", d.severity).to_ascii_lowercase(),
                    rule: d.rule.id().to_owned(),
                    message: d.message,
                });
            }
            Event::ServerRequest {
                answered: true,
                method,
                ..
            } => self.note(format!(
                "the server sent a {method} request: the core answered it"
            )),
            Event::Closed(why) => {
                self.forget_asks();
                self.note(format!("connection closed: {why}"));
                self.emit(ViewChange::Conn(Conn::Closed(why)));
                self.set_running(false);
            }
            _ => {}
        }
    }

    /// Lists every tool for the Tools panel.
    pub(crate) fn list_tools(&mut self) {
        self.pages.clear();
        self.list_op = Some(self.client.list_tools(self.now));
    }

    pub(crate) fn set_running(&mut self, on: bool) {
        self.running = on;
        if !on {
            self.pace_due = None;
        }
        if self.shown.running != on {
            self.shown.running = on;
            self.emit(ViewChange::Running(on));
        }
    }

    pub(crate) fn set_model_busy(&mut self, on: bool) {
        if self.shown.model_busy != on {
            self.shown.model_busy = on;
            self.emit(ViewChange::ModelBusy(on));
        }
    }

    /// Whether the loop has something to do now (not waiting, not done).
    pub(crate) fn actionable(&self) -> bool {
        self.run
            .as_ref()
            .is_some_and(|r| !matches!(r.next(), Action::Wait | Action::Done))
    }

    /// Turns the loop's state into view changes (only what changed).
    pub(crate) fn sync_loop(&mut self) {
        let Some(run) = &self.run else { return };
        let mut changes = Vec::new();
        let sh = &mut self.shown;
        if sh.steps.as_slice() != run.steps() {
            sh.steps = run.steps().to_vec();
            changes.push(ViewChange::Steps(sh.steps.clone()));
        }
        let next = run.next_step_number();
        if sh.next_step != next {
            sh.next_step = next;
            changes.push(ViewChange::NextStep(next));
        }
        let active = !run.is_done();
        if sh.loop_active != active {
            sh.loop_active = active;
            changes.push(ViewChange::LoopActive(active));
        }
        if sh.turns.as_slice() != run.turns() {
            sh.turns = run.turns().to_vec();
            changes.push(ViewChange::Turns(sh.turns.clone()));
        }
        if sh.rounds != run.rounds() {
            sh.rounds = run.rounds();
            changes.push(ViewChange::Rounds(sh.rounds));
        }
        let answer = run.answer().map(str::to_owned);
        if sh.answer != answer {
            sh.answer.clone_from(&answer);
            changes.push(ViewChange::Answer(answer));
        }
        let progress = run.progress().cloned();
        if sh.progress != progress {
            sh.progress.clone_from(&progress);
            changes.push(ViewChange::Progress(progress));
        }
        // When the loop's listing completes it is the latest one: the Tools panel shows it.
        if !self.run_pages_shown
            && !run.pages().is_empty()
            && run.next_step_number().is_none_or(|n| n > 1)
        {
            self.run_pages_shown = true;
            if self.pages.as_slice() != run.pages() {
                self.pages = run.pages().to_vec();
                self.pages_dirty = true;
            }
        }
        let view = run.call().map(|c| CallView {
            tool: c.name.clone(),
            arguments: c.arguments.clone(),
            outcome: run.outcome().cloned(),
            check: match (run.called_tool(), run.outcome()) {
                (Some(t), Some(CallOutcome::Success(r) | CallOutcome::ToolError(r))) => {
                    self.engine.and_then(|e| e.0.check(t, r))
                }
                _ => None,
            },
        });
        if view.is_some() && sh.call != view {
            sh.call.clone_from(&view);
            changes.push(ViewChange::Call(view.map(Box::new)));
        }
        if !active && self.running {
            self.set_running(false);
        }
        for c in changes {
            self.emit(c);
        }
    }
}
