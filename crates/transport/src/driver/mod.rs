//! The async driver: a [`Client`] plus a transport, run by one task, used through
//! async helpers (`connect`, `list_tools`, `call_tool`, `close`; resources, prompts,
//! completions and logging in `asks.rs`).
//!
//! The handle is cheap to share (`&self` everywhere): commands go to the loop over a
//! channel and answers come back on one-shot channels. The core stays untouched by
//! I/O, so other drivers (the bridge, the browser) can wrap the same [`Client`].

mod asks;
mod catalog;
mod error;
mod handshake;
mod report;
mod run;

use std::sync::{Arc, Mutex};

use mcpg_core::client::{CallOptions, Client, ClientConfig, Negotiated, OpId};
use mcpg_core::model::JsonObject;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

pub use catalog::{AnswerReport, Listing, Update};
pub use error::DriverError;
pub use handshake::Handshake;
pub use report::{CallReport, Log, Observed, Observer, ProgressUpdate, ToolList};
pub use run::RequestHandler;

use crate::http::{self, HttpConfig};
use crate::link::{CloseReport, Link};
use crate::stdio::{self, StdioConfig};
use run::{Cmd, Loop};

/// How a driver behaves, beyond the transport.
#[derive(Default)]
pub struct DriverConfig {
    /// The core's configuration (capabilities, generation mode, timeouts).
    pub client: ClientConfig,
    /// Sees everything live (the CLI's `--verbose`).
    pub observer: Option<Observer>,
    /// Answers server requests the core passes on (for declared capabilities).
    /// Without one, they are refused with "method not found".
    pub handler: Option<RequestHandler>,
}

/// A running MCP client connection.
#[derive(Debug)]
pub struct Driver {
    cmds: mpsc::UnboundedSender<Cmd>,
    log: Arc<Mutex<Log>>,
    pid: Option<u32>,
    kind: &'static str,
}

impl std::fmt::Debug for Cmd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cmd")
    }
}

impl Driver {
    /// Drives `link` with a new client. Must run inside a tokio runtime.
    pub fn start(link: Link, cfg: DriverConfig) -> Self {
        let log = Arc::new(Mutex::new(Log::default()));
        let (tx, rx) = mpsc::unbounded_channel();
        let pid = link.pid();
        let kind = link.kind();
        let lp = Loop::new(
            Client::new(cfg.client),
            link,
            cfg.observer,
            log.clone(),
            cfg.handler,
        );
        tokio::spawn(lp.run(rx));
        Driver {
            cmds: tx,
            log,
            pid,
            kind,
        }
    }

    /// Starts a server process and drives it over stdio.
    pub fn stdio(server: StdioConfig, cfg: DriverConfig) -> Result<Self, DriverError> {
        Ok(Self::start(stdio::spawn(server)?, cfg))
    }

    /// Drives a Streamable HTTP endpoint.
    pub fn http(server: HttpConfig, cfg: DriverConfig) -> Result<Self, DriverError> {
        Ok(Self::start(http::connect(server)?, cfg))
    }

    /// The server's process id (stdio only).
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// `"stdio"` or `"http"`.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// A copy of the diagnostics, stderr lines and notices seen so far.
    pub fn log(&self) -> Log {
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, DriverError>>) -> Cmd,
    ) -> Result<T, DriverError> {
        let (tx, rx) = oneshot::channel();
        self.cmds.send(make(tx)).map_err(|_| DriverError::Closed)?;
        rx.await.map_err(|_| DriverError::Closed)?
    }

    /// Negotiates (probing `server/discover`, falling back to `initialize`, as the
    /// config says) and returns what was agreed. Cheap once connected.
    pub async fn connect(&self) -> Result<Negotiated, DriverError> {
        self.ask(Cmd::Connect).await
    }

    /// Lists every tool, following `nextCursor` to the end.
    pub async fn list_tools(&self) -> Result<ToolList, DriverError> {
        self.ask(Cmd::ListTools).await
    }

    /// Calls a tool; `progress` asks the server for progress notifications.
    pub async fn call_tool(
        &self,
        name: &str,
        args: Option<JsonObject>,
        progress: bool,
    ) -> Result<CallReport, DriverError> {
        self.call_tool_with(
            name,
            args,
            CallOptions {
                progress,
                ..CallOptions::default()
            },
        )
        .await
    }

    /// Calls a tool with full options (timeout, extra `_meta`).
    pub async fn call_tool_with(
        &self,
        name: &str,
        args: Option<JsonObject>,
        opts: CallOptions,
    ) -> Result<CallReport, DriverError> {
        let name = name.to_owned();
        self.ask(|reply| Cmd::Call {
            name,
            args,
            opts,
            reply,
        })
        .await
    }

    /// Continues a call whose report said `InputRequired` (2026-07-28 MRTR): the core
    /// re-sends the original `tools/call` with `input_responses` (keyed like the
    /// server's `inputRequests`) and the server's `requestState`, and this returns
    /// the next round's report (which may ask for input again).
    pub async fn continue_call(
        &self,
        op: OpId,
        input_responses: JsonObject,
    ) -> Result<CallReport, DriverError> {
        self.ask(|reply| Cmd::Continue {
            op,
            input_responses,
            reply,
        })
        .await
    }

    /// Sends any request and returns its result.
    pub async fn request(&self, method: &str, params: Option<Value>) -> Result<Value, DriverError> {
        let method = method.to_owned();
        self.ask(|reply| Cmd::Request {
            method,
            params,
            reply,
        })
        .await
    }

    /// Cancels every tool call in flight (what Ctrl-C does). A call whose task is
    /// under way is cancelled with `tasks/cancel` and ends once the server says the
    /// task is cancelled; any other with `notifications/cancelled`, at once. Each
    /// call's own future then ends with [`DriverError::Cancelled`].
    pub fn cancel_calls(&self, reason: &str) -> Result<(), DriverError> {
        self.cmds
            .send(Cmd::CancelCalls(reason.to_owned()))
            .map_err(|_| DriverError::Closed)
    }

    /// Sends a notification.
    pub fn notify(&self, method: &str, params: Option<Value>) -> Result<(), DriverError> {
        self.cmds
            .send(Cmd::Notify {
                method: method.to_owned(),
                params,
            })
            .map_err(|_| DriverError::Closed)
    }

    /// Closes the connection (stdio: stops the server and reaps it; HTTP: ends the
    /// session) and reports how it ended. Calling it again returns the same report.
    pub async fn close(&self) -> Result<CloseReport, DriverError> {
        let (tx, rx) = oneshot::channel();
        self.cmds
            .send(Cmd::Close(tx))
            .map_err(|_| DriverError::Closed)?;
        rx.await.map_err(|_| DriverError::Closed)
    }
}
