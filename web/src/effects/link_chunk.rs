//! The shell's side of the connections chunk (`transports`): the driver's link and
//! model outputs run through it, fetched the first time one comes, or after the
//! first tool list and the later parts' first pack ([`prefetch`]) so a learner's
//! first connection rarely waits. The bridge's server list waits for whichever of
//! the two comes first.
//!
//! Order is the driver's: while the chunk loads, those outputs (and any later ones)
//! wait in a queue, drained in order once it is in; the shell's other outputs
//! (view changes, the timer) go on meanwhile. A chunk that cannot be fetched fails
//! what waited with the inputs the driver knows for a transport that closed and a
//! model that could not be reached, and the next output that needs it fetches again.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use leptos::prelude::*;
use mcpg_page::{Command, ConnId, Input, LinkSpec, ModelReply, Output};

use super::bridge_addr;
use super::chunk_queue::{Chunk, Submitted};
use super::early_ws;
use super::here::origin;
use super::inbox;
use super::transports::{self, Transports};
use crate::state::AppState;

/// Why a connection failed when the chunk could not be fetched (the status line).
const UNLOADED: &str = "the code for connections could not be loaded";

/// The notice that says the rest.
const UNLOADED_NOTICE: &str = "The page's code for connections could not be loaded (the network may have dropped). The embedded demo server keeps working; connect again to retry.";

/// Why a real model could not be asked (step 3 or 6 shows it as the browser's words).
const MODEL_UNLOADED: &str =
    "the page's code for reaching models could not be loaded; the network may have dropped";

/// Something that needs the chunk's code.
enum Job {
    /// One of the driver's link or model outputs.
    Output(AppState, Output),
    /// Reading the bridge's server list.
    ListBridge(AppState),
}

thread_local! {
    static CHUNK: RefCell<Chunk<Transports, Job>> = const { RefCell::new(Chunk::Idle) };
    /// A bridge list asked for before the chunk was on its way.
    static BRIDGE: Cell<Option<AppState>> = const { Cell::new(None) };
    /// Whether the first tool list has shown (fetching is free from then on).
    static SHOWN: Cell<bool> = const { Cell::new(false) };
    /// Whether the later parts' first pack came (or could not).
    static LATER_IN: Cell<bool> = const { Cell::new(false) };
}

/// Runs a link or model output now, or once the chunk is in.
pub fn run(st: AppState, out: Output) {
    // Every link is opened by the chunk: before it was ever in, a close, a frame or
    // a request can only name a link that is not there.
    // (A view's message, too: it needs the chunk whatever the links.)
    let opens = matches!(
        out,
        Output::OpenLink { .. } | Output::ModelRequest(_) | Output::AppPost { .. }
    );
    if !opens && idle() {
        return;
    }
    let early = match &out {
        Output::OpenLink {
            conn,
            link: LinkSpec::Bridge(name),
        } => Some((*conn, name.clone())),
        _ => None,
    };
    if submit(Job::Output(st, out))
        && let Some((conn, name)) = early
    {
        open_early(st, conn, &name);
    }
}

/// Opens a bridge server's socket before the chunk is in, when the page has the
/// bridge's token (else the chunk refuses the link): the bridge starts the server
/// meanwhile (`early_ws`).
fn open_early(st: AppState, conn: ConnId, name: &str) {
    let (token, root) = st
        .bridge
        .with_untracked(|b| (b.token.clone(), bridge_addr::root(b, false)));
    if let (Some(token), Some(root)) = (token, root) {
        early_ws::open(conn, &root, name, &token);
    }
}

/// Reads the bridge's server list with the chunk's code: at once if it is in, else
/// once it is (fetched now only if it may be, see [`prefetch`]).
pub fn list_bridge(st: AppState) {
    if !idle() || may_fetch() {
        submit(Job::ListBridge(st));
    } else {
        BRIDGE.with(|b| b.set(Some(st)));
    }
}

