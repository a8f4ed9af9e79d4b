//! One demo server and its clock, as an HTTP face drives it: a client message in,
//! then the demo's messages out until every request asked is answered, letting
//! the demo's own clock run for a slow tool (the page sees the answer at once), or
//! until the demo asks the client something (it waits for the client's answer).

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Body, Message, RequestId};

use crate::profile::{Demo, Engine, Make};

/// How far the demo's clock may run past the page's to finish a request (the
/// slow tool takes a few seconds of it).
const DEMO_TIME_MS: u64 = 120_000;

/// Timer steps at most per message: a bound, should a job keep re-arming.
const MAX_STEPS: usize = 10_000;

/// Requests of either side remembered as open at most (the oldest are forgotten:
/// a client that never reads its answers cannot grow this).
const MAX_OPEN: usize = 256;

/// A demo server for one session, with its clock and who waits for whom. `M`
/// makes the server: the lessons' demo by default.
#[derive(Debug, Default)]
pub(crate) struct DemoSession<M: Make = Demo> {
    /// What makes the server.
    maker: M,
    demo: Option<M::Made>,
    /// The demo's clock: never behind the page's, ahead after a slow call.
    clock: u64,
    /// The client's requests the demo has not answered yet.
    calls: Vec<RequestId>,
    /// The demo's requests to the client not answered yet.
    asks: Vec<RequestId>,
}

/// Forgets `id` in `list`; whether it was there.
fn forget(list: &mut Vec<RequestId>, id: &RequestId) -> bool {
    let before = list.len();
    list.retain(|x| x != id);
    list.len() != before
}

fn remember(list: &mut Vec<RequestId>, id: &RequestId) {
    if list.len() >= MAX_OPEN {
        list.remove(0);
    }
    list.push(id.clone());
}

impl<M: Make> DemoSession<M> {
    /// No server yet: the first message makes one with `maker`.
    pub fn new(maker: M) -> DemoSession<M> {
        DemoSession {
            maker,
            demo: None,
            clock: 0,
            calls: Vec::new(),
            asks: Vec::new(),
        }
    }

    /// Starts again with a fresh demo (a new session on the same face).
    pub fn restart(&mut self) {
        let clock = self.clock;
        *self = DemoSession {
            demo: Some(self.maker.make()),
            clock,
            ..DemoSession::new(self.maker)
        };
    }

    /// Hands `msg` to the demo; returns what the demo sends, in order.
    pub fn handle(&mut self, now: Timestamp, msg: &Message) -> Vec<Message> {
        self.clock = self.clock.max(now.as_millis());
        match msg.body() {
            Body::Request { id, .. } => remember(&mut self.calls, id),
            Body::Response { id, .. } | Body::Error { id: Some(id), .. } => {
                forget(&mut self.asks, id);
            }
            _ => {}
        }
        let maker = self.maker;
        let demo = self.demo.get_or_insert_with(|| maker.make());
        demo.handle_text(Timestamp::from_millis(self.clock), msg.raw());
        self.run()
    }

    /// Stops waiting for request `id` of the client and for every question of the
    /// demo (the Streamable HTTP face cannot carry them, and answered the call
    /// with an error instead).
    pub fn give_up(&mut self, id: &RequestId) {
        forget(&mut self.calls, id);
        self.asks.clear();
    }

    fn run(&mut self) -> Vec<Message> {
        let mut out = Vec::new();
        let Some(demo) = self.demo.as_mut() else {
            return out;
        };
        let limit = self.clock.saturating_add(DEMO_TIME_MS);
        for _ in 0..MAX_STEPS {
            while let Some(m) = demo.poll_transmit() {
                match m.body() {
                    Body::Request { id, .. } => remember(&mut self.asks, id),
                    Body::Response { id, .. } | Body::Error { id: Some(id), .. } => {
                        forget(&mut self.calls, id);
                    }
                    _ => {}
                }
                out.push(m);
            }
            // Nobody reads the demo's own events here: drop them, so they do not pile up.
            demo.discard_events();
            if self.calls.is_empty() || !self.asks.is_empty() {
                break;
            }
            match demo.poll_timeout() {
                Some(t) if t.as_millis() <= limit => {
                    self.clock = self.clock.max(t.as_millis());
                    demo.handle_timeout(t);
                }
                _ => break,
            }
        }
        out
    }
}
