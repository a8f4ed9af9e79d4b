//! How operations end: each kind of operation turns its outcome into its own
//! event (a failed listing page, a call outcome, a typed answer…).

use serde_json::Value;

use super::{CallOutcome, Client, Event, Failure, OpError, OpId, What};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;

impl Client {
    pub(super) fn finish(
        &mut self,
        op: OpId,
        what: &What,
        msg: Option<Message>,
        outcome: Result<Value, OpError>,
    ) {
        match what {
            What::ListPage => {
                let pages = self.listings.remove(&op).map_or(0, |l| l.pages);
                if let Err(error) = outcome {
                    self.events
                        .push_back(Event::ToolsListFailed { op, pages, error });
                }
            }
            What::Call { .. } => {
                let outcome = match outcome {
                    Ok(_) => return,
                    Err(OpError::Rpc(e)) => CallOutcome::ProtocolError(e),
                    Err(OpError::Failed(f)) => CallOutcome::Failed(f),
                };
                self.events.push_back(Event::CallFinished {
                    op,
                    outcome,
                    message: msg,
                });
            }
            What::List(kind) => {
                let pages = self.listings.remove(&op).map_or(0, |l| l.pages);
                if let Err(error) = outcome {
                    let kind = *kind;
                    self.events.push_back(Event::ListFailed {
                        op,
                        kind,
                        pages,
                        error,
                    });
                }
            }
            What::Ask(_) => {
                if let Err(e) = outcome {
                    self.answered(op, Err(e), msg);
                }
            }
            What::Raw => self.events.push_back(Event::Response { op, outcome }),
            What::Listen => {
                if let Err(e) = outcome {
                    self.listen_ended(e.clone());
                    let d = Diagnostic::new(
                        Rule::Negotiation,
                        Severity::Info,
                        format!(
                            "no subscriptions/listen stream, so no list_changed notifications: {e}"
                        ),
                    );
                    self.diag(d);
                }
            }
            What::Task(step) => {
                if let (Err(e), Some(r)) = (outcome, self.readers) {
                    (r.tasks.error)(self, op, *step, msg, e);
                }
            }
            What::Probe | What::Initialize(_) => {}
        }
    }

    pub(super) fn fail_waiting(&mut self, f: &Failure) {
        for d in std::mem::take(&mut self.waiting) {
            self.finish(d.op, &d.what, None, Err(OpError::Failed(f.clone())));
        }
    }
}
