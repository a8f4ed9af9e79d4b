//! SSE answers and what becomes of messages: events out of a stream, a cut stream
//! resumed or failed, the GET stream reconnected, oversized and non-UTF-8 frames,
//! the revision learnt from an `initialize` result, the session id captured.

use std::time::Duration;

use mcpg_core::client::SendFailure;
use mcpg_core::jsonrpc::{Body, RequestId, decode_frame};
use mcpg_core::{ProtocolVersion, Timestamp};

use crate::headers::{self, SESSION_ID};
use crate::machine::{Kind, Timer};
use crate::sse::{SseError, SseParser};
use crate::{HttpEvent, HttpMachine, ReqId};

/// Consecutive failed attempts after which the standalone stream is given up.
const MAX_LISTEN_FAILURES: u32 = 3;

impl HttpMachine {
    // ----- SSE -----

    pub(crate) fn sse_bytes(&mut self, now: Timestamp, req: ReqId, kind: &Kind, chunk: &[u8]) {
        let parsed = match kind {
            Kind::Request(id) | Kind::Resume(id) => {
                self.streams.get_mut(id).map(|s| s.parser.feed(chunk))
            }
            Kind::Listen => self.listen.as_mut().map(|l| l.parser.feed(chunk)),
            // A one-way POST answered with a stream: read it, nothing to resume.
            _ => Some(SseParser::new(self.cfg.max_event).feed(chunk)),
        };
        let events = match parsed {
            Some(Ok(events)) => events,
            Some(Err(SseError::TooLarge { size, limit, head })) => {
                self.oversized(req, kind, size, limit, head);
                return;
            }
            None => return,
        };
        for ev in events {
            // Priming events (an id and empty data) only set the resume point.
            if ev.data.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if let Some(l) = self.listen.as_mut().filter(|_| *kind == Kind::Listen) {
                l.got_events = true;
            }
            let answered = match kind {
                Kind::Request(id) | Kind::Resume(id) => answers(&ev.data, id),
                _ => false,
            };
            self.frame(ev.data);
            if let (true, Kind::Request(id) | Kind::Resume(id)) = (answered, kind) {
                // The exchange is complete; servers may keep the stream open, we don't.
                self.end_request(req, id);
                return;
            }
        }
        let _ = now;
    }

    /// Request `id`'s stream ended before its answer: resume it after `retry` with
    /// `Last-Event-ID`, or fail the request.
    pub(crate) fn stream_broke(&mut self, now: Timestamp, id: &RequestId, why: &str) {
        self.by_rpc.remove(id);
        let max_resumes = self.cfg.max_resumes;
        let delay = self.retry_delay(self.streams.get(id).and_then(|s| s.parser.retry()));
        let Some(s) = self.streams.get_mut(id) else {
            return;
        };
        let Some(last) = s.parser.last_event_id().map(str::to_owned) else {
            self.streams.remove(id);
            self.fail(id.clone(), SendFailure::Network(format!("the server's SSE stream broke off before the response ({why}) and gave no event id to resume from")));
            return;
        };
        s.resumes += 1;
        if s.resumes > max_resumes {
            self.streams.remove(id);
            self.fail(id.clone(), SendFailure::Network(format!("the SSE stream ended before the response and {max_resumes} attempts to resume it failed")));
            return;
        }
        self.notice(format!("the SSE stream for request {id} ended before its response; resuming after {} ms with Last-Event-ID {last}", delay.as_millis()));
        self.timers
            .insert((now.after(delay), Timer::Resume(id.clone())));
    }

    pub(crate) fn listen_ended(&mut self, now: Timestamp, failed: Option<(String, bool)>) {
        let delay = self.retry_delay(self.listen.as_ref().and_then(|l| l.parser.retry()));
        let Some(l) = self.listen.as_mut() else {
            return;
        };
        // A stream that ends after delivering something is normal (servers may close
        // it at will); one that ends empty-handed counts against the bound.
        l.failures = if l.got_events && failed.is_none() {
            0
        } else {
            l.failures + 1
        };
        if l.failures >= MAX_LISTEN_FAILURES {
            self.listen = None;
            if let Some((why, _)) = failed {
                self.notice(format!("gave up on the standalone SSE stream: {why}"));
            }
            return;
        }
        let delay = delay.max(Duration::from_millis(50));
        self.timers.insert((now.after(delay), Timer::Listen));
    }

