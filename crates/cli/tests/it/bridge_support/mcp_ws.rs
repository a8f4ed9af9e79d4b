//! An MCP session over the bridge's WebSocket, driven by the core's `Client` the way
//! the page drives it: text frames in, text frames out, time from a clock we read.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use mcpg_core::Timestamp;
use mcpg_core::client::{CallOptions, CallOutcome, Client, ClientConfig, Event};
use mcpg_core::diag::Diagnostic;
use mcpg_core::model::{CallToolResult, ContentBlock, JsonObject};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::PATIENCE;

/// How the WebSocket was closed by the bridge.
#[derive(Clone, Debug)]
pub struct CloseInfo {
    pub code: u16,
    pub reason: String,
}

/// A client session over one bridge WebSocket.
pub struct McpWs {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    client: Client,
    start: Instant,
    /// Every diagnostic the core raised.
    pub diagnostics: Vec<Diagnostic>,
    /// The close frame, once it came.
    pub closed: Option<CloseInfo>,
}

impl McpWs {
    /// Opens the WebSocket (subprotocol `mcp`) and connects the session.
    pub async fn connect(url: &str) -> McpWs {
        let mut req = url.into_client_request().unwrap();
        req.headers_mut()
            .insert("sec-websocket-protocol", HeaderValue::from_static("mcp"));
        let (ws, resp) = tokio_tungstenite::connect_async(req).await.unwrap();
        assert_eq!(resp.headers()["sec-websocket-protocol"], "mcp");
        let mut s = McpWs {
            ws,
            client: Client::new(ClientConfig::default()),
            start: Instant::now(),
            diagnostics: Vec::new(),
            closed: None,
        };
        let now = s.now();
        s.client.connect(now);
        let ev = s
            .run_until(|e| matches!(e, Event::Connected(_) | Event::ConnectFailed(_)))
            .await;
        assert!(matches!(ev, Event::Connected(_)), "{ev:?}");
        s
    }

    fn now(&self) -> Timestamp {
        Timestamp::from_millis(u64::try_from(self.start.elapsed().as_millis()).unwrap())
    }

    /// Lists every tool; returns the size of each page.
    pub async fn list_tools(&mut self) -> Vec<usize> {
        let now = self.now();
        self.client.list_tools(now);
        let mut pages = Vec::new();
        loop {
            match self
                .run_until(|e| {
                    matches!(
                        e,
                        Event::ToolsPage { .. }
                            | Event::ToolsListed { .. }
                            | Event::ToolsListFailed { .. }
                    )
                })
                .await
            {
                Event::ToolsPage { tools, .. } => pages.push(tools.len()),
                Event::ToolsListed { .. } => return pages,
                other => panic!("listing failed: {other:?}"),
            }
        }
    }

    /// Calls a tool and returns how it ended.
    pub async fn call(&mut self, name: &str, args: serde_json::Value) -> CallOutcome {
        let args: JsonObject = serde_json::from_value(args).unwrap();
        let now = self.now();
        let op = self
            .client
            .call_tool(now, name, Some(args), CallOptions::default());
        match self
            .run_until(|e| matches!(e, Event::CallFinished { op: o, .. } if *o == op))
            .await
        {
            Event::CallFinished { outcome, .. } => outcome,
            _ => unreachable!(),
        }
    }

    /// Closes the WebSocket from our side.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }

    /// Pumps frames both ways until an event matches; panics after [`PATIENCE`].
    async fn run_until(&mut self, want: impl Fn(&Event) -> bool) -> Event {
        let deadline = Instant::now() + PATIENCE;
        loop {
            while let Some(out) = self.client.poll_transmit() {
                if self.closed.is_none() {
                    let _ = self
                        .ws
                        .send(Message::text(out.message.raw().to_string()))
                        .await;
                }
            }
            while let Some(ev) = self.client.poll_event() {
                if let Event::Diagnostic(d) = &ev {
                    self.diagnostics.push(d.clone());
                }
                if want(&ev) {
                    return ev;
                }
            }
            assert!(Instant::now() < deadline, "no matching event in time");
            let wake = self
                .client
                .poll_timeout()
                .map(|t| self.start + Duration::from_millis(t.as_millis()))
                .unwrap_or(deadline)
                .min(deadline);
            tokio::select! {
                msg = self.ws.next(), if self.closed.is_none() => {
                    let now = self.now();
                    match msg {
                        Some(Ok(Message::Text(t))) => self.client.handle_text(now, t.as_str()),
                        Some(Ok(Message::Close(frame))) => {
                            let info = frame.map_or(CloseInfo { code: 1005, reason: String::new() }, |f| CloseInfo {
                                code: f.code.into(),
                                reason: f.reason.to_string(),
                            });
                            self.client.handle_closed(now, &info.reason);
                            self.closed = Some(info);
                        }
                        Some(Ok(_)) => {}
                        Some(Err(e)) => {
                            self.client.handle_closed(now, &e.to_string());
                            self.closed = Some(CloseInfo { code: 1006, reason: e.to_string() });
                        }
                        None => {
                            self.client.handle_closed(now, "connection ended");
                            self.closed = Some(CloseInfo { code: 1006, reason: "ended".into() });
                        }
                    }
                }
                () = tokio::time::sleep_until(wake) => {
                    let now = self.now();
                    self.client.handle_timeout(now);
                }
            }
        }
    }
}

/// The text of a result's first text block.
pub fn first_text(r: &CallToolResult) -> String {
    r.content
        .iter()
        .find_map(|b| match b {
            ContentBlock::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}
