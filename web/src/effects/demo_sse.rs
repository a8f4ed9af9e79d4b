//! The demo over HTTP with no sign-in (`mcpg_demo_sse`), answered inside the page:
//! requests to its origin never reach `fetch`. The old HTTP+SSE transport's GET is
//! a stream that stays open: its request's callback is kept here, and what the demo
//! pushes later (the answers to the POSTs, each a task later, as the network would
//! deliver them) goes to it, until the stream ends or the page aborts the GET,
//! which ends the session. So the lesson on HTTP+SSE runs from a static page,
//! offline. Reached from the links chunk only (`http`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use mcpg_demo_sse::{Push, Request, SseDemo, StreamId};
use mcpg_page::{HttpRequest, NetEvent, ReqId};

use super::clock::now;

pub use mcpg_demo_sse::is_in_page;

/// Where an open stream's chunks go: its request and the executor's callback.
type Listener = (ReqId, Rc<dyn Fn(NetEvent)>);

thread_local! {
    /// The demo's state, for the page's life.
    static DEMO: RefCell<SseDemo> = RefCell::new(SseDemo::new());
    /// The streams open, by the demo's name for them.
    static STREAMS: RefCell<HashMap<StreamId, Listener>> = RefCell::new(HashMap::new());
}

/// Answers `request`, a task later; `Some` names the stream it left open (abort it
/// with [`closed`]).
pub fn run(request: &HttpRequest, on: Rc<dyn Fn(NetEvent)>) -> Option<StreamId> {
    let (a, pushes) = DEMO.with(|d| {
        let mut d = d.borrow_mut();
        let a = d.answer(
            now(),
            &Request {
                method: request.method.as_str(),
                url: &request.url,
                body: request.body.as_deref(),
            },
        );
        (a, std::iter::from_fn(|| d.poll_push()).collect::<Vec<_>>())
    });
    let id = request.id;
    let stream = a.stream;
    if let Some(s) = stream {
        STREAMS.with(|m| m.borrow_mut().insert(s, (id, on.clone())));
    }
    wasm_bindgen_futures::spawn_local(async move {
        on(NetEvent::Head {
            id,
            status: a.status,
            headers: a.headers,
        });
        if !a.body.is_empty() {
            on(NetEvent::Chunk(id, a.body.into_bytes()));
        }
        if stream.is_none() {
            on(NetEvent::End(id));
        }
    });
    deliver(pushes);
    stream
}

/// Hands what the demo pushed to the open streams, a task later (after the answer
/// of the POST that caused it, as a server's 202 usually comes first).
fn deliver(pushes: Vec<Push>) {
    if pushes.is_empty() {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        for p in pushes {
            match p {
                Push::Chunk { stream, text } => {
                    // A stream closed meanwhile lost it, as over the network.
                    if let Some((id, on)) = STREAMS.with(|m| m.borrow().get(&stream).cloned()) {
                        on(NetEvent::Chunk(id, text.into_bytes()));
                    }
                }
                Push::End(stream) => {
                    if let Some((id, on)) = STREAMS.with(|m| m.borrow_mut().remove(&stream)) {
                        on(NetEvent::End(id));
                    }
                }
            }
        }
    });
}

/// The page aborted stream `stream`'s GET (or closed its link): the session ends.
pub fn closed(stream: StreamId) {
    STREAMS.with(|m| m.borrow_mut().remove(&stream));
    DEMO.with(|d| d.borrow_mut().handle_closed(stream));
}
