//! Which server answers behind the HTTP faces: the lessons' demo by default, or
//! any other sans-IO server with the same face ([`Engine`]), chosen by a
//! [`Profile`]. `mcpg demo --http --conformance` passes the conformance suite's
//! fixtures (crate `mcpg-demo-conformance`) this way, so this crate, and the page
//! that uses it, never depends on them.

use std::fmt;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::Message;
use mcpg_core::server::StateKey;
use mcpg_demo::DemoServer;

/// A sans-IO MCP server as a session drives it: frames in, frames out, and a
/// clock it is told about (it reads none).
pub trait Engine: fmt::Debug + Send {
    /// Feeds one frame from the client.
    fn handle_text(&mut self, now: Timestamp, text: &str);
    /// Lets the server's own clock run to `now` (slow tools, asks that time out).
    fn handle_timeout(&mut self, now: Timestamp);
    /// When [`Engine::handle_timeout`] should next run.
    fn poll_timeout(&self) -> Option<Timestamp>;
    /// The next frame to send to the client.
    fn poll_transmit(&mut self) -> Option<Message>;
    /// Drops what the server kept for a UI (nobody watches it here), so it does
    /// not pile up. Nothing by default.
    fn discard_events(&mut self) {}
    /// Hands in the secret that seals 2026-07-28 `requestState`
    /// (`mcpg_core::server::Server::set_state_key`). Nothing by default.
    fn set_state_key(&mut self, _key: StateKey) {}
}

impl Engine for DemoServer {
    fn handle_text(&mut self, now: Timestamp, text: &str) {
        DemoServer::handle_text(self, now, text);
    }

    fn handle_timeout(&mut self, now: Timestamp) {
        DemoServer::handle_timeout(self, now);
    }

    fn poll_timeout(&self) -> Option<Timestamp> {
        DemoServer::poll_timeout(self)
    }

    fn poll_transmit(&mut self) -> Option<Message> {
        DemoServer::poll_transmit(self)
    }

    fn discard_events(&mut self) {
        while self.poll_event().is_some() {}
    }
}

/// How to make a fresh server for a new session.
#[derive(Clone, Copy)]
pub struct Profile {
    name: &'static str,
    make: fn() -> Box<dyn Engine>,
    /// The secret every server it makes seals `requestState` with
    /// ([`Profile::with_state_key`]).
    state_key: Option<[u8; 32]>,
}

impl Profile {
    /// The lessons' demo server ([`DemoServer`]): the default everywhere.
    pub const DEMO: Profile = Profile {
        name: "demo",
        make: demo,
        state_key: None,
    };

    /// Another server: `make` builds a fresh one for each session; `name` is
    /// for debug output.
    pub const fn new(name: &'static str, make: fn() -> Box<dyn Engine>) -> Profile {
        Profile {
            name,
            make,
            state_key: None,
        }
    }

    /// The same, each server it makes sealing 2026-07-28 `requestState` with
    /// `key` ([`Engine::set_state_key`]): one key for the stateless face and every
    /// session, so a state sealed by one round opens on the next wherever it
    /// lands. The I/O layer draws it (this crate draws no random numbers).
    pub const fn with_state_key(mut self, key: [u8; 32]) -> Profile {
        self.state_key = Some(key);
        self
    }
}

/// How a session makes a fresh server: statically ([`Demo`], the page's faces,
/// so the page calls the demo directly as before), or through a [`Profile`].
pub(crate) trait Make: Copy + fmt::Debug {
    /// The server made.
    type Made: Engine;
    /// A fresh server.
    fn make(&self) -> Self::Made;
}

/// The lessons' demo, made directly.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Demo;

impl Make for Demo {
    type Made = DemoServer;

    fn make(&self) -> DemoServer {
        DemoServer::new()
    }
}

impl Make for Profile {
    type Made = Box<dyn Engine>;

    fn make(&self) -> Box<dyn Engine> {
        let mut engine = (self.make)();
        if let Some(k) = self.state_key {
            engine.set_state_key(StateKey::new(k));
        }
        engine
    }
}

impl Engine for Box<dyn Engine> {
    fn handle_text(&mut self, now: Timestamp, text: &str) {
        (**self).handle_text(now, text);
    }

    fn handle_timeout(&mut self, now: Timestamp) {
        (**self).handle_timeout(now);
    }

    fn poll_timeout(&self) -> Option<Timestamp> {
        (**self).poll_timeout()
    }

    fn poll_transmit(&mut self) -> Option<Message> {
        (**self).poll_transmit()
    }

    fn discard_events(&mut self) {
        (**self).discard_events();
    }

    fn set_state_key(&mut self, key: StateKey) {
        (**self).set_state_key(key);
    }
}

impl Default for Profile {
    fn default() -> Self {
        Profile::DEMO
    }
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Profile").field(&self.name).finish()
    }
}

fn demo() -> Box<dyn Engine> {
    Box::new(DemoServer::new())
}
