//! 2026-07-28 MRTR: keeping a call the server answered with `input_required`
//! and continuing it with the host's answers.

use serde_json::{Map, Value};

use super::OpId;
use super::stamp::strip_stamp;
use super::{Client, Event, Pending, SUSPENDED_MEMORY, Suspended};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;
use crate::model::JsonObject;
use crate::time::Timestamp;
use crate::validate;

impl Client {
    /// Continues a call that ended its round with [`CallOutcome::InputRequired`]
    /// (2026-07-28 MRTR): re-sends the original request, as a new JSON-RPC request,
    /// with `input_responses` (keyed like the server's `inputRequests`; left out
    /// when empty) and the `requestState` the server sent, exactly as it sent it.
    /// The answer arrives under the same `op`, as [`Event::CallFinished`] with a
    /// typed outcome (which may ask for input again). A raw `prompts/get` or
    /// `resources/read` answered with `input_required` continues the same way and
    /// ends in [`Event::Response`].
    ///
    /// A call followed as a task of the Tasks extension (2026-07-28) surfaces its
    /// task's `inputRequests` the same way, each once; here the answers go out in
    /// a `tasks/update` (`taskId`, `inputResponses`) while the task is polled on,
    /// and the call ends in a later [`Event::CallFinished`]. Only answers to
    /// requests the task asked for and not answered yet are sent (the others are
    /// named in a diagnostic); a partial answer is allowed (the task stays
    /// `input_required` until the rest arrive).
    ///
    /// Returns false if `op` is not waiting for input (never was, already
    /// continued, cancelled, or the session closed), or, for a task, when nothing
    /// was left to send.
    pub fn continue_call(
        &mut self,
        now: Timestamp,
        op: OpId,
        mut input_responses: JsonObject,
    ) -> bool {
        if let Some(r) = self.readers
            && let Some(sent) = (r.tasks.input)(self, now, op, &mut input_responses)
        {
            return sent;
        }
        let Some(s) = self.suspended.remove(&op) else {
            return false;
        };
        let missing: Vec<&str> = s
            .requested
            .iter()
            .filter(|k| !input_responses.contains_key(k.as_str()))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            self.diag(Diagnostic::new(
                Rule::InputRequired,
                Severity::Warning,
                format!(
                    "retrying {} without answers to {missing:?}; the client must answer every input request, so the server will likely ask again",
                    s.method
                ),
            ));
        }
        let extra: Vec<&str> = input_responses
            .keys()
            .filter(|k| !s.requested.contains(k))
            .map(String::as_str)
            .collect();
        if !extra.is_empty() {
            self.diag(Diagnostic::new(
                Rule::InputRequired,
                Severity::Info,
                format!(
                    "inputResponses {extra:?} answer nothing the server asked for; it should ignore them"
                ),
            ));
        }
        let mut params = match s.params {
            Some(Value::Object(o)) => o,
            _ => Map::new(),
        };
        if !input_responses.is_empty() {
            params.insert("inputResponses".into(), Value::Object(input_responses));
        }
        if let Some(state) = s.request_state {
            params.insert("requestState".into(), state);
        }
        self.submit(
            now,
            op,
            s.what,
            &s.method,
            Some(Value::Object(params)),
            s.timeout,
        );
        true
    }

    /// A raw request's result, as [`super::AnswerReaders::ALL`] reads it: MRTR
    /// applies to `prompts/get` and `resources/read` as well, so the host may
    /// continue them.
    pub(super) fn on_raw_result(&mut self, p: &Pending, msg: &Message, result: &Value) {
        if matches!(p.method.as_str(), "prompts/get" | "resources/read")
            && is_input_required(result)
        {
            self.suspend(p, result, msg);
        }
        self.events.push_back(Event::Response {
            op: p.op,
            outcome: Ok(result.clone()),
        });
    }

    /// Keeps what a continuation needs and checks the `InputRequiredResult`
    /// against the MRTR rules.
    pub(super) fn suspend(&mut self, p: &Pending, result: &Value, msg: &Message) {
        let mut diags = Vec::new();
        let mut requested = Vec::new();
        let requests = result.get("inputRequests");
        match requests {
            None => {}
            Some(Value::Object(map)) => {
                for (key, req) in map {
                    requested.push(key.clone());
                    if let Some(d) = self.check_input_request(key, req) {
                        diags.push(d);
                    }
                }
            }
            Some(other) => diags.push(Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                format!(
                    "inputRequests is {}, not an object of requests",
                    validate::kind_of(other)
                ),
            )),
        }
        let request_state = result.get("requestState").cloned();
        match &request_state {
            None | Some(Value::String(_)) => {}
            Some(other) => diags.push(Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                format!(
                    "requestState is {}, not a string; it will be echoed back unchanged anyway",
                    validate::kind_of(other)
                ),
            )),
        }
        if requests.is_none() && request_state.is_none() {
            diags.push(Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                "an input_required result must carry inputRequests or requestState (it has neither)",
            ));
        }
        for d in diags {
            self.diag(d.with_raw(msg.raw_shared()));
        }
        if self.suspended.len() >= SUSPENDED_MEMORY
            && let Some(oldest) = self.suspended.keys().min().copied()
        {
            self.suspended.remove(&oldest);
        }
        self.suspended.insert(
            p.op,
            Suspended {
                what: p.what.clone(),
                method: p.method.clone(),
                params: strip_input(strip_stamp(p.params.clone())),
                timeout: p.timeout,
                requested,
                request_state,
            },
        );
    }

    /// One entry of `inputRequests`: a known method, for a declared capability.
    pub(super) fn check_input_request(&self, key: &str, req: &Value) -> Option<Diagnostic> {
        let Some(method) = req.get("method").and_then(Value::as_str) else {
            return Some(Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                format!("input request {key:?} has no method"),
            ));
        };
        let cap = match method {
            "elicitation/create" => "elicitation",
            "sampling/createMessage" => "sampling",
            "roots/list" => "roots",
            other => {
                return Some(Diagnostic::new(
                    Rule::InputRequired,
                    Severity::Warning,
                    format!(
                        "input request {key:?} is {other:?}, not elicitation/create, sampling/createMessage or roots/list"
                    ),
                ));
            }
        };
        (!self.cfg.declares(cap)).then(|| {
            Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                format!(
                    "input request {key:?} is {method}, but the client did not declare the {cap:?} capability (servers must not ask for it)"
                ),
            )
        })
    }
}

/// Whether a result is a 2026-07-28 `InputRequiredResult`.
pub(super) fn is_input_required(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("input_required")
}

/// Removes a previous MRTR round's answers: each retry carries only its own.
pub(super) fn strip_input(params: Option<Value>) -> Option<Value> {
    let mut p = params?;
    if let Some(o) = p.as_object_mut() {
        o.remove("inputResponses");
        o.remove("requestState");
    }
    Some(p)
}
