//! The run's requests below MCP: the POST of `initialize` (full `Accept`, then
//! `application/json` alone) and, when the browser refuses the POST, one `no-cors`
//! request that tells "blocked by CORS" from "not reachable".

use mcpg_core::{ProtocolVersion, Timestamp};
use mcpg_net::{HttpRequest, Method, NetEvent, ReqId};

use super::{Fetch, Phase, Run};
use crate::check::{Check, Finding};
use crate::http::{self, PostSeen};
use crate::network::{self, TlsSeen};

/// What one raw request showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum RawSeen {
    /// An HTTP answer (status 0: an opaque `no-cors` answer).
    Answered(PostSeen),
    /// The browser's `fetch` failed (no status).
    NoAnswer,
}

/// The raw request in flight.
#[derive(Debug, Default)]
pub(super) struct InFlight {
    id: Option<ReqId>,
    head: Option<PostSeen>,
}

impl InFlight {
    /// Hands `ev` over; `Some` once the request ended.
    pub(super) fn handle(&mut self, ev: NetEvent) -> Option<RawSeen> {
        if self.id != Some(ev.id()) {
            return None;
        }
        match ev {
            NetEvent::Head {
                status, headers, ..
            } => {
                let h = |name: &str| {
                    headers
                        .iter()
                        .find(|(k, _)| k.eq_ignore_ascii_case(name))
                        .map(|(_, v)| v.clone())
                };
                self.head = Some(PostSeen {
                    status,
                    content_type: h("content-type"),
                    location: h("location"),
                    www_authenticate: h("www-authenticate"),
                });
                None
            }
            NetEvent::Chunk(..) => None,
            // A body cut after the head still showed the status.
            NetEvent::End(_) | NetEvent::Failed(..) => {
                self.id = None;
                Some(match self.head.take() {
                    Some(p) => RawSeen::Answered(p),
                    None => RawSeen::NoAnswer,
                })
            }
        }
    }
}

/// The body of the POSTed `initialize` (the newest revision that has it).
fn initialize_body() -> String {
    serde_json::json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": ProtocolVersion::LATEST_WITH_INITIALIZE.as_str(),
            "capabilities": {},
            "clientInfo": {"name": "mcpg-doctor", "version": env!("CARGO_PKG_VERSION")}
        }
    })
    .to_string()
}

impl Run {
    /// Queues the POST of `initialize` with `accept`.
    pub(super) fn send_post(&mut self, accept: &str) {
        let id = self.id();
        self.raw = InFlight {
            id: Some(id),
            head: None,
        };
        self.out.push_back(Fetch {
            request: HttpRequest {
                id,
                method: Method::Post,
                url: self.url.clone(),
                headers: vec![
                    ("Accept".to_owned(), accept.to_owned()),
                    ("Content-Type".to_owned(), "application/json".to_owned()),
                ],
                body: Some(initialize_body()),
            },
            no_cors: false,
        });
    }

    /// Queues the `no-cors` request: a POST with a plain-text body, which needs
    /// no preflight (a GET could open a server's event stream).
    fn send_probe(&mut self) {
        let id = self.id();
        self.raw = InFlight {
            id: Some(id),
            head: None,
        };
        self.out.push_back(Fetch {
            request: HttpRequest {
                id,
                method: Method::Post,
                url: self.url.clone(),
                headers: vec![("Content-Type".to_owned(), "text/plain".to_owned())],
                body: Some(initialize_body()),
            },
            no_cors: true,
        });
    }

