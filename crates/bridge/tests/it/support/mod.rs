//! Shared helpers: a bridge state for `oneshot` tests, a live bridge on a real port,
//! a WebSocket client, a side-channel reader, and process checks through /proc.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use futures_util::{SinkExt, StreamExt};
use mcpg_bridge::{AppState, Config, SideEvent, Token, app};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The token every helper uses.
pub const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
/// The port `oneshot` tests pretend to listen on.
pub const PORT: u16 = 4000;
/// The longest any helper waits for something that should happen.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A state as if listening on 127.0.0.1:4000, with `config` (TOML) and `dist`.
pub fn state_with(config: &str, dist: PathBuf) -> AppState {
    let cfg = Config::parse(config).unwrap();
    let addr: SocketAddr = ([127, 0, 0, 1], PORT).into();
    AppState::new(cfg, Token::from_string(TOKEN), addr, dist).unwrap()
}

/// A state with `config` and a dist folder that does not exist.
pub fn state(config: &str) -> AppState {
    state_with(config, PathBuf::from("/nonexistent-mcpg-dist"))
}

/// A request with the right Host and nothing else.
pub fn get(uri: &str) -> axum::http::request::Builder {
    Request::get(uri).header("host", format!("127.0.0.1:{PORT}"))
}

/// Sends one request through the router.
pub async fn send(st: &AppState, req: Request<Body>) -> (u16, axum::http::HeaderMap, String) {
    use tower::ServiceExt;
    let res = app(st.clone()).oneshot(req).await.unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

/// A bridge on a real loopback port.
pub struct Live {
    pub addr: SocketAddr,
    pub state: AppState,
}

impl Live {
    /// Starts a bridge with `config` (TOML).
    pub async fn start(config: &str) -> Live {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let cfg = Config::parse(config).unwrap();
        let state = AppState::new(
            cfg,
            Token::from_string(TOKEN),
            addr,
            PathBuf::from("/nonexistent"),
        )
        .unwrap();
        let router = app(state.clone());
        tokio::spawn(async move { axum::serve(listener, router).await });
        Live { addr, state }
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn http(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Opens `/ws?server=…&channel=…` with the token, offering subprotocol `mcp`.
    pub async fn ws(&self, server: &str, channel: &str) -> Result<Ws, tungstenite::Error> {
        let url = format!(
            "ws://{}/ws?server={server}&channel={channel}&token={TOKEN}",
            self.addr
        );
        let mut req = url.into_client_request().unwrap();
        req.headers_mut()
            .insert("sec-websocket-protocol", HeaderValue::from_static("mcp"));
        let (stream, resp) = tokio_tungstenite::connect_async(req).await?;
        let protocol = resp
            .headers()
            .get("sec-websocket-protocol")
            .map(|v| v.to_str().unwrap().to_owned());
        Ok(Ws { stream, protocol })
    }

    /// Subscribes to a side channel.
    pub async fn events(&self, channel: &str) -> Events {
        let url = self.http(&format!("/api/events?channel={channel}&token={TOKEN}"));
        let resp = reqwest::get(url).await.unwrap();
        assert_eq!(resp.status(), 200);
        Events {
            resp,
            buf: String::new(),
            seen: Vec::new(),
        }
    }
}

/// A WebSocket client.
pub struct Ws {
    pub stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The subprotocol the bridge chose.
    pub protocol: Option<String>,
}

/// How a WebSocket ended, as the client saw it.
#[derive(Debug)]
pub struct Closed {
    pub code: u16,
    pub reason: String,
    /// Text frames received before the close.
    pub texts: Vec<String>,
}

impl Ws {
    /// Sends one text frame.
    pub async fn send(&mut self, text: &str) {
        self.stream.send(Message::text(text)).await.unwrap();
    }

    /// The next text frame (panics on close or after [`PATIENCE`]).
    pub async fn recv(&mut self) -> String {
        loop {
            let msg = tokio::time::timeout(PATIENCE, self.stream.next())
                .await
                .expect("no frame in time")
                .expect("stream ended")
                .unwrap();
            match msg {
                Message::Text(t) => return t.to_string(),
                Message::Close(c) => panic!("closed: {c:?}"),
                _ => {}
            }
        }
    }

    /// Reads until the close frame, keeping text frames seen on the way.
    pub async fn closed(&mut self) -> Closed {
        let mut texts = Vec::new();
        loop {
            let next = tokio::time::timeout(PATIENCE, self.stream.next())
                .await
                .expect("no close in time");
            match next {
                Some(Ok(Message::Text(t))) => texts.push(t.to_string()),
                Some(Ok(Message::Close(Some(CloseFrame { code, reason })))) => {
                    return Closed {
                        code: code.into(),
                        reason: reason.to_string(),
                        texts,
                    };
                }
                Some(Ok(Message::Close(None))) | None => {
                    return Closed {
                        code: 1005,
                        reason: String::new(),
                        texts,
                    };
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => panic!("socket error before the close frame: {e}"),
            }
        }
    }
}

/// A side-channel subscription.
pub struct Events {
    resp: reqwest::Response,
    buf: String,
    /// Every event so far, as JSON.
    pub seen: Vec<Value>,
}

impl Events {
    /// Reads until an event satisfies `pred`, returning it (panics after [`PATIENCE`]).
    pub async fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(v) = self.seen.iter().find(|v| pred(v)) {
            return v.clone();
        }
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let chunk = tokio::time::timeout_at(deadline, self.resp.chunk())
                .await
                .unwrap_or_else(|_| panic!("no {what} event; saw {:?}", self.seen))
                .unwrap()
                .expect("event stream ended");
            self.buf.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                for line in block.lines() {
                    if let Some(data) = line.strip_prefix("data:") {
                        let v: Value = serde_json::from_str(data.trim()).unwrap();
                        // Every event must be exactly one of the documented shapes.
                        let ev = mcpg_bridge_api::SideEvent::from_json(&v).unwrap();
                        assert_eq!(ev.to_json(), v, "a documented shape, nothing more");
                        self.seen.push(v);
                    }
                }
            }
            if let Some(v) = self.seen.iter().find(|v| pred(v)) {
                return v.clone();
            }
        }
    }

    /// Waits for an event of type `ty`.
    pub async fn of_type(&mut self, ty: &str) -> Value {
        self.until(ty, |v| v["type"] == ty).await
    }
}

/// Keeps the real enum in step with the shapes above.
pub fn _shape_check(e: SideEvent) -> Value {
    serde_json::to_value(e).unwrap()
}

/// Whether process `pid` still exists (a zombie counts: it was not reaped).
pub fn process_exists(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// Polls until `pid` is gone (exited and reaped), with bounded retries.
pub async fn wait_gone(pid: u32) {
    for _ in 0..400 {
        if !process_exists(pid) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    panic!("process {pid} is still there: {stat}");
}

/// A config with one server `name` running `sh -c script`, plus `extra` TOML.
pub fn sh_server(name: &str, script: &str) -> String {
    format!("[[server]]\nname = {name:?}\ncommand = \"sh\"\nargs = [\"-c\", {script:?}]\n")
}
