//! 2026-07-28 multi-round-trip requests (SEP-2322), the server's side: a
//! `tools/call`, `prompts/get` or `resources/read` answered with an
//! `InputRequiredResult` ([`Server::require_input`]): what the server needs from
//! the client (`inputRequests`, each only for a capability the request's own
//! `_meta` declares) and a `requestState` the server seals with its
//! [`StateKey`] ([`super::request_state`]). The client retries the request with
//! `inputResponses` and the state; the server checks both before the application
//! sees the retry: a state that does not open is `-32602` (one message whatever
//! the reason: the reason goes to the application as a diagnostic), an answer
//! that is not a result object is `-32602`, and the application reads the
//! answers, checked against the method it asked, with
//! [`CallContext::input_response`].

use serde_json::{Map, Value};

use super::asks::requirement;
use super::dispatch::invalid;
use super::request_state;
use super::{CallContext, Server, ServerEvent, declares};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{RequestId, RpcError};
use crate::model::JsonObject;
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

/// The requests an `InputRequiredResult` may answer under 2026-07-28
/// (`tasks/result`, the fourth SEP-2322 names, is 2025-11-25's).
pub const RETRYABLE: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

/// One entry of `inputRequests`: a request the client fulfils for the server.
#[derive(Clone, Debug, PartialEq)]
pub struct InputRequest {
    method: &'static str,
    params: Value,
}

impl InputRequest {
    /// `elicitation/create` (form mode, or URL mode when `params.mode` is `"url"`).
    pub fn elicitation(params: Value) -> Self {
        InputRequest {
            method: "elicitation/create",
            params,
        }
    }

    /// `sampling/createMessage`.
    pub fn sampling(params: Value) -> Self {
        InputRequest {
            method: "sampling/createMessage",
            params,
        }
    }

    /// `roots/list`.
    pub fn roots() -> Self {
        InputRequest {
            method: "roots/list",
            params: Value::Object(Map::new()),
        }
    }

    /// The method the client runs.
    pub fn method(&self) -> &'static str {
        self.method
    }

    /// The client capability it needs (`elicitation.url` for a URL elicitation).
    pub fn capability(&self) -> &'static str {
        // The three constructors make only methods `requirement` knows.
        requirement(self.method, Some(&self.params)).map_or("", |(cap, _)| cap)
    }

    fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("method".into(), Value::from(self.method));
        o.insert("params".into(), self.params.clone());
        Value::Object(o)
    }
}

/// Why [`Server::require_input`] sent nothing (the request is still open).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputRequiredError {
    /// No open request with that id (answered, cancelled, or never seen).
    #[error("no open request with that id")]
    NotOpen,
    /// The request runs under an `initialize` session: ask with [`Server::ask`].
    #[error(
        "the request runs under {version}, which asks with server requests, not input_required"
    )]
    NotStateless {
        /// Its revision.
        version: ProtocolVersion,
    },
    /// Not a request an `InputRequiredResult` may answer ([`RETRYABLE`]).
    #[error("only tools/call, prompts/get and resources/read may be answered with input_required")]
    NotRetryable,
    /// The request's client capabilities lack what an input request needs.
    #[error(
        "input request {key:?} needs the {capability} capability, which the request does not declare"
    )]
    NotDeclared {
        /// The input request's key.
        key: String,
        /// The capability, e.g. `elicitation`.
        capability: &'static str,
    },
    /// Neither input requests nor a state: the result would mean nothing.
    #[error("an input_required result needs inputRequests or a requestState")]
    Empty,
    /// A state to seal, and no [`StateKey`](super::StateKey) to seal it with.
    #[error("no StateKey to seal the requestState with (Server::set_state_key)")]
    NoStateKey,
}

/// Why an answer in `inputResponses` cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("inputResponses.{key} is not a {method} result: {why}")]
pub struct BadInputResponse {
    /// The answer's key.
    pub key: String,
    /// The method asked under that key.
    pub method: &'static str,
    /// What is wrong.
    pub why: String,
}

impl BadInputResponse {
    /// The `-32602` to answer the request with.
    pub fn to_rpc_error(&self) -> RpcError {
        invalid(self.to_string())
    }
}

impl CallContext {
    /// Whether this request's client capabilities allow asking `request`.
    pub fn can_ask(&self, request: &InputRequest) -> bool {
        declares(&self.client_capabilities, request.capability())
    }

