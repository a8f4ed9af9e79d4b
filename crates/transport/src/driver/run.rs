//! The driver's loop: one task owning the [`Client`] and the [`Link`], selecting over
//! the driver's commands, the transport's events and the core's timer.
//!
//! - `route`: the core's events, delivered to whoever waits for them.
//! - `catalog`: resources, prompts, completions and logging (their commands,
//!   answers and updates).

pub(crate) mod catalog;
mod route;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::client::{CallOptions, Client, Negotiated, OpId};
use mcpg_core::jsonrpc::RpcError;
use mcpg_core::model::JsonObject;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::handshake::Handshakes;
use tokio::time::Instant;

use super::error::DriverError;
use super::report::{CallReport, Log, Observed, Observer, ProgressUpdate, ToolList};
use crate::link::{CloseReport, Link, LinkEvent, TransportEvent};
use catalog::{CatalogCmd, Waiting};
use route::Junk;

/// Answers server-to-client requests that the core left to the host.
pub type RequestHandler = Box<dyn FnMut(&str, Option<&Value>) -> Result<Value, RpcError> + Send>;

pub(crate) type Reply<T> = oneshot::Sender<Result<T, DriverError>>;

/// What the driver handle asks of the loop.
pub(crate) enum Cmd {
    Connect(Reply<Negotiated>),
    ListTools(Reply<ToolList>),
    Call {
        name: String,
        args: Option<JsonObject>,
        opts: CallOptions,
        reply: Reply<CallReport>,
    },
    Continue {
        op: OpId,
        input_responses: JsonObject,
        reply: Reply<CallReport>,
    },
    Request {
        method: String,
        params: Option<Value>,
        reply: Reply<Value>,
    },
    Notify {
        method: String,
        params: Option<Value>,
    },
    Close(oneshot::Sender<CloseReport>),
    Catalog(CatalogCmd),
    /// Cancel every call in flight (Ctrl-C): a task's with `tasks/cancel`.
    CancelCalls(String),
}

pub(crate) struct Loop {
    pub client: Client,
    pub link: Link,
    pub start: Instant,
    pub observer: Option<Observer>,
    pub log: Arc<Mutex<Log>>,
    pub handler: Option<RequestHandler>,
    connects: Vec<Reply<Negotiated>>,
    lists: HashMap<OpId, (ToolList, Reply<ToolList>)>,
    calls: HashMap<OpId, (Vec<ProgressUpdate>, Reply<CallReport>)>,
    raws: HashMap<OpId, (String, Reply<Value>)>,
    closers: Vec<oneshot::Sender<CloseReport>>,
    closed: Option<CloseReport>,
    junk: Junk,
    /// The handshake requests on the wire, to name the one a negotiation failed at.
    pub(super) handshakes: Handshakes,
    waiting: Waiting,
}

impl Loop {
    pub fn new(
        client: Client,
        link: Link,
        observer: Option<Observer>,
        log: Arc<Mutex<Log>>,
        handler: Option<RequestHandler>,
    ) -> Self {
        Loop {
            client,
            link,
            start: Instant::now(),
            observer,
            log,
            handler,
            connects: Vec::new(),
            lists: HashMap::new(),
            calls: HashMap::new(),
            raws: HashMap::new(),
            closers: Vec::new(),
            closed: None,
            junk: Junk::default(),
            handshakes: Handshakes::default(),
            waiting: Waiting::default(),
        }
    }

