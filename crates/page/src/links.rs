//! The state of each kind of link. The embedded demo and a replay are pure and run
//! here; a WebSocket and Streamable HTTP's requests are executed by the shell.

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_demo::{DemoServer, Handlers};

use crate::http_port::HttpPort;
use crate::replay::ReplayLink;

/// Which HTTP endpoint a Streamable HTTP link posts to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HttpTarget {
    /// The bridge's relay for this remote name (the shell adds its token).
    Relay(String),
    /// A URL, straight from the browser.
    Url(String),
}

/// A transport the shell opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkSpec {
    /// The bridge's WebSocket for this stdio server name, and its side channel.
    Bridge(String),
    /// Streamable HTTP.
    Http(HttpTarget),
}

/// A link's state inside the driver.
#[derive(Debug, Default)]
pub(crate) enum Link {
    /// Nothing connected.
    #[default]
    None,
    /// The embedded demo server and the frames it sent not yet read.
    Memory(Box<Memory>),
    /// A recording standing in for the server.
    Replay(Box<ReplayLink>),
    /// A bridge WebSocket: frames wait until it opened.
    Ws {
        /// Whether the shell said it opened.
        open: bool,
        /// Frames sent before it opened.
        queue: VecDeque<String>,
    },
    /// Streamable HTTP: the machine decides, the shell fetches.
    Http(Box<HttpLink>),
}

/// A Streamable HTTP link's state inside the driver.
#[derive(Debug)]
pub(crate) struct HttpLink {
    /// The machine for this endpoint and session (made by the later parts).
    pub(crate) machine: Box<dyn HttpPort>,
    /// The URL a CORS notice names: direct cross-origin URLs only (the relay and
    /// same-origin paths are not subject to CORS).
    pub(crate) cors_url: Option<String>,
    /// Why the learner gave up authorizing this link: a later refusal (the version
    /// fallback's `initialize`) fails at once with it instead of asking again.
    pub(crate) gave_up: Option<String>,
}

impl HttpLink {
    /// A link to `url` through `machine` (`/relay/NAME` for the bridge's relay: the
    /// shell adds its token, which never enters the driver).
    pub(crate) fn new(machine: Box<dyn HttpPort>, url: &str, direct: bool) -> HttpLink {
        HttpLink {
            machine,
            cors_url: (direct && !url.starts_with('/')).then(|| url.to_owned()),
            gave_up: None,
        }
    }
}

/// The demo server joined to the client in memory.
#[derive(Debug)]
pub(crate) struct Memory {
    server: DemoServer,
    inbox: VecDeque<String>,
}

impl Memory {
    /// A fresh demo server; it answers tool calls and everything about resources,
    /// prompts, completions, subscriptions and logs once that code (and the
    /// catalogue) is handed in. It comes with the later parts, which every such
    /// request waits for, so none meets the server's "not loaded yet": a tool is
    /// called only by the loop, and the Resources, Prompts and Logs panels' commands
    /// (`Command::Feature`) are the later parts'. The first screen needs only the
    /// handshake, the tool list and, under 2026-07-28, the listen stream for the
    /// tool list's changes, which the server answers without that code.
    pub(crate) fn new(handlers: Option<&'static dyn Handlers>) -> Memory {
        let mut server = DemoServer::without_handlers();
        if let Some(h) = handlers {
            server.set_handlers(h);
        }
        Memory {
            server,
            inbox: VecDeque::new(),
        }
    }

    /// Hands in the code that answers requests.
    pub(crate) fn set_handlers(&mut self, handlers: &'static dyn Handlers) {
        self.server.set_handlers(handlers);
    }

    /// Delivers one client frame to the server.
    pub(crate) fn send(&mut self, now: Timestamp, raw: &str) {
        self.server.handle_text(now, raw);
        self.drain();
    }

    /// Lets the server's slow jobs advance to `now`.
    pub(crate) fn handle_timeout(&mut self, now: Timestamp) {
        self.server.handle_timeout(now);
        self.drain();
    }

    /// When the server next needs [`Memory::handle_timeout`].
    pub(crate) fn poll_timeout(&self) -> Option<Timestamp> {
        self.server.poll_timeout()
    }

    /// The next frame from the server.
    pub(crate) fn pop(&mut self) -> Option<String> {
        self.inbox.pop_front()
    }

    fn drain(&mut self) {
        while let Some(m) = self.server.poll_transmit() {
            self.inbox.push_back(m.raw().to_owned());
        }
        // The server's own view of the wire is not shown: the client's log has it all.
        while self.server.poll_event().is_some() {}
    }
}
