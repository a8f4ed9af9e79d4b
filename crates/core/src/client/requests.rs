//! Request bookkeeping: ids, stamping, the outbox, deadlines and transport
//! failures of requests in flight.

use std::time::Duration;

use serde_json::{Value, json};

use super::stamp::strip_stamp;
use super::{Client, Deferred, FINISHED_MEMORY, Pending, Phase, What};
use super::{Direction, Event, Failure, OpError, OpId, Outgoing, SendFailure, WireEntry};
use super::{outgoing, param_headers};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Body, Message, RequestId, RpcError, code};
use crate::time::Timestamp;
use crate::validate;
use crate::version::{Generation, ProtocolVersion};

impl Client {
    /// Sends any request; the end arrives as [`Event::Response`].
    pub fn request(&mut self, now: Timestamp, method: &str, params: Option<Value>) -> OpId {
        let op = self.new_op();
        let timeout = self.cfg.request_timeout;
        let task_id = super::task_ext::raw_task_id(method, params.as_ref());
        self.submit(now, op, What::Raw, method, params, timeout);
        if let Some(task_id) = task_id {
            self.name_raw_task_request(op, &task_id);
        }
        op
    }

    /// Sends a notification (e.g. `notifications/roots/list_changed`).
    pub fn notify(&mut self, now: Timestamp, method: &str, params: Option<Value>) {
        self.transmit(now, Message::notification(method, params));
    }

    /// Tells the core that a request never reached the server or was refused by the
    /// transport (HTTP status, network error, expired session).
    pub fn handle_send_failed(&mut self, now: Timestamp, id: &RequestId, failure: SendFailure) {
        let Some(p) = self.pending.remove(id) else {
            return;
        };
        self.forget(id, &p);
        match failure {
            SendFailure::SessionExpired => {
                self.diag(Diagnostic::new(
                    Rule::Transport,
                    Severity::Info,
                    "the server no longer knows our session (HTTP 404); starting a new one",
                ));
                let deferred = Deferred {
                    op: p.op,
                    what: p.what.clone(),
                    method: p.method.clone(),
                    params: strip_stamp(p.params.clone()),
                    timeout: p.timeout,
                };
                match p.what {
                    What::Probe | What::Initialize(_) => self.start_initialize(now),
                    _ => {
                        self.waiting.push(deferred);
                        if self.phase == Phase::Ready {
                            self.start_initialize(now);
                        }
                    }
                }
            }
            SendFailure::Rejected { status, body } => {
                // A JSON-RPC error in the body is the server's real answer; use it.
                // It crossed the wire like any answer, so the wire log shows it (the
                // doctor reads a refused handshake's code there).
                let err = Message::decode(&body).ok().and_then(|m| match m.body() {
                    Body::Error { error, .. } => {
                        self.wire(Direction::Received, now, m.raw_shared(), Some(m.clone()));
                        Some(error.clone())
                    }
                    _ => None,
                });
                match err {
                    Some(e) => self.on_error(now, id.clone(), p, e),
                    None => {
                        let reason = validate::truncate(body.trim(), 200);
                        self.on_failure(now, p, Failure::Refused { status, reason });
                    }
                }
            }
            SendFailure::Network(why) => self.on_failure(now, p, Failure::Transport(why)),
        }
    }

