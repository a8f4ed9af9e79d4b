//! Dispatch: received text becomes messages, and each message goes to the
//! operation it answers (or to the server-request and notification handlers).

use serde_json::Value;

use super::{Client, Pending, Phase, What};
use super::{ConnectError, Direction, Event, Failure, GenerationMode, OpError};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Body, Message, RequestId, RpcError, code, decode_frame};
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

impl Client {
    /// Feeds one frame of received text (a line, a WebSocket frame, an HTTP body or SSE `data`).
    pub fn handle_text(&mut self, now: Timestamp, text: &str) {
        let frame = decode_frame(text);
        self.wire(
            Direction::Received,
            now,
            frame.raw.clone(),
            frame.single().cloned(),
        );
        if frame.batch {
            let allowed = self
                .negotiated
                .as_ref()
                .is_some_and(|n| n.version.allows_batches());
            if !allowed {
                self.diag(
                    Diagnostic::new(Rule::BatchNotAllowed, Severity::Warning, "the server sent a JSON-RPC batch, which only 2025-03-26 allows; reading each element anyway")
                        .with_raw(frame.raw.clone()),
                );
            }
        }
        for item in frame.items {
            match item {
                Ok(msg) => self.handle_message(now, msg),
                Err(e) => {
                    let rule = match e {
                        crate::jsonrpc::DecodeError::Json(_) => Rule::MalformedJson,
                        crate::jsonrpc::DecodeError::NotJsonRpc(_) => Rule::NotJsonRpc,
                    };
                    let d = Diagnostic::new(
                        rule,
                        Severity::Error,
                        format!("ignored a message from the server: {e}"),
                    )
                    .with_raw(frame.raw.clone());
                    self.diag(d);
                }
            }
        }
    }

    /// Tells the core the connection is gone. Every operation in flight ends.
    pub fn handle_closed(&mut self, now: Timestamp, reason: &str) {
        if self.phase == Phase::Closed {
            return;
        }
        let was_connecting = matches!(
            self.phase,
            Phase::Probing | Phase::Initializing | Phase::Idle
        );
        self.phase = Phase::Closed;
        let mut pending: Vec<(RequestId, Pending)> = self.pending.drain().collect();
        pending.sort_by_key(|(_, p)| p.op);
        for (_, p) in pending {
            let f = Failure::Transport(reason.to_owned());
            self.finish(p.op, &p.what, None, Err(OpError::Failed(f)));
        }
        self.fail_waiting(&Failure::Transport(reason.to_owned()));
        if let Some(r) = self.readers {
            (r.tasks.close)(self, reason);
        }
        self.suspended.clear();
        if was_connecting {
            self.events.push_back(Event::ConnectFailed(
                format!("the connection closed before the handshake finished: {reason}").into(),
            ));
        }
        self.incoming.clear();
        // What the server sent unasked and nobody read yet goes with the connection.
        self.held.clear();
        self.events.push_back(Event::Closed(reason.to_owned()));
        let _ = now;
    }

    pub(super) fn handle_message(&mut self, now: Timestamp, msg: Message) {
        match msg.body() {
            Body::Response { id, result } => self.on_response(now, id.clone(), &msg, result),
            Body::Error {
                id: Some(id),
                error,
            } => match self.pending.remove(id) {
                Some(p) => {
                    self.forget(id, &p);
                    let (id, error) = (id.clone(), error.clone());
                    self.on_error_with_msg(now, id, p, error, Some(msg));
                }
                None => self.unknown_id(id, &msg),
            },
            Body::Error { id: None, error } => {
                let d = Diagnostic::new(
                    Rule::InvalidRequest,
                    Severity::Error,
                    format!("the server reported an error tied to no request: {error}"),
                )
                .with_raw(msg.raw_shared());
                self.diag(d);
            }
            // Through the readers handed in, or held until they are (`readers.rs`).
            Body::Request { .. } | Body::Notification { .. } => self.on_inbound(now, msg),
        }
    }

    pub(super) fn unknown_id(&mut self, id: &RequestId, msg: &Message) {
        let (rule, sev, text) = if self.finished.contains(id) {
            (
                Rule::LateResponse,
                Severity::Info,
                format!(
                    "ignored a late response to request {id}, which had already been cancelled or timed out"
                ),
            )
        } else {
            (
                Rule::UnknownResponseId,
                Severity::Error,
                format!(
                    "the server answered request id {id}, which the client never sent or already has an answer for"
                ),
            )
        };
        self.diag(Diagnostic::new(rule, sev, text).with_raw(msg.raw_shared()));
    }

