//! The deprecated HTTP+SSE transport (2024-11-05), still deployed: a GET stream
//! whose first event (`endpoint`) names the URL every client message is POSTed to;
//! every server message arrives as a `message` event on that stream. Also the
//! fallback order of the 2025-03-26 "Backwards compatibility" section: POST
//! `initialize` as Streamable HTTP, and on 400, 404 or 405 GET the URL instead.
//!
//! The stream gates every message until the endpoint is known (see `requests.rs`),
//! and each POST gates the next, so the server reads them in the order sent.

use mcpg_core::Timestamp;
use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Body, RequestId, decode_frame};

use crate::endpoint::{EndpointError, relay_endpoint, resolve_endpoint, shown};
use crate::headers::{self, ACCEPT_SSE};
use crate::legacy_state::{Legacy, TransportChoice};
use crate::machine::{Kind, Phase};
use crate::sse::{SseError, SseParser};
use crate::{HttpMachine, Method, ReqId, Transport};

impl HttpMachine {
    /// Which transport the machine speaks and why (`None` before the first
    /// message, and while `Auto` still waits for the `initialize` POST's answer).
    pub fn transport_choice(&self) -> Option<&TransportChoice> {
        self.choice.as_ref()
    }

    /// The old transport's refused `endpoint` event, if that ended the session.
    pub fn endpoint_error(&self) -> Option<&EndpointError> {
        self.legacy.as_ref().and_then(|l| l.refused.as_ref())
    }

    /// Before the first message: settle what the configuration already decides.
    pub(crate) fn choose(&mut self, now: Timestamp) {
        match self.cfg.transport {
            Transport::StreamableHttp => {
                self.choice = Some(TransportChoice {
                    transport: Transport::StreamableHttp,
                    why: "Streamable HTTP, as configured".into(),
                    endpoint: None,
                });
            }
            Transport::Sse => self.start_legacy(now, "HTTP+SSE (2024-11-05), as configured".into()),
            // The `initialize` POST decides (see `probe_answered`).
            Transport::Auto => {}
        }
    }

    /// Whether `initialize` request `out` should probe for Streamable HTTP.
    pub(crate) fn probes(&self, out: &Outgoing) -> bool {
        self.cfg.transport == Transport::Auto
            && self.choice.is_none()
            && self.probe.is_none()
            && out.message.method() == Some("initialize")
    }

    /// Opens the GET stream; messages wait for its `endpoint` event (at most
    /// `one_way_timeout`).
    pub(crate) fn start_legacy(&mut self, now: Timestamp, why: String) {
        self.choice = Some(TransportChoice {
            transport: Transport::Sse,
            why,
            endpoint: None,
        });
        let headers = self.base_headers(&[("Accept", ACCEPT_SSE)]);
        let url = self.cfg.url.clone();
        let req = self.request_to(url, Method::Get, headers, None, Kind::LegacyStream, None);
        self.legacy = Some(Legacy {
            stream: Some(req),
            parser: SseParser::new(self.cfg.max_event),
            endpoint: None,
            pending: Vec::new(),
            over: None,
            refused: None,
        });
        self.gate(now, req);
    }

    /// The head of request `req`: if it is `Auto`'s `initialize` POST, decide.
    /// Returns whether the head was consumed (the machine fell back).
    pub(crate) fn probe_answered(&mut self, now: Timestamp, req: ReqId, status: u16) -> bool {
        if self.probe.as_ref().is_none_or(|(p, _)| *p != req) {
            return false;
        }
        let Some((_, out)) = self.probe.take() else {
            return false;
        };
        if matches!(status, 400 | 404 | 405) {
            if let Body::Request { id, .. } = out.message.body() {
                self.by_rpc.remove(id);
                self.initializing.remove(id);
            }
            self.drop_exchange(req);
            self.gating.remove(&req);
            // `initialize` goes first once the endpoint is known.
            self.held.push_front(out);
            self.start_legacy(
                now,
                format!(
                    "Streamable HTTP POST answered {status}; fell back to HTTP+SSE (2024-11-05)"
                ),
            );
            return true;
        }
        let why = format!("Streamable HTTP: the POST of initialize answered {status}");
        self.notice(why.clone());
        self.choice = Some(TransportChoice {
            transport: Transport::StreamableHttp,
            why,
            endpoint: None,
        });
        self.ungate(now, req);
        false
    }

    /// `Auto` before any `initialize` (a 2026-07-28 client starts with
    /// `server/discover`): a request's POST answered 2xx settles Streamable HTTP,
    /// since the old transport answers its POSTs only on the stream.
    pub(crate) fn settle_on_success(&mut self, kind: &Kind, status: u16) {
        if self.cfg.transport == Transport::Auto
            && self.choice.is_none()
            && matches!(kind, Kind::Request(_))
            && (200..300).contains(&status)
        {
            self.choice = Some(TransportChoice {
                transport: Transport::StreamableHttp,
                why: format!("Streamable HTTP: a POST answered {status}"),
                endpoint: None,
            });
        }
    }

