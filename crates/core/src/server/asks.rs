//! When the server asks the client: sampling, elicitation and roots.
//!
//! Up to 2025-11-25 the server sends its own JSON-RPC request mid-call
//! ([`Server::ask`]) and the client's answer comes back as
//! [`ServerEvent::Answered`]. Under 2026-07-28 there is no such channel: the call is
//! answered with an `InputRequiredResult` ([`Server::respond_input_required`]) and
//! the client retries it carrying `inputResponses` and `requestState`, which the
//! application reads from the retry's [`CallContext`].

use std::time::Duration;

use serde_json::{Value, json};

use super::dispatch::invalid;
use super::{Server, ServerEvent};
use crate::jsonrpc::{Message, RequestId, RpcError};
use crate::model::{JsonObject, meta};
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

/// How long the server waits for the client's answer before giving up on it.
pub const ASK_TIMEOUT: Duration = Duration::from_secs(60);

/// What the server knows about an open request the application is answering.
#[derive(Clone, Debug, PartialEq)]
pub struct CallContext {
    /// The revision the request runs under.
    pub version: ProtocolVersion,
    /// The client's capabilities: from `initialize`, or under 2026-07-28 from the
    /// request's own `_meta` (`io.modelcontextprotocol/clientCapabilities`).
    pub client_capabilities: JsonObject,
    /// 2026-07-28 retry: the client's answers to the `inputRequests`, by key.
    pub input_responses: Option<JsonObject>,
    /// 2026-07-28 retry: the `requestState` echoed back, exactly as sent.
    pub request_state: Option<String>,
}

/// Why [`Server::ask`] sent nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CannotAsk {
    /// No initialized `initialize` session to ask on: not yet, or the client
    /// speaks 2026-07-28, where a server asks through `input_required` instead.
    #[error(
        "no initialized session to send {method} on (under 2026-07-28, answer the call with input_required)"
    )]
    NoSession {
        /// The method not sent.
        method: String,
    },
    /// The client did not declare the capability the request needs.
    #[error("the client did not declare the {capability} capability")]
    NotDeclared {
        /// The capability, e.g. `sampling` or `elicitation.url`.
        capability: &'static str,
    },
    /// The session's revision has no such request (elicitation before 2025-06-18,
    /// URL mode before 2025-11-25).
    #[error("{what} does not exist in revision {version}")]
    NotInRevision {
        /// What is missing.
        what: &'static str,
        /// The session's revision.
        version: ProtocolVersion,
    },
    /// Not a request a server may send a client.
    #[error("{0} is not a request a server sends a client")]
    UnknownMethod(String),
}

/// How a request the server sent ended.
#[derive(Clone, Debug, PartialEq)]
pub enum AskOutcome {
    /// The client's result.
    Result(Value),
    /// The client's error (`-32601` when it does not support the method, `-1` when
    /// the user rejected a sampling request, ...).
    Error(RpcError),
    /// No answer within [`ASK_TIMEOUT`]; the server sent `notifications/cancelled`.
    TimedOut,
}

/// A request the server sent and waits on.
#[derive(Clone, Debug)]
pub(super) struct Asked {
    method: String,
    deadline: Timestamp,
}

/// The capability (and the revision that introduced it) a server request needs.
pub(super) fn requirement(
    method: &str,
    params: Option<&Value>,
) -> Result<(&'static str, ProtocolVersion), CannotAsk> {
    match method {
        "sampling/createMessage" => Ok(("sampling", ProtocolVersion::V2024_11_05)),
        "roots/list" => Ok(("roots", ProtocolVersion::V2024_11_05)),
        "elicitation/create" => {
            let mode = params.and_then(|p| p.get("mode")).and_then(Value::as_str);
            if mode == Some("url") {
                Ok(("elicitation.url", ProtocolVersion::V2025_11_25))
            } else {
                Ok(("elicitation", ProtocolVersion::V2025_06_18))
            }
        }
        other => Err(CannotAsk::UnknownMethod(other.to_owned())),
    }
}

/// Whether `caps` declares `capability` (`elicitation.url` is the `url` member of
/// `elicitation`; a bare `elicitation: {}` means form mode only, as 2025-11-25 says).
pub fn declares(caps: &JsonObject, capability: &str) -> bool {
    let (top, sub) = capability.split_once('.').unwrap_or((capability, ""));
    match caps.get(top) {
        None | Some(Value::Null) => false,
        Some(v) if sub.is_empty() => v.is_object(),
        Some(v) => v.get(sub).is_some_and(|s| !s.is_null()),
    }
}

