//! The one shape every transport has towards a driver: a [`Link`].
//!
//! A transport runs as tokio tasks; the driver talks to it only through channels.
//! That keeps the driver free of transport details (the same loop serves stdio and
//! HTTP) and lets a transport do slow things (a POST, a shutdown) without blocking
//! the protocol core.

use std::process::ExitStatus;

use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::RequestId;
use tokio::sync::mpsc;

/// What a transport reports to its driver.
#[derive(Debug)]
pub enum TransportEvent {
    /// One frame of received text, for `Client::handle_text` (a stdout line, an HTTP
    /// body, the `data` of one SSE event).
    Frame(String),
    /// A frame whose bytes are not UTF-8; for `Client::handle_bytes` (a diagnostic,
    /// then the lossy text is handled).
    NotUtf8(Vec<u8>),
    /// A message over the size limit was dropped; for `Client::handle_oversized`,
    /// which fails the request it answered at once.
    Oversized {
        /// The request it answered, when the transport knows (HTTP).
        request: Option<RequestId>,
        /// Its size in bytes (at least).
        size: usize,
        /// The limit.
        limit: usize,
        /// Its first bytes (where the `"id"` usually is).
        head: Vec<u8>,
    },
    /// A request could not be delivered; for `Client::handle_send_failed`.
    SendFailed {
        /// The request.
        id: RequestId,
        /// Why.
        failure: SendFailure,
    },
    /// Something the user may want to know that is not a message (a resumed stream,
    /// a rejected notification, a failed DELETE).
    Notice(String),
    /// Which HTTP transport the connection speaks and why, once settled (HTTP
    /// only), for `Observed::Transport`.
    Chosen(mcpg_http::TransportChoice),
    /// One exchange of the OAuth flow (secrets masked), for `Observed::Auth`.
    Auth(Box<mcpg_auth::Exchange>),
    /// The transport is gone; nothing follows this event.
    Closed(CloseReport),
}

/// One line the server wrote to stderr (stdio only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StderrLine {
    /// The text, without the line ending (cut at a bound when very long).
    pub text: String,
    /// Lines dropped just before this one because the reader fell behind.
    pub dropped_before: u64,
}

/// How a transport ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CloseReport {
    /// What happened, in words (e.g. `server exited with status 3`).
    pub reason: String,
    /// Whether the client asked for the close (as opposed to the server going away).
    pub requested: bool,
    /// The server process's exit status (stdio only).
    pub exit: Option<ExitStatus>,
}

/// What a driver asks of a transport.
#[derive(Debug)]
pub(crate) enum LinkCommand {
    /// Deliver one message (boxed: it is far larger than the other variant).
    Send(Box<Outgoing>),
    /// Shut down cleanly, then report [`TransportEvent::Closed`].
    Close,
}

/// Either a transport event or a stderr line, as [`Link::recv`] yields them.
#[derive(Debug)]
pub enum LinkEvent {
    /// A transport event.
    Transport(TransportEvent),
    /// A stderr line.
    Stderr(StderrLine),
}

/// The driver's end of a running transport.
#[derive(Debug)]
pub struct Link {
    kind: &'static str,
    pid: Option<u32>,
    commands: mpsc::UnboundedSender<LinkCommand>,
    events: mpsc::Receiver<TransportEvent>,
    stderr: Option<mpsc::Receiver<StderrLine>>,
}

impl Link {
    pub(crate) fn new(
        kind: &'static str,
        pid: Option<u32>,
        commands: mpsc::UnboundedSender<LinkCommand>,
        events: mpsc::Receiver<TransportEvent>,
        stderr: Option<mpsc::Receiver<StderrLine>>,
    ) -> Self {
        Link {
            kind,
            pid,
            commands,
            events,
            stderr,
        }
    }

    /// `"stdio"` or `"http"`.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The server's process id (stdio only).
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Queues one message (with the headers the core computed for it). Returns
    /// false once the transport has stopped.
    pub fn send(&self, out: Outgoing) -> bool {
        self.commands.send(LinkCommand::Send(Box::new(out))).is_ok()
    }

    /// Asks the transport to shut down; [`TransportEvent::Closed`] follows.
    pub fn close(&self) {
        // If the transport already stopped, its Closed event is already queued.
        let _ = self.commands.send(LinkCommand::Close);
    }

    /// A stderr line that is already queued, without waiting.
    pub fn try_stderr(&mut self) -> Option<StderrLine> {
        self.stderr.as_mut()?.try_recv().ok()
    }

    /// The next event; `None` once the transport has stopped and everything was read.
    /// Transport events win over stderr lines when both are ready, so a flood on
    /// stderr cannot delay protocol traffic.
    pub async fn recv(&mut self) -> Option<LinkEvent> {
        loop {
            let stderr = async {
                match self.stderr.as_mut() {
                    Some(rx) => rx.recv().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                biased;
                ev = self.events.recv() => return ev.map(LinkEvent::Transport),
                line = stderr => match line {
                    Some(l) => return Some(LinkEvent::Stderr(l)),
                    // stderr is done; keep reading the events.
                    None => self.stderr = None,
                },
            }
        }
    }
}