    /// `Auto`'s `initialize` POST failed below HTTP or was cancelled: nothing is
    /// decided; what waited goes out.
    pub(crate) fn probe_settled(&mut self, now: Timestamp, req: ReqId) {
        if self.probe.as_ref().is_some_and(|(p, _)| *p == req) {
            self.probe = None;
            self.ungate(now, req);
        }
    }

    /// Sends `out` over the old transport (the caller checked nothing gates).
    pub(crate) fn legacy_send(&mut self, now: Timestamp, out: Outgoing) {
        let Some(l) = self.legacy.as_ref() else {
            return;
        };
        if let Some(why) = l.over.clone() {
            self.refuse(&out, &why);
            return;
        }
        let Some(endpoint) = l.endpoint.clone() else {
            // Only reachable if the stream's gate was lifted early; keep order.
            self.held.push_back(out);
            return;
        };
        let (id, what) = match out.message.body() {
            Body::Request { id, method, .. } => {
                if method == "initialize" {
                    self.initializing.insert(id.clone());
                }
                (Some(id.clone()), method.clone())
            }
            Body::Notification { method, params } => {
                if method == "notifications/cancelled"
                    && let Some(target) = params
                        .as_ref()
                        .and_then(|p| p.get("requestId"))
                        .and_then(RequestId::from_value)
                {
                    self.forget_pending(&target);
                }
                (None, method.clone())
            }
            _ => (None, "response".to_owned()),
        };
        let mut headers = self.base_headers(&[("Content-Type", "application/json")]);
        headers.extend(
            out.headers
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone())),
        );
        let body = Some(out.message.raw().to_owned());
        let kind = Kind::LegacyPost {
            id: id.clone(),
            what,
        };
        let req = self.request_to(endpoint, Method::Post, headers, body, kind, None);
        if let (Some(id), Some(l)) = (id, self.legacy.as_mut()) {
            l.pending.push(id);
        }
        self.gate(now, req);
    }

    /// A request the old transport can no longer carry fails with `why`; anything
    /// else is dropped with a notice.
    fn refuse(&mut self, out: &Outgoing, why: &str) {
        match out.message.body() {
            Body::Request { id, .. } => self.fail(id.clone(), SendFailure::Network(why.into())),
            Body::Notification { method, .. } => {
                self.notice(format!("dropped our {method}: {why}"));
            }
            _ => self.notice(format!("dropped our response: {why}")),
        }
    }

    /// Stops waiting for request `id`'s answer; whether it was awaited.
    pub(crate) fn forget_pending(&mut self, id: &RequestId) -> bool {
        let Some(l) = self.legacy.as_mut() else {
            return false;
        };
        let before = l.pending.len();
        l.pending.retain(|p| p != id);
        l.pending.len() != before
    }

    /// The session is over (the stream ended, failed, or sent something refused):
    /// everything pending or waiting fails with `why`; later messages too. The old
    /// transport has no resumption.
    pub(crate) fn legacy_over(&mut self, why: String) {
        let Some(l) = self.legacy.as_mut() else {
            return;
        };
        if l.over.is_some() {
            return;
        }
        l.over = Some(why.clone());
        let pending = std::mem::take(&mut l.pending);
        if let Some(stream) = l.stream.take() {
            self.drop_exchange(stream);
        }
        // Every gate is the old transport's here (the stream or a POST).
        for g in std::mem::take(&mut self.gating) {
            self.timers
                .retain(|(_, t)| *t != crate::machine::Timer::Deadline(g));
        }
        self.notice(why.clone());
        for id in pending {
            self.fail(id, SendFailure::Network(why.clone()));
        }
        for out in std::mem::take(&mut self.held) {
            self.refuse(&out, &why);
        }
    }

    /// The head of one of the old transport's requests.
    pub(crate) fn legacy_head(
        &mut self,
        now: Timestamp,
        req: ReqId,
        kind: &Kind,
        status: u16,
        hdrs: &[(String, String)],
    ) {
        let ok = (200..300).contains(&status);
        let phase = match kind {
            Kind::LegacyStream if ok && headers::is_event_stream(hdrs) => {
                self.notice(
                    "opened the HTTP+SSE stream (GET); waiting for its endpoint event".into(),
                );
                Phase::Sse
            }
            Kind::LegacyStream => {
                let what = if ok {
                    "not an event stream"
                } else {
                    "a refusal"
                };
                self.drop_exchange(req);
                self.legacy_over(format!(
                    "the server answered the HTTP+SSE GET with HTTP {status} ({what}); the session cannot start"
                ));
                return;
            }
            _ => {
                self.ungate(now, req);
                if ok {
                    // The answer comes on the stream; the body ("Accepted") is not read
                    // as a message, but collected (bounded) so the connection ends cleanly.
                    Phase::Json {
                        buf: Vec::new(),
                        declared: None,
                    }
                } else {
                    Phase::Refused {
                        status,
                        buf: Vec::new(),
                    }
                }
            }
        };
        if let Some(ex) = self.exchanges.get_mut(&req) {
            ex.phase = phase;
        }
    }

    /// Bytes of the old transport's GET stream.
    pub(crate) fn legacy_bytes(&mut self, now: Timestamp, req: ReqId, chunk: &[u8]) {
        let Some(l) = self.legacy.as_mut() else {
            return;
        };
        let events = match l.parser.feed(chunk) {
            Ok(events) => events,
            Err(SseError::TooLarge { size, limit, .. }) => {
                self.legacy_over(format!("the HTTP+SSE stream sent an event of at least {size} bytes, over the {limit}-byte limit; the old transport cannot skip it, so the session is over"));
                return;
            }
        };
        for ev in events {
            match ev.event.as_deref() {
                Some("endpoint") => self.endpoint_event(now, req, &ev.data),
                None | Some("message") => self.legacy_message(ev.data),
                Some(other) => {
                    let other: String = other.chars().take(64).collect();
                    self.notice(format!("ignored an HTTP+SSE event of type {other:?}"));
                }
            }
            if self.legacy.as_ref().is_none_or(|l| l.over.is_some()) {
                return;
            }
        }
    }

    fn endpoint_event(&mut self, now: Timestamp, req: ReqId, data: &[u8]) {
        if self.legacy.as_ref().is_some_and(|l| l.endpoint.is_some()) {
            self.notice("ignored a second endpoint event on the HTTP+SSE stream".into());
            return;
        }
        let resolved = if self.cfg.via_relay {
            relay_endpoint(&self.cfg.url, data)
        } else {
            resolve_endpoint(&self.cfg.url, data).map(|e| {
                let s = shown(&e);
                (e, s)
            })
        };
        match resolved {
            Ok((endpoint, shown)) => {
                if let Some(l) = self.legacy.as_mut() {
                    l.endpoint = Some(endpoint);
                }
                if let Some(c) = self.choice.as_mut() {
                    c.why = format!("{}: endpoint {shown}", c.why);
                    c.endpoint = Some(shown);
                    let why = c.why.clone();
                    self.notice(why);
                }
                self.ungate(now, req);
            }
            Err(e) => {
                if let Some(l) = self.legacy.as_mut() {
                    l.refused = Some(e.clone());
                }
                self.legacy_over(e.to_string());
            }
        }
    }

    /// A `message` event: routed like Streamable HTTP's SSE answers (the core
    /// reports what is not JSON-RPC as a diagnostic).
    fn legacy_message(&mut self, data: Vec<u8>) {
        if data.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let text = String::from_utf8_lossy(&data).into_owned();
        for msg in decode_frame(&text).items.into_iter().flatten() {
            if let Body::Response { id, .. } | Body::Error { id: Some(id), .. } = msg.body() {
                self.forget_pending(id);
            }
        }
        self.frame(data);
    }

    /// The old transport's request `req` ended (`failure` when below HTTP).
    pub(crate) fn legacy_done(
        &mut self,
        now: Timestamp,
        req: ReqId,
        kind: Kind,
        phase: Phase,
        failure: Option<String>,
    ) {
        match (kind, phase, failure) {
            (Kind::LegacyStream, _, None) => self.legacy_over(
                "the server closed the HTTP+SSE stream; the old transport cannot resume, so the session is over".into(),
            ),
            (Kind::LegacyStream, _, Some(why)) => self.legacy_over(format!(
                "the HTTP+SSE stream failed ({why}); the old transport cannot resume, so the session is over"
            )),
            (Kind::LegacyPost { id, what }, Phase::Refused { status, buf }, None) => {
                let body = String::from_utf8_lossy(&buf).into_owned();
                match id {
                    Some(id) if self.forget_pending(&id) => {
                        self.fail(id, SendFailure::Rejected { status, body });
                    }
                    Some(_) => {}
                    None => {
                        let line = headers::first_line(&body).to_owned();
                        self.notice(format!(
                            "the server refused our {what} with HTTP {status}: {line}"
                        ));
                    }
                }
            }
            (Kind::LegacyPost { id, what }, _, Some(why)) => {
                self.ungate(now, req);
                match id {
                    Some(id) if self.forget_pending(&id) => {
                        self.fail(id, SendFailure::Network(why));
                    }
                    Some(_) => {}
                    None => self.notice(format!("could not send our {what}: {why}")),
                }
            }
            _ => self.ungate(now, req),
        }
    }
}
