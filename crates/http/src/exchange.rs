//! What the network answered: status mapping, bodies, SSE events, cut streams.

use mcpg_core::Timestamp;
use mcpg_core::client::SendFailure;

use crate::headers;
use crate::machine::{Kind, Phase, Stream, Timer};
use crate::sse::{HEAD_KEPT, SseParser};
use crate::{HttpMachine, NetEvent, NetFailure, ReqId};

/// How much of a refused request's body is kept for the failure.
const MAX_ERROR_BODY: usize = 64 << 10;

impl HttpMachine {
    /// What the network did with one request, whichever step it is.
    pub fn handle_net(&mut self, now: Timestamp, ev: NetEvent) {
        match ev {
            NetEvent::Head {
                id,
                status,
                headers,
            } => self.handle_head(now, id, status, &headers),
            NetEvent::Chunk(id, bytes) => self.handle_body(now, id, &bytes),
            NetEvent::End(id) => self.handle_end(now, id),
            NetEvent::Failed(id, failure) => self.handle_failed(now, id, failure),
        }
    }

    /// The status line and headers of request `req` arrived.
    pub fn handle_head(
        &mut self,
        now: Timestamp,
        req: ReqId,
        status: u16,
        headers: &[(String, String)],
    ) {
        let Some(ex) = self.exchanges.get(&req) else {
            return;
        };
        let (kind, sent_session) = (ex.kind.clone(), ex.session.clone());
        if kind == Kind::Delete {
            let reason = if (200..300).contains(&status) || status == 405 {
                "closed by the client; session ended".to_owned()
            } else {
                format!("closed by the client; DELETE of the session answered HTTP {status}")
            };
            self.drop_exchange(req);
            self.finish_close(reason);
            return;
        }
        if matches!(kind, Kind::LegacyStream | Kind::LegacyPost { .. }) {
            self.legacy_head(now, req, &kind, status, headers);
            return;
        }
        if self.probe_answered(now, req, status) {
            return;
        }
        self.settle_on_success(&kind, status);
        self.capture_session(headers);
        if self.hold_if_unauthorized(now, req, status, headers) {
            return;
        }
        let ok = (200..300).contains(&status);
        let sse = headers::is_event_stream(headers);
        let phase = match &kind {
            Kind::Request(id) | Kind::Resume(id) if status == 404 && sent_session.is_some() => {
                // 404 on a request that carried a session id: the session is gone.
                if self.session == sent_session {
                    self.session = None;
                }
                let id = id.clone();
                self.end_request(req, &id);
                self.fail(id, SendFailure::SessionExpired);
                return;
            }
            Kind::Resume(id) if status == 405 => {
                let id = id.clone();
                self.end_request(req, &id);
                self.fail(id, SendFailure::Network("the SSE stream ended before the response and the server does not allow resuming it (GET answered 405)".into()));
                return;
            }
            Kind::Resume(id) if ok && !sse => {
                let id = id.clone();
                self.drop_exchange(req);
                self.stream_broke(
                    now,
                    &id,
                    "the server did not answer the GET with an event stream",
                );
                return;
            }
            Kind::Listen => {
                self.ungate(now, req);
                if status == 405 {
                    // Allowed by the spec: the server only answers on POST streams.
                    self.drop_exchange(req);
                    self.listen = None;
                    return;
                }
                if !ok || !sse {
                    self.drop_exchange(req);
                    self.listen = None;
                    self.notice(format!(
                        "the server refused the standalone SSE stream (HTTP {status})"
                    ));
                    return;
                }
                if let Some(l) = self.listen.as_mut() {
                    l.parser.reconnected();
                    l.got_events = false;
                }
                self.notice("listening on the standalone SSE stream (GET)".into());
                Phase::Sse
            }
            _ if !ok => Phase::Refused {
                status,
                buf: Vec::new(),
            },
            Kind::Request(id) | Kind::Resume(id) if sse => {
                let max = self.cfg.max_event;
                let s = self.streams.entry(id.clone()).or_insert_with(|| Stream {
                    parser: SseParser::new(max),
                    resumes: 0,
                    unreachable: 0,
                });
                s.parser.reconnected();
                s.unreachable = 0;
                Phase::Sse
            }
            Kind::OneWay(_) if sse => Phase::Sse,
            _ => Phase::Json {
                buf: Vec::new(),
                declared: headers::content_length(headers),
            },
        };
        if let Kind::OneWay(_) = kind {
            self.ungate(now, req);
        }
        if let Some(ex) = self.exchanges.get_mut(&req) {
            ex.phase = phase;
        }
    }

