//! What the driver asks of a Streamable HTTP machine, as a trait object: the
//! machine (`mcpg_http::HttpMachine`) comes with the later parts ([`crate::LaterKit`]),
//! so in the page its code arrives with their chunk and leaves the first load (the
//! embedded demo needs none of it).

use std::fmt;

use mcpg_core::Timestamp;
use mcpg_core::client::Outgoing;
use mcpg_net::{HttpEvent, HttpRequest, NetEvent, ReqId};

/// How the page reaches an HTTP server, as the machine's maker is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpRoute {
    /// The browser fetches the server's URL itself.
    Direct,
    /// Through the bridge's `/relay/NAME`, which alone knows the remote's URL.
    Relay,
}

/// One HTTP link's machine, as the driver moves it (see `mcpg_http::HttpMachine`).
pub trait HttpPort: fmt::Debug {
    /// A frame of the core to send.
    fn send(&mut self, now: Timestamp, out: Outgoing);
    /// What the network did for one of its requests.
    fn handle_net(&mut self, now: Timestamp, event: NetEvent);
    /// Ends the session (aborts what runs, DELETEs it).
    fn close(&mut self, now: Timestamp);
    /// Time passed.
    fn handle_timeout(&mut self, now: Timestamp);
    /// Its next deadline.
    fn poll_timeout(&self) -> Option<Timestamp>;
    /// The next request to make.
    fn poll_request(&mut self) -> Option<HttpRequest>;
    /// The next request to abort.
    fn poll_abort(&mut self) -> Option<ReqId>;
    /// The next event for the driver.
    fn poll_event(&mut self) -> Option<HttpEvent>;
    /// Re-sends what waits for authorization (the shell adds the token).
    fn resume(&mut self, now: Timestamp);
    /// Fails what waits for authorization with `reason`.
    fn give_up(&mut self, now: Timestamp, reason: String);
    /// Which transport it settled on and why, in one sentence (Streamable HTTP, or
    /// the old HTTP+SSE after a fallback), once settled.
    fn transport(&self) -> Option<String>;
}