    /// Tells the core that time has passed; expires requests whose deadline is due.
    pub fn handle_timeout(&mut self, now: Timestamp) {
        let due: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, p)| p.deadline <= now)
            .map(|(id, _)| id.clone())
            .collect();
        for id in due {
            let Some(p) = self.pending.remove(&id) else {
                continue;
            };
            self.forget(&id, &p);
            if matches!(p.what, What::Probe) {
                self.late_probe = Some(id.clone());
            }
            if !matches!(p.what, What::Initialize(_)) {
                // `initialize` must never be cancelled; everything else is told we gave up.
                self.send_cancelled(
                    now,
                    &id,
                    &format!("no answer within {} s", crate::fmt::fmt_secs(p.timeout)),
                );
            }
            self.on_failure(now, p.clone(), Failure::Timeout(p.timeout));
        }
        self.expire_acks(now);
        if let Some(r) = self.readers {
            (r.tasks.timers)(self, now);
        }
        let late: Vec<RequestId> = self
            .incoming
            .iter()
            .filter(|(_, r)| r.deadline <= now)
            .map(|(id, _)| id.clone())
            .collect();
        for id in late {
            if let Some(r) = self.incoming.remove(&id) {
                let secs = crate::fmt::fmt_secs(self.cfg.server_request_timeout);
                self.diag(Diagnostic::new(Rule::Timeout, Severity::Warning, format!("the host did not answer the server's {} request within {secs} s; answered with an error", r.method)));
                let err = RpcError::new(
                    code::INTERNAL_ERROR,
                    format!("the client did not answer {} within {secs} s", r.method),
                );
                self.transmit(now, Message::error(Some(id), err));
            }
        }
    }

    pub(super) fn new_op(&mut self) -> OpId {
        self.next_op += 1;
        OpId(self.next_op)
    }

    pub(super) fn submit(
        &mut self,
        now: Timestamp,
        op: OpId,
        what: What,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) {
        match self.phase {
            Phase::Ready => {
                self.send_request(now, op, what, method, params, timeout);
            }
            Phase::Closed => self.finish(
                op,
                &what,
                None,
                Err(OpError::Failed(Failure::NotConnected(
                    "the session is closed".into(),
                ))),
            ),
            Phase::Idle => {
                self.waiting.push(Deferred {
                    op,
                    what,
                    method: method.to_owned(),
                    params,
                    timeout,
                });
                self.connect(now);
            }
            Phase::Probing | Phase::Initializing => self.waiting.push(Deferred {
                op,
                what,
                method: method.to_owned(),
                params,
                timeout,
            }),
        }
    }

    /// The revision answers are checked against: the one in use, else the newest
    /// `initialize` one.
    pub(super) fn check_version(&self) -> ProtocolVersion {
        self.stamp_version()
            .unwrap_or(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    /// The revision outgoing requests are stamped with: the negotiated one, or the one being tried.
    pub(super) fn stamp_version(&self) -> Option<ProtocolVersion> {
        self.negotiated.as_ref().map(|n| n.version).or(self.trying)
    }

    pub(super) fn send_request(
        &mut self,
        now: Timestamp,
        op: OpId,
        what: What,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> RequestId {
        self.next_id += 1;
        let id = RequestId::Number(self.next_id);
        let first_page = params.as_ref().is_none_or(|p| p.get("cursor").is_none());
        if matches!(what, What::Ask(_)) || (matches!(what, What::List(_)) && first_page) {
            self.check_request_capability(method);
        }
        let version = self.stamp_version();
        let stateless = version.is_some_and(|v| v.generation() == Generation::Stateless);
        let params = if stateless {
            Some(self.stamp(params, version))
        } else {
            params
        };
        let progress_token = params
            .as_ref()
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
            .map(token_key);
        if let Some(t) = &progress_token {
            self.progress
                .insert(t.clone(), (id.clone(), f64::NEG_INFINITY));
        }
        let msg = Message::request(id.clone(), method, params.clone());
        let p = Pending {
            op,
            what,
            method: method.to_owned(),
            params,
            timeout,
            deadline: now.after(timeout),
            progress_token,
        };
        self.pending.insert(id.clone(), p);
        self.transmit(now, msg);
        id
    }

    /// Puts one entry in the wire log.
    pub(super) fn wire(
        &mut self,
        direction: Direction,
        at: Timestamp,
        raw: std::sync::Arc<str>,
        message: Option<Message>,
    ) {
        self.events.push_back(Event::Wire(WireEntry {
            direction,
            at,
            raw,
            message,
        }));
    }

    pub(super) fn transmit(&mut self, now: Timestamp, msg: Message) {
        let headers = outgoing::headers(&msg, self.stamp_version());
        let param_headers = self.param_headers(&msg);
        self.wire(Direction::Sent, now, msg.raw_shared(), Some(msg.clone()));
        self.outbox.push_back(Outgoing {
            message: msg,
            headers,
            param_headers,
        });
    }

    /// 2026-07-28 `Mcp-Param-*` headers for a `tools/call`, from the annotations of
    /// the tool as last listed (a tool never listed gets none).
    pub(super) fn param_headers(&mut self, msg: &Message) -> Vec<(String, String)> {
        let stateless = self
            .stamp_version()
            .is_some_and(|v| v.generation() == Generation::Stateless);
        if !stateless || msg.method() != Some("tools/call") {
            return Vec::new();
        }
        let params = msg.params();
        let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let Some(specs) = name.and_then(|n| self.param_specs.get(n)) else {
            return Vec::new();
        };
        let (headers, notes) =
            param_headers::headers(specs, params.and_then(|p| p.get("arguments")));
        for note in notes {
            self.diag(Diagnostic::new(Rule::ParamHeader, Severity::Warning, note));
        }
        headers
    }

    pub(super) fn send_cancelled(&mut self, now: Timestamp, id: &RequestId, reason: &str) {
        let params = json!({ "requestId": id.to_value(), "reason": reason });
        self.transmit(
            now,
            Message::notification("notifications/cancelled", Some(params)),
        );
    }

    /// Drops bookkeeping for a request that will get no more processing.
    pub(super) fn forget(&mut self, id: &RequestId, p: &Pending) {
        if let Some(t) = &p.progress_token {
            self.progress.remove(t);
        }
        self.finished.push_back(id.clone());
        if self.finished.len() > FINISHED_MEMORY {
            self.finished.pop_front();
        }
    }
}

/// A progress token as a map key: strings and numbers never collide ("1" vs 1).
pub(super) fn token_key(v: &Value) -> String {
    v.to_string()
}