    /// The retry's answer to the input request `key` (asked as `asked`), checked
    /// against the shape of that method's result; `Ok(None)` when the retry has
    /// no answer under `key` (re-ask: the client must answer every request).
    pub fn input_response(
        &self,
        key: &str,
        asked: &InputRequest,
    ) -> Result<Option<&JsonObject>, BadInputResponse> {
        let Some(v) = self.input_responses.as_ref().and_then(|r| r.get(key)) else {
            return Ok(None);
        };
        let bad = |why: &str| BadInputResponse {
            key: key.to_owned(),
            method: asked.method,
            why: why.to_owned(),
        };
        let o = v.as_object().ok_or_else(|| bad("not an object"))?;
        let text = |k: &str| o.get(k).and_then(Value::as_str);
        match asked.method {
            "elicitation/create" => match text("action") {
                Some("accept" | "decline" | "cancel") => {}
                _ => return Err(bad("action is not accept, decline or cancel")),
            },
            "sampling/createMessage" => {
                if text("role").is_none() || text("model").is_none() || o.get("content").is_none() {
                    return Err(bad("it needs role, content and model"));
                }
            }
            _ => {
                let roots = o.get("roots").and_then(Value::as_array);
                let ok = roots.is_some_and(|r| {
                    r.iter()
                        .all(|root| root.get("uri").and_then(Value::as_str).is_some())
                });
                if !ok {
                    return Err(bad("roots is not a list of roots with a uri each"));
                }
            }
        }
        Ok(Some(o))
    }
}

impl Server {
    #[cfg(feature = "sealed-state")]
    /// Hands in the secret that seals `requestState` ([`Server::require_input`])
    /// and opens it on the retry. With a key, every `requestState` a 2026-07-28
    /// retry carries must open, or the retry is `-32602`; without one, states pass
    /// through as the client sent them.
    pub fn set_state_key(&mut self, key: request_state::StateKey) {
        self.sealer = Some(request_state::Sealer::new(key));
    }

    /// Answers an open 2026-07-28 `tools/call`, `prompts/get` or
    /// `resources/read` with an `InputRequiredResult`: `requests` (key, request;
    /// each for a capability the request declares) and `state`, the application's
    /// own text, sealed with the [`StateKey`](super::StateKey); the retry's [`CallContext`] carries
    /// it opened. Nothing is sent on an error.
    pub fn require_input(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        requests: Vec<(String, InputRequest)>,
        state: Option<&str>,
    ) -> Result<(), InputRequiredError> {
        let call = self.open.get(id).ok_or(InputRequiredError::NotOpen)?;
        let version = call.ctx.version;
        if version.generation() != Generation::Stateless {
            return Err(InputRequiredError::NotStateless { version });
        }
        if !call.retryable {
            return Err(InputRequiredError::NotRetryable);
        }
        if requests.is_empty() && state.is_none() {
            return Err(InputRequiredError::Empty);
        }
        if let Some((key, r)) = requests.iter().find(|(_, r)| !call.ctx.can_ask(r)) {
            return Err(InputRequiredError::NotDeclared {
                key: key.clone(),
                capability: r.capability(),
            });
        }
        let sealed = match (state, &self.sealer, &call.binding) {
            (None, ..) => None,
            (Some(s), Some(k), Some(bound)) => Some((k.seal)(&k.key, now, bound, s)),
            // No key, or none yet when the request arrived (so it has no binding).
            (Some(_), ..) => return Err(InputRequiredError::NoStateKey),
        };
        let mut asked = JsonObject::new();
        for (key, r) in &requests {
            asked.insert(key.clone(), r.to_json());
        }
        self.respond_input_required(now, id, asked, sealed.as_deref());
        Ok(())
    }

    /// On a 2026-07-28 retry: opens its `requestState` in `ctx` when this server
    /// has a [`StateKey`]; `bound` is the request's binding. A state that does not
    /// open is `-32602`, its reason a diagnostic.
    pub(super) fn open_state(
        &mut self,
        now: Timestamp,
        bound: Option<&[u8; 32]>,
        ctx: &mut CallContext,
    ) -> Result<(), RpcError> {
        let (Some(sealer), Some(state)) = (&self.sealer, &ctx.request_state) else {
            return Ok(());
        };
        let opened = match bound {
            Some(b) => (sealer.open)(&sealer.key, now, b, state),
            // A state on a request no InputRequiredResult answers: never ours.
            None => Err(request_state::StateError::Malformed),
        };
        match opened {
            Ok(payload) => {
                ctx.request_state = Some(payload);
                Ok(())
            }
            Err(why) => {
                let d = Diagnostic::new(Rule::InputRequired, Severity::Warning, why.to_string());
                self.events.push_back(ServerEvent::Diagnostic(d));
                Err(invalid("Invalid requestState"))
            }
        }
    }
}

/// Whether a request of `method` under `version` is one an `InputRequiredResult`
/// may answer.
pub(super) fn retryable(method: &str, version: ProtocolVersion) -> bool {
    version.generation() == Generation::Stateless && RETRYABLE.contains(&method)
}