    fn now(&self) -> Timestamp {
        Timestamp(u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX))
    }

    fn instant(&self, t: Timestamp) -> Instant {
        self.start + Duration::from_millis(t.as_millis())
    }

    /// Runs until the handle is gone and the transport has closed.
    pub async fn run(mut self, mut cmds: mpsc::UnboundedReceiver<Cmd>) {
        let mut handle_alive = true;
        loop {
            self.pump();
            if self.closed.is_some() && !handle_alive {
                return;
            }
            let timer = self.client.poll_timeout().map(|t| self.instant(t));
            let link_open = self.closed.is_none();
            tokio::select! {
                cmd = cmds.recv(), if handle_alive => match cmd {
                    Some(c) => self.command(c),
                    None => {
                        handle_alive = false;
                        self.link.close();
                    }
                },
                ev = self.link.recv(), if link_open => match ev {
                    Some(ev) => self.link_event(ev),
                    None => self.transport_closed(CloseReport { reason: "the transport stopped".into(), requested: false, exit: None }),
                },
                _ = sleep_until(timer), if timer.is_some() => {
                    let now = self.now();
                    self.client.handle_timeout(now);
                }
            }
        }
    }

    /// Moves the core's output along: frames to the transport, events to their owners.
    fn pump(&mut self) {
        loop {
            let mut busy = false;
            while let Some(out) = self.client.poll_transmit() {
                busy = true;
                if self.closed.is_none() {
                    self.link.send(out);
                }
            }
            while let Some(ev) = self.client.poll_event() {
                busy = true;
                self.core_event(ev);
            }
            if !busy {
                return;
            }
        }
    }

    fn observe(&self, o: Observed, keep: bool) {
        if let Some(f) = &self.observer {
            f(&o);
        }
        if keep {
            self.log
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(o);
        }
    }

    fn command(&mut self, cmd: Cmd) {
        let now = self.now();
        match cmd {
            Cmd::Connect(reply) => {
                if let Some(n) = self.client.negotiated().filter(|_| self.client.is_ready()) {
                    let _ = reply.send(Ok(n.clone()));
                } else if self.client.is_closed() || self.closed.is_some() {
                    let _ = reply.send(Err(self.closed_error("connect")));
                } else {
                    self.connects.push(reply);
                    self.client.connect(now);
                }
            }
            Cmd::ListTools(reply) => {
                let op = self.client.list_tools(now);
                self.lists.insert(
                    op,
                    (
                        ToolList {
                            pages: Vec::new(),
                            responses: Vec::new(),
                        },
                        reply,
                    ),
                );
            }
            Cmd::Call {
                name,
                args,
                opts,
                reply,
            } => {
                let op = self.client.call_tool(now, &name, args, opts);
                self.calls.insert(op, (Vec::new(), reply));
            }
            Cmd::Continue {
                op,
                input_responses,
                reply,
            } => {
                if self.client.continue_call(now, op, input_responses) {
                    self.calls.insert(op, (Vec::new(), reply));
                } else {
                    let why = format!(
                        "call {} is not waiting for input (it never asked, was already continued, or the connection closed)",
                        op.0
                    );
                    let _ = reply.send(Err(DriverError::Usage(why)));
                }
            }
            Cmd::Request {
                method,
                params,
                reply,
            } => {
                let op = self.client.request(now, &method, params);
                self.raws.insert(op, (method, reply));
            }
            Cmd::Notify { method, params } => self.client.notify(now, &method, params),
            Cmd::Catalog(c) => self.catalog_command(c),
            Cmd::CancelCalls(reason) => {
                let mut ops: Vec<OpId> = self.calls.keys().copied().collect();
                ops.sort();
                for op in ops {
                    self.client.cancel(now, op, &reason);
                }
            }
            Cmd::Close(reply) => match &self.closed {
                Some(report) => {
                    let _ = reply.send(report.clone());
                }
                None => {
                    self.closers.push(reply);
                    self.link.close();
                }
            },
        }
    }

    fn closed_error(&self, during: &str) -> DriverError {
        match &self.closed {
            Some(r) if !r.requested => DriverError::Transport {
                during: during.to_owned(),
                reason: r.reason.clone(),
                hint: self.junk.hint(),
            },
            _ => DriverError::Closed,
        }
    }

    fn link_event(&mut self, ev: LinkEvent) {
        let now = self.now();
        match ev {
            LinkEvent::Stderr(line) => self.observe(Observed::Stderr(line), true),
            LinkEvent::Transport(TransportEvent::Frame(text)) => {
                self.client.handle_text(now, &text)
            }
            LinkEvent::Transport(TransportEvent::NotUtf8(bytes)) => {
                self.client.handle_bytes(now, &bytes)
            }
            LinkEvent::Transport(TransportEvent::Oversized {
                request,
                size,
                limit,
                head,
            }) => match request {
                Some(id) => self
                    .client
                    .handle_oversized_answer(now, &id, size, limit, &head),
                None => self.client.handle_oversized(now, size, limit, &head),
            },
            LinkEvent::Transport(TransportEvent::SendFailed { id, failure }) => {
                self.client.handle_send_failed(now, &id, failure)
            }
            LinkEvent::Transport(TransportEvent::Notice(text)) => {
                self.observe(Observed::Notice(text), true)
            }
            LinkEvent::Transport(TransportEvent::Chosen(choice)) => {
                self.observe(Observed::Transport(choice), true)
            }
            LinkEvent::Transport(TransportEvent::Auth(exchange)) => {
                self.observe(Observed::Auth(*exchange), true)
            }
            LinkEvent::Transport(TransportEvent::Closed(report)) => self.transport_closed(report),
        }
    }

    fn transport_closed(&mut self, report: CloseReport) {
        // Lines still queued were written before the end; keep them in order.
        while let Some(line) = self.link.try_stderr() {
            self.observe(Observed::Stderr(line), true);
        }
        self.closed = Some(report.clone());
        // The hint is added when the failure is reported, so it follows "during …".
        let reason = if report.requested {
            format!("closed by the client ({})", report.reason)
        } else {
            report.reason.clone()
        };
        let now = self.now();
        self.client.handle_closed(now, &reason);
        self.pump();
        for c in self.closers.drain(..) {
            let _ = c.send(report.clone());
        }
    }
}

async fn sleep_until(t: Option<Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
