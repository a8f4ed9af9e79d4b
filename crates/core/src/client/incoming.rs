//! What the server sends unasked: its requests (answered by the core or the
//! host) and its notifications.

use serde_json::{Value, json};

use super::Event;
use super::{Client, Incoming, Phase};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Body, Message, RequestId, RpcError, code};
use crate::time::Timestamp;

impl Client {
    /// Answers a server-to-client request surfaced as [`Event::ServerRequest`].
    /// Returns false if there is no such request waiting (already answered or expired).
    pub fn answer(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        result: Result<Value, RpcError>,
    ) -> bool {
        if self.incoming.remove(id).is_none() {
            return false;
        }
        let msg = match result {
            Ok(v) => Message::response(id.clone(), v),
            Err(e) => Message::error(Some(id.clone()), e),
        };
        self.transmit(now, msg);
        true
    }

    /// A request or notification of the server, as [`AnswerReaders::ALL`] reads it.
    ///
    /// [`AnswerReaders::ALL`]: super::AnswerReaders::ALL
    pub(super) fn read_inbound(&mut self, now: Timestamp, msg: Message) {
        match msg.body() {
            Body::Request { id, method, params } => {
                self.on_server_request(now, id.clone(), method.clone(), params.clone(), &msg)
            }
            Body::Notification { method, params } => {
                self.on_notification(now, method.clone(), params.clone(), &msg)
            }
            Body::Response { .. } | Body::Error { .. } => {}
        }
    }

    /// Checked when a request arrives, even if it is read later: the phase it came in.
    pub(super) fn check_request_phase(&mut self, msg: &Message) {
        if let Body::Request { method, .. } = msg.body()
            && self.phase == Phase::Initializing
            && method != "ping"
        {
            let d = Diagnostic::new(Rule::RequestBeforeInitialized, Severity::Warning, format!("the server sent {method} before answering initialize (only ping may come first)")).with_raw(msg.raw_shared());
            self.diag(d);
        }
    }

    fn on_server_request(
        &mut self,
        now: Timestamp,
        id: RequestId,
        method: String,
        params: Option<Value>,
        msg: &Message,
    ) {
        let deadline = now.after(self.cfg.server_request_timeout);
        let capability = match method.as_str() {
            "ping" => {
                // The spec asks for a prompt answer; the host needs no say in it.
                self.transmit(now, Message::response(id.clone(), json!({})));
                self.events.push_back(Event::ServerRequest {
                    id,
                    method,
                    params,
                    answered: true,
                    deadline: now,
                });
                return;
            }
            "roots/list" => Some("roots"),
            "sampling/createMessage" => Some("sampling"),
            "elicitation/create" => Some("elicitation"),
            _ => None,
        };
        match capability {
            Some(cap) if self.cfg.declares(cap) => {
                self.check_server_ask(&method, params.as_ref(), msg);
                if self.incoming.contains_key(&id) {
                    let d = Diagnostic::new(
                        Rule::InvalidRequest,
                        Severity::Error,
                        format!("the server reused request id {id} while it was still open"),
                    )
                    .with_raw(msg.raw_shared());
                    self.diag(d);
                    return;
                }
                self.incoming.insert(
                    id.clone(),
                    Incoming {
                        method: method.clone(),
                        deadline,
                    },
                );
                self.events.push_back(Event::ServerRequest {
                    id,
                    method,
                    params,
                    answered: false,
                    deadline,
                });
            }
            _ => {
                let text = match capability {
                    Some(cap) => format!(
                        "the server sent {method}, but the client did not declare the {cap:?} capability"
                    ),
                    None => format!("the server sent an unknown request method {method:?}"),
                };
                self.diag(
                    Diagnostic::new(Rule::UnexpectedRequest, Severity::Warning, text.clone())
                        .with_raw(msg.raw_shared()),
                );
                self.transmit(
                    now,
                    Message::error(
                        Some(id.clone()),
                        RpcError::new(
                            code::METHOD_NOT_FOUND,
                            format!("Method not found: {method}"),
                        ),
                    ),
                );
                self.events.push_back(Event::ServerRequest {
                    id,
                    method,
                    params,
                    answered: true,
                    deadline: now,
                });
            }
        }
    }

    fn on_notification(
        &mut self,
        now: Timestamp,
        method: String,
        params: Option<Value>,
        msg: &Message,
    ) {
        match method.as_str() {
            "notifications/tools/list_changed" => self.events.push_back(Event::ToolsListChanged),
            "notifications/progress" => self.on_progress(now, params.unwrap_or(Value::Null), msg),
            "notifications/tasks/status"
                if self.on_task_status(now, false, params.as_ref(), msg) => {}
            "notifications/tasks" if self.on_task_status(now, true, params.as_ref(), msg) => {}
            m if self.on_catalog_notice(m, params.as_ref(), msg) => {}
            "notifications/elicitation/complete" => {
                self.on_elicitation_complete(params.as_ref(), msg);
                self.events
                    .push_back(Event::Notification { method, params });
            }
            "notifications/cancelled" => {
                // The server gave up on one of its own requests to us.
                if let Some(id) = params
                    .as_ref()
                    .and_then(|p| p.get("requestId"))
                    .and_then(RequestId::from_value)
                {
                    self.incoming.remove(&id);
                }
                self.events
                    .push_back(Event::Notification { method, params });
            }
            _ => self
                .events
                .push_back(Event::Notification { method, params }),
        }
    }
}