    /// Some bytes of request `req`'s body arrived.
    pub fn handle_body(&mut self, now: Timestamp, req: ReqId, chunk: &[u8]) {
        let Some(ex) = self.exchanges.get_mut(&req) else {
            return;
        };
        let kind = ex.kind.clone();
        match &mut ex.phase {
            Phase::Json { buf, declared } => {
                if buf.len() + chunk.len() > self.cfg.max_body {
                    let size = declared.unwrap_or(buf.len() + chunk.len());
                    let mut head = std::mem::take(buf);
                    head.extend_from_slice(&chunk[..chunk.len().min(HEAD_KEPT)]);
                    head.truncate(HEAD_KEPT);
                    self.oversized(req, &kind, size, self.cfg.max_body, head);
                } else {
                    buf.extend_from_slice(chunk);
                }
            }
            Phase::Refused { buf, .. } => {
                let room = MAX_ERROR_BODY.saturating_sub(buf.len());
                buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            Phase::Sse if kind == Kind::LegacyStream => self.legacy_bytes(now, req, chunk),
            Phase::Sse => self.sse_bytes(now, req, &kind, chunk),
            Phase::AwaitHead => {}
        }
    }

    /// Request `req`'s body ended normally.
    pub fn handle_end(&mut self, now: Timestamp, req: ReqId) {
        let Some(ex) = self.exchanges.remove(&req) else {
            return;
        };
        self.timers.retain(|(_, t)| *t != Timer::Deadline(req));
        match (ex.kind, ex.phase) {
            (kind @ (Kind::LegacyStream | Kind::LegacyPost { .. }), phase) => {
                self.legacy_done(now, req, kind, phase, None);
            }
            (Kind::Request(id), Phase::Json { buf, .. }) => {
                self.by_rpc.remove(&id);
                if buf.iter().all(u8::is_ascii_whitespace) {
                    self.fail(
                        id,
                        SendFailure::Network(
                            "the server accepted the request but sent no response".into(),
                        ),
                    );
                } else {
                    self.frame(buf);
                }
            }
            (Kind::Request(id) | Kind::Resume(id), Phase::Refused { status, buf }) => {
                self.by_rpc.remove(&id);
                self.streams.remove(&id);
                let body = String::from_utf8_lossy(&buf).into_owned();
                self.fail(id, SendFailure::Rejected { status, body });
            }
            (Kind::Request(id) | Kind::Resume(id), Phase::Sse) => {
                self.stream_broke(now, &id, "it ended");
            }
            (Kind::OneWay(what), Phase::Refused { status, buf }) => {
                let body = String::from_utf8_lossy(&buf);
                let line = headers::first_line(&body).to_owned();
                self.notice(format!(
                    "the server refused our {what} with HTTP {status}: {line}"
                ));
            }
            // Some servers answer 200 with a body; anything in it is still a message.
            (Kind::OneWay(_), Phase::Json { buf, .. })
                if !buf.iter().all(u8::is_ascii_whitespace) =>
            {
                self.frame(buf);
            }
            (Kind::Listen, Phase::Sse) => self.listen_ended(now, None),
            (Kind::Listen, _) => self.ungate(now, req),
            (Kind::OneWay(_), _) => self.ungate(now, req),
            _ => {}
        }
    }

    /// Request `req` failed below HTTP (before or after its head).
    pub fn handle_failed(&mut self, now: Timestamp, req: ReqId, failure: NetFailure) {
        let Some(ex) = self.exchanges.remove(&req) else {
            return;
        };
        self.timers.retain(|(_, t)| *t != Timer::Deadline(req));
        self.probe_settled(now, req);
        let why = failure.to_string();
        match (ex.kind, ex.phase) {
            (kind @ (Kind::LegacyStream | Kind::LegacyPost { .. }), phase) => {
                self.legacy_done(now, req, kind, phase, Some(why));
            }
            (Kind::Request(id) | Kind::Resume(id), Phase::Sse) => {
                self.stream_broke(now, &id, &why);
            }
            (Kind::Resume(id), _) => {
                let unreachable = matches!(failure, NetFailure::Unreachable(_));
                let give_up = match self.streams.get_mut(&id) {
                    Some(s) if unreachable => {
                        s.unreachable += 1;
                        s.unreachable >= 2
                    }
                    Some(_) => false,
                    None => true,
                };
                if give_up {
                    self.by_rpc.remove(&id);
                    self.streams.remove(&id);
                    self.fail(id, SendFailure::Network(format!("the SSE stream broke off before the response and the server is unreachable: {why}")));
                } else {
                    self.notice(format!("resuming the SSE stream failed: {why}"));
                    self.stream_broke(now, &id, &why);
                }
            }
            (Kind::Request(id), _) => {
                self.by_rpc.remove(&id);
                self.initializing.remove(&id);
                self.fail(id, SendFailure::Network(why));
            }
            (Kind::OneWay(what), _) => {
                self.notice(format!("could not send our {what}: {why}"));
                self.ungate(now, req);
            }
            (Kind::Listen, phase) => {
                self.ungate(now, req);
                self.listen_ended(now, Some((why, matches!(phase, Phase::AwaitHead))));
            }
            (Kind::Delete, _) => self.finish_close(format!(
                "closed by the client; DELETE of the session failed: {why}"
            )),
        }
    }
}