    /// A raw request ended with `seen`.
    pub(super) fn raw_done(&mut self, now: Timestamp, seen: RawSeen) {
        match (&self.phase, seen) {
            (Phase::Post, RawSeen::Answered(p)) => {
                self.reached("the POST was answered");
                self.report.push(http::post(&p));
                self.report.push(Finding::pass(
                    Check::Cors,
                    format!(
                        "the browser let this page ({}) read the answer to its POST (HTTP {}): \
                         the preflight and Access-Control-Allow-Origin allow it",
                        self.origin, p.status
                    ),
                ));
                let ok = (200..300).contains(&p.status);
                self.full = Some(p.clone());
                if ok {
                    self.phase = Phase::Accept;
                    self.send_post("application/json");
                } else {
                    self.report.push(http::accept(&p, &p));
                    self.after_posts(now, &p);
                }
            }
            (Phase::Post, RawSeen::NoAnswer) => {
                self.phase = Phase::Probe;
                self.send_probe();
            }
            (Phase::Probe, RawSeen::Answered(_)) => {
                self.reached("a no-cors request to the same URL was answered");
                self.report.push(Finding::skip(
                    Check::Post,
                    "the browser hides the answer to a POST it blocked",
                ));
                self.report.push(Finding::fail(
                    Check::Cors,
                    format!(
                        "the browser blocked the POST from this page ({}), yet a no-cors \
                         request to the same URL was answered: the server is up, but its CORS \
                         answer does not let this origin in",
                        self.origin
                    ),
                    http::relay_fix(&self.url),
                ));
                self.finish("the browser does not let this page read the server's answers (CORS)");
            }
            (Phase::Probe, RawSeen::NoAnswer) => {
                let why = "a browser cannot tell which failed: fetch fails with one TypeError \
                           for name resolution, TCP, TLS and CORS alike (`mcpg doctor URL` \
                           checks each)";
                for c in [Check::Resolve, Check::Tcp, Check::Tls] {
                    self.report.push(Finding::skip(c, why));
                }
                self.report.push(Finding::fail(
                    Check::Post,
                    "no HTTP answer, not even to a no-cors request: the server is not \
                     reachable from this browser",
                    "Check the URL (scheme, host, port) and that the server is running; \
                     `mcpg doctor URL` on this machine tells name resolution, TCP and TLS apart.",
                ));
                self.report.push(Finding::warn(
                    Check::Cors,
                    "not judged: nothing answered",
                    http::relay_fix(&self.url),
                ));
                self.finish("the server gave this browser no answer");
            }
            (Phase::Accept, seen) => {
                let Some(full) = self.full.clone() else {
                    self.finish("the first POST's answer was lost");
                    return;
                };
                match seen {
                    RawSeen::Answered(narrow) => self.report.push(http::accept(&full, &narrow)),
                    RawSeen::NoAnswer => self.report.push(Finding::skip(
                        Check::Accept,
                        "the second POST got no HTTP answer",
                    )),
                }
                self.after_posts(now, &full);
            }
            (Phase::Session(_) | Phase::Done, _) => {}
        }
    }

    /// Name, TCP and TLS worked, since an HTTP answer came (`how`).
    fn reached(&mut self, how: &str) {
        let host = self.host.clone();
        // A `.invalid` name never resolves on any network (RFC 6761): when one
        // answers, the page played the server itself (its in-page demos), so no
        // name, connection or certificate was involved to judge.
        if host.ends_with(".invalid") {
            let why = format!(
                "{host} is answered inside this page ({how}): a .invalid name never \
                 reaches the network, so there is no name, connection or certificate to check"
            );
            for c in [Check::Resolve, Check::Tcp, Check::Tls] {
                self.report.push(Finding::skip(c, why.clone()));
            }
            return;
        }
        self.report.push(Finding::pass(
            Check::Resolve,
            format!("{host} resolved: {how} (a browser does not show the addresses)"),
        ));
        self.report
            .push(Finding::pass(Check::Tcp, format!("connected: {how}")));
        let tls = if self.https {
            TlsSeen::Valid
        } else {
            TlsSeen::NotUsed
        };
        self.report.push(network::tls(&host, &tls));
    }

    /// After the POSTs: sign-in discovery, then the session checks.
    fn after_posts(&mut self, now: Timestamp, full: &PostSeen) {
        if full.status == 401 || full.status == 403 {
            // The page runs the discovery (`Run::refusal`) and hands back what it
            // saw (`Run::judge_sign_in`); until then the row says so.
            self.report.push(Finding::skip(
                Check::Auth,
                format!("HTTP {}: looking for where to sign in", full.status),
            ));
            self.refused = Some(full.clone());
            self.finish("the server wants a sign-in first");
            return;
        }
        self.report.push(crate::auth::discovery(&self.url, None));
        self.start_session(now);
    }
}
