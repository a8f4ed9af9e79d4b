//! Making requests: the POST of a client message, the GETs (resuming a cut
//! stream, the standalone stream), and holding later messages back while a one-way
//! POST or the GET stream's opening is pending (so the server sees them in order).

use std::time::Duration;

use mcpg_core::client::Outgoing;
use mcpg_core::jsonrpc::RequestId;
use mcpg_core::{ProtocolVersion, Timestamp};

use crate::headers::{ACCEPT_BOTH, ACCEPT_SSE, PROTOCOL_VERSION, SESSION_ID};
use crate::machine::{Exchange, Kind, Listen, Phase, Timer};
use crate::sse::SseParser;
use crate::{HttpMachine, HttpRequest, Method, ReqId};

impl HttpMachine {
    // ----- making requests -----

    /// The configured headers plus `extra`.
    pub(crate) fn base_headers(&self, extra: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut h: Vec<(String, String)> = extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        h.extend(self.cfg.headers.iter().cloned());
        if let Some(token) = &self.bearer {
            h.push(("Authorization".into(), format!("Bearer {token}")));
        }
        h
    }

    pub(crate) fn request(
        &mut self,
        method: Method,
        headers: Vec<(String, String)>,
        body: Option<String>,
        kind: Kind,
        session: Option<String>,
    ) -> ReqId {
        let url = self.cfg.url.clone();
        self.request_to(url, method, headers, body, kind, session)
    }

    /// [`HttpMachine::request`] to another URL (the old transport's endpoint).
    pub(crate) fn request_to(
        &mut self,
        url: String,
        method: Method,
        headers: Vec<(String, String)>,
        body: Option<String>,
        kind: Kind,
        session: Option<String>,
    ) -> ReqId {
        let id = ReqId(self.next_req);
        self.next_req += 1;
        self.exchanges.insert(
            id,
            Exchange {
                kind,
                session,
                phase: Phase::AwaitHead,
                sent: None,
            },
        );
        self.requests.push_back(HttpRequest {
            id,
            method,
            url,
            headers,
            body,
        });
        id
    }

    pub(crate) fn post(&mut self, out: &Outgoing, kind: Kind) -> ReqId {
        let mut headers = self.base_headers(&[
            ("Accept", ACCEPT_BOTH),
            ("Content-Type", "application/json"),
        ]);
        headers.extend(
            out.headers
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone())),
        );
        // 2026-07-28 `Mcp-Param-*`: names come from the server's tool schemas.
        headers.extend(out.param_headers.iter().cloned());
        let session = self.session.clone();
        if let Some(s) = &session {
            headers.push((SESSION_ID.into(), s.clone()));
        }
        let req = self.request(
            Method::Post,
            headers,
            Some(out.message.raw().to_owned()),
            kind,
            session,
        );
        if self.cfg.hold_unauthorized
            && let Some(ex) = self.exchanges.get_mut(&req)
        {
            ex.sent = Some(out.clone());
        }
        req
    }

    pub(crate) fn one_way(&mut self, now: Timestamp, out: &Outgoing, what: String) -> ReqId {
        let req = self.post(out, Kind::OneWay(what));
        self.gate(now, req);
        req
    }

    /// A GET for the event stream (`Last-Event-ID` when resuming).
    pub(crate) fn get(&mut self, kind: Kind, last: Option<String>) -> ReqId {
        let mut headers = self.base_headers(&[("Accept", ACCEPT_SSE)]);
        if let Some(v) = self.version.filter(|v| v.requires_version_header()) {
            headers.push((PROTOCOL_VERSION.into(), v.as_str().into()));
        }
        let session = self.session.clone();
        if let Some(s) = &session {
            headers.push((SESSION_ID.into(), s.clone()));
        }
        if let Some(last) = last {
            headers.push(("Last-Event-ID".into(), last));
        }
        self.request(Method::Get, headers, None, kind, session)
    }

    pub(crate) fn resume_stream(&mut self, id: &RequestId) {
        let Some(last) = self
            .streams
            .get(id)
            .and_then(|s| s.parser.last_event_id())
            .map(str::to_owned)
        else {
            return;
        };
        let req = self.get(Kind::Resume(id.clone()), Some(last));
        self.by_rpc.insert(id.clone(), req);
    }

    /// Whether a standalone GET stream may be opened now: asked for, a revision
    /// that has one (2025-03-26 … 2025-11-25), and not closing.
    pub(crate) fn may_listen(&self) -> bool {
        let allowed = self.version.is_some_and(|v| {
            (ProtocolVersion::V2025_03_26..=ProtocolVersion::V2025_11_25).contains(&v)
        });
        self.cfg.listen && allowed && !self.closing
    }

    /// Opens (or reopens) the standalone GET stream, where the revision has one.
    pub(crate) fn open_listen(&mut self, now: Timestamp) {
        if !self.may_listen() {
            return;
        }
        let running = self.exchanges.values().any(|e| e.kind == Kind::Listen);
        if running {
            return;
        }
        // Only the first opening holds messages back; reconnections do not.
        let first = self.listen.is_none();
        let last = self
            .listen
            .get_or_insert_with(|| Listen {
                parser: SseParser::new(self.cfg.max_event),
                failures: 0,
                got_events: false,
            })
            .parser
            .last_event_id()
            .map(str::to_owned);
        let req = self.get(Kind::Listen, last);
        if first {
            self.gate(now, req);
        }
    }

    // ----- holding messages back -----

    /// Later messages wait until `req` has its answer (or its deadline passed).
    pub(crate) fn gate(&mut self, now: Timestamp, req: ReqId) {
        self.gating.insert(req);
        self.deadline(now, req, self.cfg.one_way_timeout);
    }

    pub(crate) fn deadline(&mut self, now: Timestamp, req: ReqId, after: Duration) {
        self.timers.insert((now.after(after), Timer::Deadline(req)));
    }

    /// `req` no longer holds messages back; send what waited (in order).
    pub(crate) fn ungate(&mut self, now: Timestamp, req: ReqId) {
        if !self.gating.remove(&req) {
            return;
        }
        self.timers.retain(|(_, t)| *t != Timer::Deadline(req));
        while self.gating.is_empty() {
            let Some(out) = self.held.pop_front() else {
                break;
            };
            self.send(now, out);
        }
    }

    pub(crate) fn deadline_passed(&mut self, now: Timestamp, req: ReqId) {
        let Some(kind) = self.exchanges.get(&req).map(|e| e.kind.clone()) else {
            return;
        };
        let secs = self.cfg.one_way_timeout.as_secs();
        match kind {
            Kind::OneWay(what) => {
                self.drop_exchange(req);
                self.notice(format!("gave up sending our {what} after {secs}s"));
                self.ungate(now, req);
            }
            Kind::Delete => {
                self.drop_exchange(req);
                self.finish_close("closed by the client; DELETE of the session timed out".into());
            }
            Kind::LegacyStream if self.legacy.as_ref().is_some_and(|l| l.endpoint.is_none()) => {
                self.legacy_over(format!(
                    "the HTTP+SSE stream sent no endpoint event within {secs}s; nothing was sent"
                ));
            }
            // The GET stream may open later; messages need not wait for it (nor for
            // a slow `initialize` probe, which then decides nothing).
            _ => {
                if self.probe.as_ref().is_some_and(|(p, _)| *p == req) {
                    self.probe = None;
                }
                self.ungate(now, req);
            }
        }
    }
}
