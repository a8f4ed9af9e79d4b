//! The loop's side of resources, prompts, completions and logging: starting the
//! core's operations, filing their pages and answers, and passing the server's
//! updates to whoever watches.

use std::collections::HashMap;

use mcpg_core::Timestamp;
use mcpg_core::client::{Answer, Client, Event, ListKind, OpId};
use serde_json::Value;
use tokio::sync::mpsc;

use super::{Loop, Reply};
use crate::driver::catalog::{AnswerReport, Pages, Update};
use crate::driver::error::DriverError;
use crate::driver::report::Observed;

/// Starts one core operation; `None` when the core needs no request (a log level
/// that 2026-07-28 only stamps on later requests).
pub(crate) type Start = Box<dyn FnOnce(&mut Client, Timestamp) -> Option<OpId> + Send>;

/// What the driver handle asks of the loop for these operations.
pub(crate) enum CatalogCmd {
    /// A paged listing, every page.
    List { kind: ListKind, reply: Reply<Pages> },
    /// One request with a typed answer; `during` names it in errors.
    Ask {
        during: String,
        start: Start,
        reply: Reply<AnswerReport>,
    },
    /// Receive every later [`Update`].
    Watch(mpsc::UnboundedSender<Update>),
}

/// The operations in flight and the watchers.
#[derive(Default)]
pub(crate) struct Waiting {
    lists: HashMap<OpId, (ListKind, Pages, Reply<Pages>)>,
    asks: HashMap<OpId, (String, Reply<AnswerReport>)>,
    watchers: Vec<mpsc::UnboundedSender<Update>>,
}

impl Loop {
    pub(super) fn catalog_command(&mut self, cmd: CatalogCmd) {
        let now = self.now();
        match cmd {
            CatalogCmd::List { kind, reply } => {
                let op = match kind {
                    ListKind::Resources => self.client.list_resources(now),
                    ListKind::Templates => self.client.list_resource_templates(now),
                    ListKind::Prompts => self.client.list_prompts(now),
                };
                self.waiting
                    .lists
                    .insert(op, (kind, Pages::default(), reply));
            }
            CatalogCmd::Ask {
                during,
                start,
                reply,
            } => match start(&mut self.client, now) {
                Some(op) => {
                    self.waiting.asks.insert(op, (during, reply));
                }
                None => {
                    let _ = reply.send(Ok(AnswerReport {
                        answer: Answer::Done,
                        response: None,
                    }));
                }
            },
            CatalogCmd::Watch(tx) => self.waiting.watchers.push(tx),
        }
    }

    /// Files the events of these operations (`route.rs` sends only those here).
    pub(super) fn catalog_event(&mut self, ev: Event) {
        match ev {
            Event::ListPage {
                op, items, message, ..
            } => {
                if let Some((_, pages, _)) = self.waiting.lists.get_mut(&op) {
                    pages.items.push(items);
                    pages.responses.push(message);
                }
            }
            Event::Listed { op, .. } => {
                if let Some((_, pages, reply)) = self.waiting.lists.remove(&op) {
                    let _ = reply.send(Ok(pages));
                }
            }
            Event::ListFailed { op, error, .. } => {
                if let Some((kind, _, reply)) = self.waiting.lists.remove(&op) {
                    let hint = self.junk.hint();
                    let _ = reply.send(Err(DriverError::from_op(kind.method(), error, &hint)));
                }
            }
            Event::Answered {
                op,
                outcome,
                message,
            } => {
                if let Some((during, reply)) = self.waiting.asks.remove(&op) {
                    let hint = self.junk.hint();
                    let _ = reply.send(
                        outcome
                            .map(|answer| AnswerReport {
                                answer,
                                response: message,
                            })
                            .map_err(|e| DriverError::from_op(&during, e, &hint)),
                    );
                }
            }
            Event::ResourceUpdated { uri } => {
                let params = Some(serde_json::json!({ "uri": uri }));
                self.notified("notifications/resources/updated", params);
                self.tell(Update::ResourceUpdated { uri });
            }
            Event::ResourcesListChanged => {
                self.notified("notifications/resources/list_changed", None);
                self.tell(Update::ResourcesListChanged);
            }
            Event::PromptsListChanged => {
                self.notified("notifications/prompts/list_changed", None);
                self.tell(Update::PromptsListChanged);
            }
            Event::Log(m) => {
                self.notified("notifications/message", Some(m.to_json()));
                self.tell(Update::Log(Box::new(m)));
            }
            _ => {}
        }
    }

    /// Observers and the log see these notifications as before the core typed them.
    fn notified(&self, method: &str, params: Option<Value>) {
        let method = method.to_owned();
        self.observe(Observed::Notification { method, params }, true);
    }

    /// Sends an update to every watcher still listening.
    fn tell(&mut self, update: Update) {
        self.waiting
            .watchers
            .retain(|w| w.send(update.clone()).is_ok());
    }
}
