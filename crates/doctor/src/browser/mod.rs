//! The doctor a browser runs against a URL, sans-IO: which request comes next and
//! what each answer says, collected into a [`Report`]. The page only performs the
//! fetches it asks for ([`Run::poll_fetch`]) and hands back what the network did
//! ([`Run::handle_net`]); the judging is this crate's own functions, as for the CLI.
//!
//! A browser sees less than the CLI: a failed `fetch` is one `TypeError` for name
//! resolution, TCP, TLS and a CORS refusal alike, and the preflight is hidden. So
//! when the POST is refused, one `no-cors` request to the same URL tells the two
//! apart: an opaque answer means the server is up and only CORS stands in the way
//! (the fix is the bridge's relay), no answer means it is not reachable from here.
//! Every request goes to the URL the run was made for, nowhere else; after a 401
//! the run stops, and the page runs the sign-in discovery itself ([`Run::refusal`]).

mod conn;
mod raw;
mod session;

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_net::{HttpRequest, NetEvent, ReqId};

use crate::check::Check;
use crate::report::Report;

/// One request for the page to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetch {
    /// The request (its id comes back in every [`NetEvent`] about it).
    pub request: HttpRequest,
    /// Make it with `mode: "no-cors"`: its answer is opaque (report a `Head` with
    /// status 0, then `End`), it only shows that the server answered at all.
    pub no_cors: bool,
}

/// Why a run cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The URL is not `http:` or `https:` with a host.
    #[error("the Doctor checks an http(s) URL, not {0:?}")]
    NotHttp(String),
}

/// Where the run is.
#[derive(Debug)]
enum Phase {
    /// The POST of `initialize` with the full `Accept`.
    Post,
    /// The `no-cors` request after a refused POST.
    Probe,
    /// The same POST with `Accept: application/json` alone.
    Accept,
    /// The session checks.
    Session(Box<session::Sessions>),
    /// Finished.
    Done,
}

/// One doctor run against one URL.
#[derive(Debug)]
pub struct Run {
    url: String,
    origin: String,
    host: String,
    https: bool,
    report: Report,
    phase: Phase,
    out: VecDeque<Fetch>,
    next_id: u64,
    /// The raw request in flight and what its answer showed so far.
    raw: raw::InFlight,
    /// The first POST's answer, when it came.
    full: Option<crate::http::PostSeen>,
    /// The POST's answer when it was a 401 or 403 (the run stopped there).
    refused: Option<crate::http::PostSeen>,
}

impl Run {
    /// A run against `url` from a page at `origin`; the first request is ready.
    pub fn new(url: &str, origin: &str) -> Result<Run, RunError> {
        let (https, rest) = if let Some(r) = url.strip_prefix("https://") {
            (true, r)
        } else if let Some(r) = url.strip_prefix("http://") {
            (false, r)
        } else {
            return Err(RunError::NotHttp(url.to_owned()));
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let host_port = authority.rsplit('@').next().unwrap_or_default();
        let host = if let Some(v6) = host_port.strip_prefix('[') {
            v6.split(']').next().unwrap_or_default()
        } else {
            host_port.split(':').next().unwrap_or_default()
        };
        if host.is_empty() {
            return Err(RunError::NotHttp(url.to_owned()));
        }
        let mut run = Run {
            url: url.to_owned(),
            origin: origin.to_owned(),
            host: host.to_owned(),
            https,
            report: Report::new(),
            phase: Phase::Post,
            out: VecDeque::new(),
            next_id: 0,
            raw: raw::InFlight::default(),
            full: None,
            refused: None,
        };
        run.send_post(crate::http::ACCEPT);
        Ok(run)
    }

    /// The next request to make, if any.
    pub fn poll_fetch(&mut self) -> Option<Fetch> {
        self.out.pop_front()
    }

    /// What the network did with a request (events for requests the run no longer
    /// waits for are ignored).
    pub fn handle_net(&mut self, now: Timestamp, ev: NetEvent) {
        match &mut self.phase {
            Phase::Session(s) => {
                s.handle_net(now, ev);
                self.after_session(now);
            }
            Phase::Done => {}
            Phase::Post | Phase::Probe | Phase::Accept => {
                if let Some(seen) = self.raw.handle(ev) {
                    self.raw_done(now, seen);
                }
            }
        }
    }

    /// When [`Run::handle_timeout`] wants calling next.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        match &self.phase {
            Phase::Session(s) => s.poll_timeout(),
            _ => None,
        }
    }

    /// Time passed (a request that took too long fails in the session checks).
    pub fn handle_timeout(&mut self, now: Timestamp) {
        if let Phase::Session(s) = &mut self.phase {
            s.handle_timeout(now);
            self.after_session(now);
        }
    }

    /// The findings so far, in order.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Whether every check has a finding.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// Ends the run: every check not reached is skipped, and the findings are put
    /// in [`Check::URL`]'s order (CORS is judged together with the first POST).
    pub(super) fn finish(&mut self, why: &str) {
        self.report.skip_rest(&Check::URL, why);
        let mut ordered = Report::new();
        for c in Check::URL {
            if let Some(f) = self.report.get(c) {
                ordered.push(f.clone());
            }
        }
        self.report = ordered;
        self.phase = Phase::Done;
    }

    /// The POST's answer when the server refused it with a 401 or 403 (the run is
    /// done then): the page runs the sign-in discovery from it (`mcpg_auth::Probe`,
    /// whose requests go to the URLs the server and its authorization server name,
    /// each checked by the flow first) and hands back what it saw
    /// ([`Run::judge_sign_in`]).
    pub fn refusal(&self) -> Option<&crate::http::PostSeen> {
        self.refused.as_ref()
    }

    /// Judges what the sign-in discovery after [`Run::refusal`] saw: the sign-in row.
    pub fn judge_sign_in(&mut self, seen: &crate::auth::AuthSeen) {
        self.report
            .replace(crate::auth::discovery(&self.url, Some(seen)));
    }

    /// The URL under test.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn id(&mut self) -> ReqId {
        self.next_id += 1;
        ReqId(self.next_id)
    }

    /// Starts the session checks, or finishes.
    fn start_session(&mut self, now: Timestamp) {
        let mut s = session::Sessions::new(&self.url, now, self.next_id);
        s.start(now);
        self.phase = Phase::Session(Box::new(s));
        self.after_session(now);
    }

    /// Moves the session checks' requests out, and their findings in when done.
    fn after_session(&mut self, now: Timestamp) {
        let Phase::Session(s) = &mut self.phase else {
            return;
        };
        s.pump(now);
        while let Some(request) = s.poll_request() {
            self.out.push_back(Fetch {
                request,
                no_cors: false,
            });
        }
        if let Some(findings) = s.take_findings() {
            for f in findings {
                self.report.push(f);
            }
            self.finish("not reached");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_urls() {
        assert!(matches!(
            Run::new("ws://x/mcp", "http://p"),
            Err(RunError::NotHttp(_))
        ));
        assert!(Run::new("https:///mcp", "http://p").is_err());
        let r = Run::new("http://u:p@[::1]:3001/mcp", "http://p").unwrap();
        assert_eq!(r.host, "::1");
    }
}