    pub(super) fn on_response(
        &mut self,
        now: Timestamp,
        id: RequestId,
        msg: &Message,
        result: &Value,
    ) {
        let Some(p) = self.pending.remove(&id) else {
            if self.late_probe.as_ref() == Some(&id) && self.adopt_late_probe(now, msg, result) {
                return;
            }
            return self.unknown_id(&id, msg);
        };
        self.forget(&id, &p);
        let stateless = self
            .stamp_version()
            .is_some_and(|v| v.generation() == Generation::Stateless);
        if stateless && !matches!(p.what, What::Probe) && result.get("resultType").is_none() {
            self.diag(Diagnostic::new(Rule::MissingResultType, Severity::Warning, format!("the {} result has no resultType (required in 2026-07-28; read as \"complete\")", p.method)).with_raw(msg.raw_shared()));
        }
        match p.what.clone() {
            What::Probe => self.on_discover(now, msg, result),
            What::Initialize(v) => self.on_initialize(now, v, msg, result),
            What::ListPage => self.on_list_page(now, p, msg, result),
            // Through the readers handed in, if any (`readers.rs`).
            What::List(kind) => match self.readers {
                Some(r) => (r.catalog_page)(self, now, p, kind, msg, result),
                None => self.unread(p, msg),
            },
            What::Ask(ask) => match self.readers {
                Some(r) => (r.answer)(self, &p, &ask, msg, result),
                None => self.unread(p, msg),
            },
            What::Call { name } => match self.readers {
                Some(r) => (r.call)(self, now, &p, &name, msg, result),
                None => self.unread(p, msg),
            },
            What::Raw => match self.readers {
                Some(r) => (r.raw)(self, &p, msg, result),
                None => self.unread(p, msg),
            },
            What::Task(step) => match self.readers {
                Some(r) => (r.tasks.answer)(self, now, &p, step, msg, result),
                None => self.unread(p, msg),
            },
            What::Listen => {
                self.diag(Diagnostic::new(
                    Rule::Negotiation,
                    Severity::Info,
                    "the server closed the subscriptions/listen stream",
                ));
                let why = "the server closed the subscriptions/listen stream".to_owned();
                self.listen_ended(OpError::Failed(Failure::Transport(why)));
            }
        }
    }

    pub(super) fn on_error(&mut self, now: Timestamp, id: RequestId, p: Pending, error: RpcError) {
        self.on_error_with_msg(now, id, p, error, None);
    }

    pub(super) fn on_error_with_msg(
        &mut self,
        now: Timestamp,
        _id: RequestId,
        p: Pending,
        error: RpcError,
        msg: Option<Message>,
    ) {
        if error.code == code::UNSUPPORTED_PROTOCOL_VERSION && self.retry_version(now, &p, &error) {
            return;
        }
        match &p.what {
            What::Probe => {
                let why = format!("the server answered server/discover with an error: {error}");
                let raw = msg.unwrap_or_else(|| Message::error(None, error.clone()));
                self.probe_fallback(now, why, None, &raw);
            }
            What::Initialize(_) => {
                // A stateless server that missed (or answered too late) our probe
                // refuses the handshake naming the revisions it speaks: probe again.
                let stateless = error
                    .data
                    .as_ref()
                    .and_then(|d| d.get("supported"))
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_str().and_then(ProtocolVersion::parse))
                    .filter(|v| {
                        v.generation() == Generation::Stateless && self.cfg.versions.contains(v)
                    })
                    .max();
                match stateless {
                    Some(v) if !self.reprobed && self.cfg.mode == GenerationMode::Auto => {
                        self.reprobed = true;
                        self.diag(Diagnostic::new(Rule::Negotiation, Severity::Info, format!("initialize was refused by a server that speaks {v}; probing server/discover again")));
                        self.start_probe(now, v);
                    }
                    _ => self
                        .connect_failed(format!("the server refused initialize: {error}").into()),
                }
            }
            _ => {
                self.on_url_elicitation_required(&error, msg.as_ref());
                self.finish(p.op, &p.what, msg, Err(OpError::Rpc(error)))
            }
        }
    }

    pub(super) fn on_failure(&mut self, now: Timestamp, p: Pending, f: Failure) {
        match p.what {
            What::Probe => {
                let why = match &f {
                    Failure::Timeout(d) => {
                        format!(
                            "no answer to server/discover within {} s",
                            crate::fmt::fmt_secs(*d)
                        )
                    }
                    other => other.to_string(),
                };
                let msg = Message::notification("server/discover", None);
                self.probe_fallback(now, why, f.refused(), &msg);
            }
            What::Initialize(_) => self.connect_failed(ConnectError {
                why: format!("initialize failed: {f}"),
                refused: f.refused(),
            }),
            _ => self.finish(p.op, &p.what, None, Err(OpError::Failed(f))),
        }
    }
}