    // ----- outcomes -----

    pub(crate) fn oversized(
        &mut self,
        req: ReqId,
        kind: &Kind,
        size: usize,
        limit: usize,
        head: Vec<u8>,
    ) {
        let (Kind::Request(id) | Kind::Resume(id)) = kind else {
            // Not an answer (the GET stream, a one-way POST's body): no request to
            // fail, and the core must not guess one; say what was dropped.
            let what = match kind {
                Kind::Listen => "the standalone SSE stream",
                _ => "the answer to one of our notifications",
            };
            self.notice(format!(
                "dropped a message of {size} bytes from {what}: it exceeds the {limit}-byte limit"
            ));
            if *kind == Kind::Listen {
                self.listen = None;
            }
            self.drop_exchange(req);
            return;
        };
        let id = id.clone();
        self.events.push_back(HttpEvent::Oversized {
            request: id.clone(),
            size,
            limit,
            head,
        });
        self.end_request(req, &id);
        // Harmless if the core already failed it on the Oversized event.
        self.fail(
            id,
            SendFailure::Network(format!(
                "the answer ({size} bytes) exceeds the {limit}-byte limit"
            )),
        );
    }

    /// Request `id`'s exchange `req` is over: forget it and abort the HTTP request.
    pub(crate) fn end_request(&mut self, req: ReqId, id: &RequestId) {
        if self.by_rpc.get(id) == Some(&req) {
            self.by_rpc.remove(id);
        }
        self.streams.remove(id);
        self.drop_exchange(req);
    }

    pub(crate) fn fail(&mut self, id: RequestId, failure: SendFailure) {
        self.initializing.remove(&id);
        self.events.push_back(HttpEvent::SendFailed { id, failure });
    }

    /// Emits one received frame (learning the revision from an `initialize` result).
    pub(crate) fn frame(&mut self, bytes: Vec<u8>) {
        match String::from_utf8(bytes) {
            Ok(text) => {
                self.learn_version(&text);
                self.events.push_back(HttpEvent::Frame(text));
            }
            Err(e) => {
                let bytes = e.into_bytes();
                self.learn_version(&String::from_utf8_lossy(&bytes));
                self.events.push_back(HttpEvent::NotUtf8(bytes));
            }
        }
    }

    pub(crate) fn learn_version(&mut self, text: &str) {
        if self.initializing.is_empty() {
            return;
        }
        for msg in decode_frame(text).items.into_iter().flatten() {
            if let Body::Response { id, result } = msg.body()
                && self.initializing.remove(id)
                && let Some(v) = result
                    .get("protocolVersion")
                    .and_then(|v| v.as_str())
                    .and_then(ProtocolVersion::parse)
            {
                self.version = Some(v);
            }
        }
    }

    pub(crate) fn capture_session(&mut self, headers: &[(String, String)]) {
        let Some(v) = headers::find(headers, SESSION_ID) else {
            return;
        };
        if headers::valid_session(v) {
            self.session = Some(v.to_owned());
        } else {
            self.notice(format!(
                "ignored an invalid {SESSION_ID} header from the server: {v:?}"
            ));
        }
    }

    pub(crate) fn retry_delay(&self, asked: Option<Duration>) -> Duration {
        asked
            .unwrap_or(self.cfg.default_retry)
            .min(self.cfg.max_retry)
    }
}

/// Whether `data` holds the response (or error) to request `id`.
fn answers(data: &[u8], id: &RequestId) -> bool {
    decode_frame(&String::from_utf8_lossy(data))
        .items
        .iter()
        .flatten()
        .any(|m| match m.body() {
            Body::Response { id: rid, .. } => rid == id,
            Body::Error { id: Some(rid), .. } => rid == id,
            _ => false,
        })
}
