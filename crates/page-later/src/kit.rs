//! The kit the shell hands the driver ([`later_kit`]): the later parts, the HTTP
//! machine's maker, the embedded demo's answers and the client's readers. Only the
//! shell names [`later_kit`], so in the page all of it is in the later split chunk.

use mcpg_core::Timestamp;
use mcpg_core::client::{AnswerReaders, Outgoing};
use mcpg_http::{HttpConfig, HttpMachine, Transport};
use mcpg_page::{HttpEvent, HttpPort, HttpRequest, HttpRoute, LaterKit, NetEvent, ReqId};

use crate::parts::LoopParts;

/// The later parts with empty state, and their tools.
pub fn later_kit() -> LaterKit {
    LaterKit {
        parts: Box::new(LoopParts::default()),
        http: http_machine,
        demo_handlers: mcpg_demo::handlers(),
        answer_readers: AnswerReaders::ALL,
    }
}

/// An HTTP machine for `url` whose 401 (or a step-up's 403) holds the requests
/// for the page's sign-in instead of failing them. It speaks Streamable HTTP, or
/// the old HTTP+SSE when the server answers `initialize`'s POST with 400, 404 or
/// 405 (the spec's fallback order).
fn http_machine(url: &str, route: HttpRoute) -> Box<dyn HttpPort> {
    let mut cfg = HttpConfig::new(url);
    cfg.hold_unauthorized = true;
    cfg.transport = Transport::Auto;
    cfg.via_relay = route == HttpRoute::Relay;
    Box::new(Machine(HttpMachine::new(cfg)))
}

/// The HTTP machine as the driver moves it.
#[derive(Debug)]
struct Machine(HttpMachine);

impl HttpPort for Machine {
    fn send(&mut self, now: Timestamp, out: Outgoing) {
        self.0.send(now, out);
    }

    fn handle_net(&mut self, now: Timestamp, event: NetEvent) {
        self.0.handle_net(now, event);
    }

    fn close(&mut self, now: Timestamp) {
        self.0.close(now);
    }

    fn handle_timeout(&mut self, now: Timestamp) {
        self.0.handle_timeout(now);
    }

    fn poll_timeout(&self) -> Option<Timestamp> {
        self.0.poll_timeout()
    }

    fn poll_request(&mut self) -> Option<HttpRequest> {
        self.0.poll_request()
    }

    fn poll_abort(&mut self) -> Option<ReqId> {
        self.0.poll_abort()
    }

    fn poll_event(&mut self) -> Option<HttpEvent> {
        self.0.poll_event()
    }

    fn resume(&mut self, now: Timestamp) {
        self.0.resume(now);
    }

    fn give_up(&mut self, now: Timestamp, reason: String) {
        self.0.give_up(now, reason);
    }

    fn transport(&self) -> Option<String> {
        let choice = self.0.transport_choice().filter(|c| c.settled())?;
        Some(choice.why.clone())
    }
}
