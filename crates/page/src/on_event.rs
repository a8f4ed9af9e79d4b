//! The core's events as the first screen reads them: the wire log, the connection,
//! the Tools panel's list. The later parts see each event after it (`later.rs`).

use std::sync::Arc;

use mcpg_core::Generation;
use mcpg_core::client::{Direction, Event, Negotiated};
use mcpg_core::jsonrpc::{Body, Message, RequestId};
use mcpg_loop_data::PageRecord;

use crate::later::{Later, for_later};
use crate::links::Link;
use crate::log::LogRow;
use crate::page::Page;
use crate::view::{Conn, ServerInfo, ViewChange};

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

fn server_info(n: &Negotiated, transport: String) -> ServerInfo {
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
        transport,
    }
}

impl Page {
    /// How the current link reaches the server, for the Server panel.
    fn transport_text(&self) -> String {
        match &self.link {
            Link::None => String::new(),
            Link::Memory(_) => "none: the demo server runs inside this page".into(),
            Link::Replay(_) => "none: a recording answers".into(),
            Link::Ws { .. } => "stdio, through the bridge (mcpg serve)".into(),
            Link::Http(l) => l
                .machine
                .transport()
                .unwrap_or_else(|| "Streamable HTTP".into()),
        }
    }

    pub(crate) fn on_event(&mut self, ev: Event) {
        if for_later(&ev) {
            self.queue_later(Later::Event(ev));
            return;
        }
        // The loop sees every event too.
        self.tell_later(Later::Event(ev.clone()));
        match ev {
            Event::Wire(w) => {
                let seq = self.log.next_seq();
                let summary = w
                    .message
                    .as_ref()
                    .map_or_else(|| "not JSON-RPC".to_owned(), |m| summary(m, &self.methods));
                let sent = w.direction == Direction::Sent;
                let at_ms = w.at.as_millis().saturating_sub(self.started.as_millis());
                let raw: Arc<str> = w.raw;
                if sent && summary == "resources/read" {
                    self.tell_later(Later::ReadSent(raw.clone()));
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
                let transport = self.transport_text();
                self.emit(ViewChange::Server(Some(Box::new(server_info(
                    &n, transport,
                )))));
                self.emit(ViewChange::Conn(Conn::Ready));
                self.list_tools();
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
                    tools: tools.into(),
                    next_cursor,
                });
                self.pages_dirty = true;
            }
            Event::ToolsListed { op, .. } if Some(op) == self.list_op => {
                self.list_op = None;
                self.first_listing_ended(true);
            }
            Event::ToolsListFailed { op, error, .. } if Some(op) == self.list_op => {
                self.list_op = None;
                self.note(format!("tools/list failed: {error}"));
                self.first_listing_ended(false);
            }
            Event::ToolsListChanged
                if self
                    .host_pitfalls()
                    .has(mcpg_loop_data::Pitfall::IgnoreListChanged) =>
            {
                self.note("the server says its tool list changed (notifications/tools/list_changed): the naive host ignores it and keeps its stale list");
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
                self.note(format!("connection closed: {why}"));
                self.emit(ViewChange::Conn(Conn::Closed(why)));
            }
            _ => {}
        }
    }

    /// Lists every tool for the Tools panel.
    pub fn list_tools(&mut self) {
        self.pages.clear();
        self.list_op = Some(self.client.list_tools(self.now));
    }
}
