//! The core's events, delivered to the operations waiting for them.

use mcpg_core::client::{CallOutcome, ConnectError, Event};
use mcpg_core::diag::Rule;
use mcpg_core::jsonrpc::RpcError;

use super::Loop;
use crate::driver::error::DriverError;
use crate::driver::report::{CallReport, Observed, ProgressUpdate};

/// Lines the server wrote that were not JSON-RPC, to explain failures that follow.
#[derive(Default)]
pub(super) struct Junk {
    pub count: usize,
    pub first: Option<String>,
}

impl Junk {
    pub fn hint(&self) -> String {
        let Some(first) = &self.first else {
            return String::new();
        };
        let shown: String = first.chars().take(80).collect();
        let lines = if self.count == 1 { "line" } else { "lines" };
        format!(
            "; the server wrote {} {lines} that {} not JSON-RPC (first: {shown:?})",
            self.count,
            if self.count == 1 { "is" } else { "are" }
        )
    }
}

impl Loop {
    /// Hands one core event to whoever waits for it (or to the observer and log).
    pub(super) fn core_event(&mut self, ev: Event) {
        let now = self.now();
        match ev {
            Event::Wire(w) => {
                self.handshakes.observe(&w);
                self.observe(Observed::Wire(w), false);
            }
            Event::Connected(n) => {
                self.handshakes.connected();
                for r in self.connects.drain(..) {
                    let _ = r.send(Ok(n.clone()));
                }
            }
            Event::ConnectFailed(why) => {
                let err = match &self.closed {
                    Some(r) if !r.requested => DriverError::Transport {
                        during: "connect".into(),
                        reason: r.reason.clone(),
                        hint: self.junk.hint(),
                    },
                    _ => DriverError::Connect(
                        ConnectError {
                            why: format!("{}{}", why.why, self.junk.hint()),
                            refused: why.refused,
                        },
                        self.handshakes.last(),
                    ),
                };
                for r in self.connects.drain(..) {
                    let _ = r.send(Err(err.clone()));
                }
                // The core gave up on this connection; the transport has no further use.
                if self.closed.is_none() {
                    self.link.close();
                }
            }
            Event::ToolsPage {
                op, tools, message, ..
            } => {
                if let Some((list, _)) = self.lists.get_mut(&op) {
                    list.pages.push(tools);
                    list.responses.push(message);
                }
            }
            Event::ToolsListed { op, .. } => {
                if let Some((list, reply)) = self.lists.remove(&op) {
                    let _ = reply.send(Ok(list));
                }
            }
            Event::ToolsListFailed { op, error, .. } => {
                if let Some((_, reply)) = self.lists.remove(&op) {
                    let _ = reply.send(Err(DriverError::from_op(
                        "tools/list",
                        error,
                        &self.junk.hint(),
                    )));
                }
            }
            Event::ToolsListChanged => {
                let o = Observed::Notification {
                    method: "notifications/tools/list_changed".into(),
                    params: None,
                };
                self.observe(o, true);
            }
            Event::Progress {
                op,
                progress,
                total,
                message,
            } => {
                if let Some((updates, _)) = self.calls.get_mut(&op) {
                    updates.push(ProgressUpdate {
                        progress,
                        total,
                        message,
                    });
                }
            }
            Event::CallFinished {
                op,
                outcome,
                message,
            } => {
                if let Some((progress, reply)) = self.calls.remove(&op) {
                    let result = match outcome {
                        CallOutcome::Failed(f) => Err(DriverError::from_failure(
                            "tools/call",
                            f,
                            &self.junk.hint(),
                        )),
                        outcome => Ok(CallReport {
                            op,
                            outcome,
                            response: message,
                            progress,
                        }),
                    };
                    let _ = reply.send(result);
                }
            }
            Event::Response { op, outcome } => {
                if let Some((method, reply)) = self.raws.remove(&op) {
                    let _ = reply.send(
                        outcome.map_err(|e| DriverError::from_op(&method, e, &self.junk.hint())),
                    );
                }
            }
            Event::ServerRequest {
                id,
                method,
                params,
                answered,
                ..
            } => {
                if !answered {
                    let result = match self.handler.as_mut() {
                        Some(h) => h(&method, params.as_ref()),
                        None => Err(RpcError::new(
                            mcpg_core::jsonrpc::code::METHOD_NOT_FOUND,
                            format!("this client does not handle {method}"),
                        )),
                    };
                    self.client.answer(now, &id, result);
                }
                self.observe(
                    Observed::ServerRequest {
                        method,
                        by_core: answered,
                    },
                    true,
                );
            }
            Event::Notification { method, params } => {
                self.observe(Observed::Notification { method, params }, true)
            }
            Event::Diagnostic(d) => {
                if matches!(d.rule, Rule::MalformedJson | Rule::NotJsonRpc) {
                    self.junk.count += 1;
                    if self.junk.first.is_none() {
                        self.junk.first = d.raw.as_deref().map(str::to_owned);
                    }
                }
                self.observe(Observed::Diagnostic(d), true);
            }
            Event::Closed(_) => {}
            Event::Task { op, event } => self.observe(Observed::Task { op, event }, true),
            // Resources, prompts, completions and logging: `catalog.rs`.
            ev @ (Event::ListPage { .. }
            | Event::Listed { .. }
            | Event::ListFailed { .. }
            | Event::Answered { .. }
            | Event::ResourceUpdated { .. }
            | Event::ResourcesListChanged
            | Event::PromptsListChanged
            | Event::Log(_)) => self.catalog_event(ev),
        }
    }
}