/// The first tool list has shown: the chunk is fetched now if the later parts'
/// first pack is in; else once it is ([`prefetch_after_later`]), so that the two
/// never share a slow link: the loop's controls wait for that pack. The bridge's
/// server list waits too (measured at 1.6 Mbps: the chunk and its ~30 small
/// chunks, 65 KB, fetched beside the 392 KB pack for the list held the loop's
/// controls back by about their bytes' time, ~0.37 s). A connection fetches the
/// chunk at once. A failure is quiet: the next output that needs it fetches again.
pub fn prefetch() {
    SHOWN.with(|s| s.set(true));
    if may_fetch() {
        start_prefetch();
    }
}

/// Whether the chunk may be fetched unasked: the first tool list has shown and the
/// later parts' first pack is in (or could not be).
fn may_fetch() -> bool {
    SHOWN.with(Cell::get) && LATER_IN.with(Cell::get)
}

/// The later parts' first pack came, or could not: the chunk is fetched now if
/// the first tool list has shown and nothing fetched it yet.
pub fn prefetch_after_later() {
    LATER_IN.with(|l| l.set(true));
    if may_fetch() {
        start_prefetch();
    }
}

/// Starts the fetch, if the chunk is not in or on its way.
fn start_prefetch() {
    if CHUNK.with(|c| c.borrow_mut().prefetch(pending)) {
        fetch_chunk();
    }
}

fn idle() -> bool {
    CHUNK.with(|c| c.borrow().is_idle())
}

/// The bridge list asked for while nothing was fetched, to go first.
fn pending() -> VecDeque<Job> {
    BRIDGE
        .with(Cell::take)
        .map(Job::ListBridge)
        .into_iter()
        .collect()
}

/// Runs `job` now, queues it, or starts the fetch with it; whether it waits for
/// the chunk.
fn submit(job: Job) -> bool {
    // A list kept aside waits for the fetch this may start.
    let submitted = CHUNK.with(|c| c.borrow_mut().submit(job, pending));
    match submitted {
        Submitted::Run(t, job) => {
            perform(t, job);
            false
        }
        Submitted::Queued { fetch } => {
            if fetch {
                fetch_chunk();
            }
            true
        }
    }
}

fn perform(t: Transports, job: Job) {
    match job {
        Job::Output(st, out) => (t.run)(st, out),
        Job::ListBridge(st) => (t.list_bridge)(st),
    }
}

fn fetch_chunk() {
    wasm_bindgen_futures::spawn_local(async {
        match transports::load().await {
            Some(t) => drain(t),
            None => fail(),
        }
    });
}

/// Runs what waited, one at a time: what those jobs cause queues behind them.
fn drain(t: Transports) {
    while let Some(job) = CHUNK.with(|c| c.borrow_mut().next_after_load(t)) {
        perform(t, job);
    }
}

/// Fails what waited as the driver knows a failed transport or model, in order.
fn fail() {
    let waited = CHUNK.with(|c| c.borrow_mut().failed());
    let mut links = false;
    for job in waited {
        match job {
            Job::Output(_, Output::OpenLink { conn, .. }) => {
                links = true;
                early_ws::discard(conn);
                inbox::send(Input::LinkClosed {
                    conn,
                    why: UNLOADED.to_owned(),
                });
            }
            Job::Output(_, Output::ModelRequest(req)) => {
                let reply = ModelReply::Unreachable {
                    detail: MODEL_UNLOADED.to_owned(),
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
            // Read with the next fetch, which a link or a model request starts.
            Job::ListBridge(st) => {
                st.bridge.update(|b| b.error = Some(UNLOADED.to_owned()));
                BRIDGE.with(|b| b.set(Some(st)));
            }
            // Closes, frames, requests and aborts of links that never opened.
            Job::Output(..) => {}
        }
    }
    if links {
        inbox::command(Command::ShowNotice(UNLOADED_NOTICE.to_owned()));
    }
}
