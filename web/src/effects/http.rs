//! Streamable HTTP's executor: the driver's `HttpMachine` writes every request
//! (method, URL, headers, body) and this runs it with `mcpg_http::fetch` (streamed
//! body, `AbortController`), reporting each step back as `Input::Http`. No protocol
//! decision lives here: no status mapping, no SSE parsing, no headers of its own.
//!
//! For the bridge's relay the driver writes `/relay/NAME`; the bridge's address (a
//! hosted page's bridge is on another origin) and the token are added here, so
//! neither enters the driver. The token goes as `Authorization: Bearer`, not in the
//! URL (issue 26): a failed fetch's text names the URL, and that text reaches the
//! step cards and the model's context; the bridge never passes that header on. So are the learner's headers and OAuth's bearer token
//! (`conn_headers`), read as each request runs. Reached only from the links chunk
//! (`transports`), so this and `mcpg_http::fetch` are not in the first load. The
//! in-page demos' origins are answered without `fetch`: the demo behind OAuth
//! (`demo_oauth`) and the demo over HTTP+SSE and Streamable HTTP (`demo_sse`), whose
//! open GET streams are kept by request so that aborting one ends its session.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use mcpg_page::{ConnId, HttpRequest, HttpTarget, Input, NetEvent, ReqId};

use mcpg_demo_sse::StreamId;

use super::conn_headers::{extra, key_of};
use super::inbox::send;
use exec::{Fetch, execute};

/// The fetches of one Streamable HTTP connection.
#[derive(Debug)]
pub struct HttpLink {
    conn: ConnId,
    /// The bridge's root for the relay (empty for the same origin or a direct URL).
    prefix: String,
    /// The bridge's token for the relay, `None` for a direct URL.
    bridge_token: Option<String>,
    /// Where this connection's headers are kept (`conn_headers::key_of`).
    key: String,
    /// Whether this is the bridge's relay (the token is renamed for it).
    relay: bool,
    /// Fetches running, by request (removed when they end, fail or are aborted).
    fetches: Rc<RefCell<HashMap<ReqId, Fetch>>>,
    /// Streams the in-page demo over HTTP+SSE holds open, by request.
    streams: Rc<RefCell<HashMap<ReqId, StreamId>>>,
}

impl HttpLink {
    /// A link for connection `conn` to `target`; every URL gets `prefix` before it,
    /// and every request `bridge_token` (the relay's) as its `Authorization`.
    pub fn new(
        conn: ConnId,
        target: &HttpTarget,
        prefix: String,
        bridge_token: Option<String>,
    ) -> HttpLink {
        HttpLink {
            conn,
            prefix,
            bridge_token,
            key: key_of(target),
            relay: matches!(target, HttpTarget::Relay(_)),
            fetches: Rc::default(),
            streams: Rc::default(),
        }
    }

    /// Runs `request`; what happens comes back as inputs for the driver.
    pub fn execute(&self, mut request: HttpRequest) {
        request.url.insert_str(0, &self.prefix);
        request.headers.extend(extra(&self.key, self.relay));
        if let Some(token) = &self.bridge_token {
            // `extra` renamed a relay's own `Authorization` (Mcpg-Remote-Authorization).
            request
                .headers
                .push(("Authorization".to_owned(), format!("Bearer {token}")));
        }
        let (conn, id) = (self.conn, request.id);
        let fetches = Rc::downgrade(&self.fetches);
        let streams = Rc::downgrade(&self.streams);
        let on = Rc::new(move |event: NetEvent| {
            let done = event.is_last();
            send(Input::Http { conn, event });
            if done && let Some(f) = fetches.upgrade() {
                f.borrow_mut().remove(&id);
            }
            if done && let Some(s) = streams.upgrade() {
                s.borrow_mut().remove(&id);
            }
        });
        if self.prefix.is_empty() && super::demo_oauth::is_in_page(&request.url) {
            in_page(&request, on);
            return;
        }
        if self.prefix.is_empty() && super::demo_sse::is_in_page(&request.url) {
            if let Some(s) = super::demo_sse::run(&request, on) {
                self.streams.borrow_mut().insert(id, s);
            }
            return;
        }
        let fetch = execute(request, on);
        self.fetches.borrow_mut().insert(id, fetch);
    }

    /// Aborts request `req` (nothing more is reported for it).
    pub fn abort(&self, req: ReqId) {
        if let Some(f) = self.fetches.borrow_mut().remove(&req) {
            f.abort();
        }
        if let Some(s) = self.streams.borrow_mut().remove(&req) {
            super::demo_sse::closed(s);
        }
    }

    /// Aborts every fetch still running (the driver closed the link).
    pub fn close(&self) {
        for (_, f) in self.fetches.borrow_mut().drain() {
            f.abort();
        }
        for (_, s) in self.streams.borrow_mut().drain() {
            super::demo_sse::closed(s);
        }
    }
}

/// Answers `request` with the demo behind OAuth, a task later (as the network
/// would: the driver is not re-entered while it runs its outputs).
pub(super) fn in_page(request: &HttpRequest, on: Rc<dyn Fn(NetEvent)>) {
    let a = super::demo_oauth::answer(
        request.method.as_str(),
        &request.url,
        &request.headers,
        request.body.as_deref(),
    );
    let id = request.id;
    wasm_bindgen_futures::spawn_local(async move {
        on(NetEvent::Head {
            id,
            status: a.status,
            headers: a.headers,
        });
        if !a.body.is_empty() {
            on(NetEvent::Chunk(id, a.body.into_bytes()));
        }
        on(NetEvent::End(id));
    });
}

#[cfg(target_arch = "wasm32")]
pub(super) mod exec {
    pub use mcpg_http::fetch::{Fetch, execute};
}

/// The page runs in a browser only; a native build (clippy, docs) gets an executor
/// with the same shape that never runs a request.
#[cfg(not(target_arch = "wasm32"))]
pub(super) mod exec {
    use std::rc::Rc;

    use mcpg_page::{HttpRequest, NetEvent};

    /// A request that never runs.
    #[derive(Debug)]
    pub struct Fetch;

    impl Fetch {
        /// Nothing to abort.
        pub fn abort(&self) {}
    }

    /// Runs nothing: there is no `fetch` outside a browser.
    pub fn execute(_req: HttpRequest, _on: Rc<dyn Fn(NetEvent)>) -> Fetch {
        Fetch
    }
}
