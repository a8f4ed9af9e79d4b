//! State shared by every HTTP exchange of one connection: the client, the endpoint,
//! the session id the server handed out, and the road back to the driver.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{RequestBuilder, Response};
use tokio::sync::mpsc;

use super::HttpConfig;
use crate::link::TransportEvent;

/// The session header. HTTP header names are case-insensitive; 2025-03-26 spelled it
/// `Mcp-Session-Id`, later revisions `MCP-Session-Id`.
pub(crate) const SESSION_ID: &str = "mcp-session-id";
/// The protocol version header.
pub(crate) const PROTOCOL_VERSION: &str = "mcp-protocol-version";

#[derive(Debug, Default)]
struct State {
    session: Option<String>,
    /// The protocol version the core last stamped on a message, for the requests the
    /// transport makes on its own (resuming GETs, the DELETE).
    version: Option<String>,
}

/// Shared by the dispatcher and the exchange tasks.
#[derive(Clone, Debug)]
pub(crate) struct Shared {
    pub http: reqwest::Client,
    pub cfg: Arc<HttpConfig>,
    pub events: mpsc::Sender<TransportEvent>,
    state: Arc<Mutex<State>>,
}

impl Shared {
    pub fn new(
        http: reqwest::Client,
        cfg: HttpConfig,
        events: mpsc::Sender<TransportEvent>,
    ) -> Self {
        Shared {
            http,
            cfg: Arc::new(cfg),
            events,
            state: Arc::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave this small state half-updated.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The current session id.
    pub fn session(&self) -> Option<String> {
        self.state().session.clone()
    }

    /// The protocol version seen last on an outgoing message.
    pub fn version(&self) -> Option<String> {
        self.state().version.clone()
    }

    /// Remembers the protocol version the core stamped.
    pub fn note_version(&self, v: &str) {
        self.state().version = Some(v.to_owned());
    }

    /// Takes the session id from any response that carries one.
    pub fn capture_session(&self, resp: &Response) {
        let Some(v) = resp.headers().get(SESSION_ID) else {
            return;
        };
        // The spec allows only visible ASCII; anything else cannot be echoed safely.
        match v.to_str() {
            Ok(s) if !s.is_empty() && s.bytes().all(|b| (0x21..=0x7e).contains(&b)) => {
                self.state().session = Some(s.to_owned());
            }
            _ => self.notice(format!(
                "ignored an invalid {SESSION_ID} header from the server: {v:?}"
            )),
        }
    }

    /// Forgets `expired` (if it is still the current session).
    pub fn drop_session(&self, expired: &str) {
        let mut st = self.state();
        if st.session.as_deref() == Some(expired) {
            st.session = None;
        }
    }

    /// Adds the configured extra headers and the session id.
    pub fn decorate(&self, mut rb: RequestBuilder, session: Option<&str>) -> RequestBuilder {
        let mut h = HeaderMap::new();
        for (k, v) in &self.cfg.headers {
            if let (Ok(k), Ok(v)) = (
                HeaderName::try_from(k.as_str()),
                HeaderValue::try_from(v.as_str()),
            ) {
                h.insert(k, v);
            }
        }
        rb = rb.headers(h);
        if let Some(s) = session {
            rb = rb.header(SESSION_ID, s);
        }
        rb
    }

    /// Tells the driver something worth knowing. Never blocks on a full queue: a
    /// notice is not worth stalling a stream for.
    pub fn notice(&self, text: String) {
        let _ = self.events.try_send(TransportEvent::Notice(text));
    }

    /// The delay before resuming, as the server asked, within the configured bounds.
    pub fn retry_delay(&self, asked: Option<Duration>) -> Duration {
        asked
            .unwrap_or(self.cfg.default_retry)
            .min(self.cfg.max_retry)
    }
}