impl Server {
    /// Sends `method` to the client (initialize generation only), when the client
    /// declared what it needs. Its answer arrives as [`ServerEvent::Answered`] with
    /// the returned id, or [`AskOutcome::TimedOut`] from [`Server::handle_timeout`].
    pub fn ask(
        &mut self,
        now: Timestamp,
        method: &str,
        params: Value,
    ) -> Result<RequestId, CannotAsk> {
        let Some(version) = self.session.filter(|_| self.initialized) else {
            return Err(CannotAsk::NoSession {
                method: method.to_owned(),
            });
        };
        let (capability, since) = requirement(method, Some(&params))?;
        if version < since {
            return Err(CannotAsk::NotInRevision {
                what: if capability == "elicitation.url" {
                    "URL elicitation"
                } else {
                    "elicitation"
                },
                version,
            });
        }
        if !declares(&self.client_caps, capability) {
            return Err(CannotAsk::NotDeclared { capability });
        }
        self.next_ask += 1;
        // A prefix of its own, so the ids never look like the client's.
        let id = RequestId::String(format!("s{}", self.next_ask));
        self.asked.insert(
            id.clone(),
            Asked {
                method: method.to_owned(),
                deadline: now.after(ASK_TIMEOUT),
            },
        );
        self.send(now, Message::request(id.clone(), method, Some(params)));
        Ok(id)
    }

    /// Sends `notifications/elicitation/complete` (2025-11-25): the out-of-band
    /// interaction a URL elicitation started has finished.
    pub fn elicitation_complete(&mut self, now: Timestamp, elicitation_id: &str) {
        let params = json!({ "elicitationId": elicitation_id });
        self.send(
            now,
            Message::notification("notifications/elicitation/complete", Some(params)),
        );
    }

    /// Answers an open 2026-07-28 request with an `InputRequiredResult`: the client
    /// must fulfil `input_requests` (key → `{method, params}`) and retry, echoing
    /// `request_state`.
    pub fn respond_input_required(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        input_requests: JsonObject,
        request_state: Option<&str>,
    ) {
        let mut r = JsonObject::new();
        r.insert("resultType".into(), Value::from("input_required"));
        if !input_requests.is_empty() {
            r.insert("inputRequests".into(), Value::Object(input_requests));
        }
        if let Some(s) = request_state {
            r.insert("requestState".into(), Value::from(s));
        }
        self.respond_value(now, id, Value::Object(r));
    }

    /// The context of an open request (its revision, the client's capabilities, a
    /// retry's answers), or `None` once answered or cancelled.
    pub fn call_context(&self, id: &RequestId) -> Option<&CallContext> {
        self.open.get(id).map(|c| &c.ctx)
    }

    /// When [`Server::handle_timeout`] should next run (the earliest unanswered ask).
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        self.asked.values().map(|a| a.deadline).min()
    }

    /// Gives up on the asks whose deadline passed: each is cancelled on the wire and
    /// ends as [`AskOutcome::TimedOut`].
    pub fn handle_timeout(&mut self, now: Timestamp) {
        let mut late: Vec<(RequestId, String)> = self
            .asked
            .iter()
            .filter(|(_, a)| a.deadline <= now)
            .map(|(id, a)| (id.clone(), a.method.clone()))
            .collect();
        late.sort_by_key(|(id, _)| id.to_string());
        for (id, method) in late {
            self.asked.remove(&id);
            let params = json!({ "requestId": id.to_value(), "reason": "timed out" });
            self.send(
                now,
                Message::notification("notifications/cancelled", Some(params)),
            );
            self.events.push_back(ServerEvent::Answered {
                id,
                method,
                outcome: AskOutcome::TimedOut,
            });
        }
    }

    /// What the application may need besides the event: the client's capabilities
    /// (the session's, or a stateless request's own `_meta`) and a 2026-07-28
    /// retry's `inputResponses` and `requestState`.
    pub(super) fn call_context_of(
        &self,
        version: ProtocolVersion,
        params: Option<&Value>,
    ) -> Result<CallContext, RpcError> {
        if version.generation() != Generation::Stateless {
            return Ok(CallContext {
                version,
                client_capabilities: self.client_caps.clone(),
                input_responses: None,
                request_state: None,
            });
        }
        let stamped = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta::CLIENT_CAPABILITIES));
        // The schema has no null for either: a retry that sends one is broken
        // (a protocol error), not a first round.
        let input_responses = match params.and_then(|p| p.get("inputResponses")) {
            None => None,
            Some(Value::Object(o)) => {
                // Each answer is a result (ElicitResult, CreateMessageResult,
                // ListRootsResult): an object, whatever the key.
                if let Some((k, _)) = o.iter().find(|(_, v)| !v.is_object()) {
                    return Err(invalid(format!(
                        "inputResponses.{k} must be a result object"
                    )));
                }
                Some(o.clone())
            }
            Some(_) => return Err(invalid("inputResponses must be an object")),
        };
        let request_state = match params.and_then(|p| p.get("requestState")) {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(invalid("requestState must be a string")),
        };
        Ok(CallContext {
            version,
            client_capabilities: stamped
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default(),
            input_responses,
            request_state,
        })
    }

    /// A response from the client: the answer to one of our asks, if we sent it.
    pub(super) fn on_answer(&mut self, id: &RequestId, outcome: AskOutcome) {
        let Some(asked) = self.asked.remove(id) else {
            return;
        };
        self.events.push_back(ServerEvent::Answered {
            id: id.clone(),
            method: asked.method,
            outcome,
        });
    }
}
