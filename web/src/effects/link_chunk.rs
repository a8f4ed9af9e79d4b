//! The shell's side of the connections chunk (`transports`): the driver's link and
//! model outputs run through it, fetched the first time one comes (or right after
//! the first tool list, [`prefetch`], so a learner's first connection rarely waits).
//!
//! Order is the driver's: while the chunk loads, those outputs (and any later ones)
//! wait in a queue, drained in order once it is in; the shell's other outputs
//! (view changes, the timer) go on meanwhile. A chunk that cannot be fetched fails
//! what waited with the inputs the driver knows for a transport that closed and a
//! model that could not be reached, and the next output that needs it fetches again.

use std::cell::RefCell;
use std::collections::VecDeque;

use mcpg_page::{Command, Input, ModelReply, Output};

use super::here::origin;
use super::inbox;
use super::transports::{self, Runner};
use crate::state::AppState;

/// Why a connection failed when the chunk could not be fetched (the status line).
const UNLOADED: &str = "the code for connections could not be loaded";

/// The notice that says the rest.
const UNLOADED_NOTICE: &str = "The page's code for connections could not be loaded (the network may have dropped). The embedded demo server keeps working; connect again to retry.";

/// Where the chunk is.
enum Chunk {
    /// Never fetched (or the last fetch failed): no link is open.
    Idle,
    /// Being fetched, or its queue being drained: outputs wait here, in order.
    Loading(VecDeque<(AppState, Output)>),
    /// In: outputs run at once.
    Ready(Runner),
}

thread_local! {
    static CHUNK: RefCell<Chunk> = const { RefCell::new(Chunk::Idle) };
}

/// Runs a link or model output now, or once the chunk is in.
pub fn run(st: AppState, out: Output) {
    enum Next {
        Now(Runner, Output),
        Fetch,
        Done,
    }
    let next = CHUNK.with(|c| {
        let mut c = c.borrow_mut();
        match &mut *c {
            Chunk::Ready(f) => Next::Now(*f, out),
            Chunk::Loading(queue) => {
                queue.push_back((st, out));
                Next::Done
            }
            // Every link is opened by the chunk: before it ever loaded, a close, a
            // frame or a request can only name a link that is not there.
            Chunk::Idle if !opens(&out) => Next::Done,
            Chunk::Idle => {
                *c = Chunk::Loading(VecDeque::from([(st, out)]));
                Next::Fetch
            }
        }
    });
    match next {
        Next::Now(f, out) => f(st, out),
        Next::Fetch => fetch(),
        Next::Done => {}
    }
}

/// Fetches the chunk now, if it is not in or on its way (a failure is quiet: the
/// next output that needs it fetches again).
pub fn prefetch() {
    let start = CHUNK.with(|c| {
        let mut c = c.borrow_mut();
        let idle = matches!(*c, Chunk::Idle);
        if idle {
            *c = Chunk::Loading(VecDeque::new());
        }
        idle
    });
    if start {
        fetch();
    }
}

/// Whether `out` needs the chunk when nothing was opened yet.
fn opens(out: &Output) -> bool {
    matches!(out, Output::OpenLink { .. } | Output::ModelRequest(_))
}

fn fetch() {
    wasm_bindgen_futures::spawn_local(async {
        match transports::load().await {
            Some(f) => drain(f),
            None => fail(),
        }
    });
}

/// Runs what waited, one at a time: what those outputs cause comes in behind them.
fn drain(f: Runner) {
    loop {
        let next = CHUNK.with(|c| {
            let mut c = c.borrow_mut();
            let next = match &mut *c {
                Chunk::Loading(queue) => queue.pop_front(),
                _ => None,
            };
            if next.is_none() {
                *c = Chunk::Ready(f);
            }
            next
        });
        let Some((st, out)) = next else { return };
        f(st, out);
    }
}

/// Fails what waited as the driver knows a failed transport or model, in order.
fn fail() {
    let waited = CHUNK.with(|c| match c.replace(Chunk::Idle) {
        Chunk::Loading(queue) => queue,
        _ => VecDeque::new(),
    });
    let mut links = false;
    for (_, out) in waited {
        match out {
            Output::OpenLink { conn, .. } => {
                links = true;
                inbox::send(Input::LinkClosed {
                    conn,
                    why: UNLOADED.to_owned(),
                });
            }
            Output::ModelRequest(req) => {
                let reply = ModelReply::Unreachable {
                    detail: "the page's code for reaching models could not be loaded (the network may have dropped)".to_owned(),
                    origin: origin(),
                };
                inbox::send(match req.ask {
                    Some(ask) => Input::SampleReply { ask, reply },
                    None => Input::ModelReply {
                        loop_id: req.loop_id,
                        reply,
                    },
                });
            }
            // Closes, frames, requests and aborts of links that never opened.
            _ => {}
        }
    }
    if links {
        inbox::command(Command::ShowNotice(UNLOADED_NOTICE.to_owned()));
    }
}
