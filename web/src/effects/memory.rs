//! The embedded transport: the demo server lives in the page and frames move
//! between it and the client through queues, synchronously. Its slow tool runs on
//! the page's timer (see `Session::schedule_timer`).

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_demo::DemoServer;

/// The demo server and the frames it has sent that the client has not read yet.
#[derive(Debug, Default)]
pub struct MemoryLink {
    server: DemoServer,
    inbox: VecDeque<String>,
}

impl MemoryLink {
    /// Delivers one client frame to the server.
    pub fn send(&mut self, now: Timestamp, raw: &str) {
        self.server.handle_text(now, raw);
        self.drain();
    }

    /// Lets the server's slow jobs advance to `now`.
    pub fn handle_timeout(&mut self, now: Timestamp) {
        self.server.handle_timeout(now);
        self.drain();
    }

    /// When the server next needs [`MemoryLink::handle_timeout`].
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        self.server.poll_timeout()
    }

    /// Frames from the server, oldest first.
    pub fn take_incoming(&mut self) -> Vec<String> {
        self.inbox.drain(..).collect()
    }

    fn drain(&mut self) {
        while let Some(m) = self.server.poll_transmit() {
            self.inbox.push_back(m.raw().to_owned());
        }
        // The server's own events (its view of the wire) are not shown: the client's
        // wire log already has every frame.
        while self.server.poll_event().is_some() {}
    }
}
