//! The core's events for resources, prompts, completions and logs, turned into what
//! the panels show. An answer is matched to its panel by its operation: a late
//! answer to a question the learner has since replaced is not shown.

use std::sync::Arc;

use mcpg_core::client::{Answer, Event, ListItems, OpError, OpId};
use mcpg_core::jsonrpc::Message;
use mcpg_core::model::LogMessage;
use serde_json::Value;

use super::FeatureCtx;
use super::view::{FeatureChange, ListPage, ListState, LogEntry, SubState};
use super::{LOG_MESSAGES, Tracked};

/// Adds a page to `t` when `op` is its listing; whether it was.
fn add_page<T>(
    t: &mut Tracked<T>,
    op: OpId,
    page: u32,
    items: Vec<T>,
    next: Option<String>,
) -> bool {
    if t.op != Some(op) {
        return false;
    }
    t.view.pages.push(ListPage {
        page,
        items,
        next_cursor: next,
    });
    true
}

/// Ends `t`'s listing when `op` is it; whether it was.
fn end_listing<T>(t: &mut Tracked<T>, op: OpId, state: ListState) -> bool {
    if t.op != Some(op) {
        return false;
    }
    t.op = None;
    t.view.state = state;
    true
}

/// The text of a log message's `data`: a string as it is, anything else as JSON.
fn data_text(data: &Value) -> String {
    match data {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Why an answer of the wrong kind cannot be shown.
fn unexpected(answer: &Answer) -> String {
    match answer {
        Answer::InputRequired(_) => {
            "the server asked for more input first (InputRequiredResult), which this page does not answer yet".to_owned()
        }
        _ => "the server's answer is not the kind this request expects".to_owned(),
    }
}

fn raw(message: Option<&Message>) -> Option<Arc<str>> {
    message.map(|m| Arc::from(m.raw()))
}

impl FeatureCtx<'_> {
    /// One event of these panels (the tool loop's own go elsewhere).
    pub(crate) fn on_feature_event(&mut self, ev: Event) {
        match ev {
            Event::ListPage {
                op,
                page,
                items,
                next_cursor,
                ..
            } => {
                let f = &mut self.features;
                let change = match items {
                    ListItems::Resources(r) => add_page(&mut f.resources, op, page, r, next_cursor)
                        .then(|| FeatureChange::Resources(f.resources.view.clone())),
                    ListItems::Templates(t) => add_page(&mut f.templates, op, page, t, next_cursor)
                        .then(|| FeatureChange::Templates(f.templates.view.clone())),
                    ListItems::Prompts(p) => add_page(&mut f.prompts, op, page, p, next_cursor)
                        .then(|| FeatureChange::Prompts(f.prompts.view.clone())),
                };
                if let Some(change) = change {
                    self.emit_feature(change);
                }
            }
            Event::Listed { op, .. } => self.listing_ended(op, ListState::Done),
            Event::ListFailed { op, error, .. } => {
                self.listing_ended(op, ListState::Failed(error.to_string()));
            }
            Event::Answered {
                op,
                outcome,
                message,
            } => self.answered(op, outcome, message.as_ref()),
            Event::ResourceUpdated { uri } => self.resource_updated(uri),
            Event::ResourcesListChanged => {
                self.note("the server says its resource list changed (notifications/resources/list_changed)");
                if self.features.resources.wanted {
                    self.list_resources();
                }
            }
            Event::PromptsListChanged => {
                self.note(
                    "the server says its prompt list changed (notifications/prompts/list_changed)",
                );
                if self.features.prompts.wanted {
                    self.list_prompts();
                }
            }
            Event::Log(m) => self.log_message(m),
            _ => {}
        }
    }

    fn listing_ended(&mut self, op: OpId, state: ListState) {
        let f = &mut self.features;
        let change = if end_listing(&mut f.resources, op, state.clone()) {
            FeatureChange::Resources(f.resources.view.clone())
        } else if end_listing(&mut f.templates, op, state.clone()) {
            FeatureChange::Templates(f.templates.view.clone())
        } else if end_listing(&mut f.prompts, op, state) {
            FeatureChange::Prompts(f.prompts.view.clone())
        } else {
            return;
        };
        self.emit_feature(change);
    }

    fn answered(&mut self, op: OpId, outcome: Result<Answer, OpError>, message: Option<&Message>) {
        let f = &mut self.features;
        let outcome = outcome.map_err(|e| e.to_string());
        if f.read_op == Some(op) {
            f.read_op = None;
            if let Some(r) = &mut f.read {
                r.response = raw(message);
                r.outcome = Some(outcome.and_then(|a| match a {
                    Answer::Read(r) => Ok(r),
                    other => Err(unexpected(&other)),
                }));
            }
            self.show_read();
        } else if f.completion_op == Some(op) {
            f.completion_op = None;
            if let Some(c) = &mut f.completion {
                c.outcome = Some(outcome.and_then(|a| match a {
                    Answer::Completion(c) => Ok(c),
                    other => Err(unexpected(&other)),
                }));
            }
            self.show_completion();
        } else if f.prompt_op == Some(op) {
            f.prompt_op = None;
            if let Some(p) = &mut f.prompt {
                p.response = raw(message);
                p.outcome = Some(outcome.and_then(|a| match a {
                    Answer::Prompt(p) => Ok(p),
                    other => Err(unexpected(&other)),
                }));
            }
            self.show_prompt();
        } else if f.level_op == Some(op) {
            f.level_op = None;
            let level = f.level.level.map(|l| l.as_str()).unwrap_or_default();
            f.level.status = match outcome {
                Ok(_) => format!("{level}: the server accepted logging/setLevel"),
                Err(e) => format!("{level}: logging/setLevel failed: {e}"),
            };
            self.show_level();
        } else if let Some(i) = f.sub_ops.iter().position(|(o, ..)| *o == op) {
            let (_, uri, on) = f.sub_ops.remove(i);
            match (outcome, on) {
                (Ok(_), false) => f.subs.retain(|s| s.uri != uri),
                (result, _) => {
                    if let Some(s) = f.subs.iter_mut().find(|s| s.uri == uri) {
                        s.state = match result {
                            Ok(_) => SubState::On,
                            Err(e) => SubState::Failed(e),
                        };
                    }
                }
            }
            self.show_subs();
        }
    }

    /// An update of a subscribed resource: counted and marked; the resource shown
    /// is read again so the panel shows what changed.
    fn resource_updated(&mut self, uri: String) {
        let at = self
            .page
            .now
            .as_millis()
            .saturating_sub(self.page.started.as_millis());
        if let Some(s) = self.features.subs.iter_mut().find(|s| s.uri == uri) {
            s.updates += 1;
            s.last_ms = Some(at);
            self.show_subs();
        }
        let shown = self
            .features
            .read
            .as_ref()
            .filter(|r| r.uri == uri && r.outcome.is_some())
            .map(|r| (r.from_link, r.updates));
        if let Some((from_link, updates)) = shown {
            self.read(uri, from_link, updates + 1);
        }
    }

    fn log_message(&mut self, m: LogMessage) {
        let f = &mut self.features;
        f.log_seq += 1;
        if f.logs.len() == LOG_MESSAGES {
            f.logs.pop_front();
        }
        f.logs.push_back(LogEntry {
            seq: f.log_seq,
            at_ms: self
                .page
                .now
                .as_millis()
                .saturating_sub(self.page.started.as_millis()),
            level: m.level,
            logger: m.logger,
            data: data_text(&m.data),
        });
        self.show_logs();
    }
}
