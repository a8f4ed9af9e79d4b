//! The shell: executes the driver's outputs. Links (a WebSocket, a Streamable HTTP
//! endpoint) and real models' requests go to `link_chunk`, whose code is a split
//! chunk; the one timer is re-armed for the driver's deadline after every input;
//! view changes go to `apply`.

use std::cell::{Cell, RefCell};
use std::time::Duration;

use leptos::prelude::*;
use mcpg_page::{Input, Output};

use super::apply::apply;
use super::clock::now;
use super::inbox;
use super::link_chunk;
use crate::state::AppState;

thread_local! {
    static STATE: Cell<Option<AppState>> = const { Cell::new(None) };
    static TIMER: RefCell<Option<TimeoutHandle>> = const { RefCell::new(None) };
}

/// Starts the shell for the page's state: from now on every input's outputs run here.
pub fn start(st: AppState) {
    STATE.with(|s| s.set(Some(st)));
    inbox::set_executor(execute);
}

/// The page's state, once the shell started.
pub fn state() -> Option<AppState> {
    STATE.with(Cell::get)
}

fn execute(outs: Vec<Output>) {
    let Some(st) = STATE.with(Cell::get) else {
        return;
    };
    for out in outs {
        match out {
            Output::View(change) => apply(st, change),
            Output::LoadLater => super::later_kit::load(),
            Output::OpenUrl { url } => super::asks::open_tab(&url),
            // Links and models: their code is a chunk, run in the driver's order.
            link @ (Output::OpenLink { .. }
            | Output::CloseLink { .. }
            | Output::SendFrame { .. }
            | Output::Http { .. }
            | Output::AbortHttp { .. }
            | Output::ModelRequest(_)
            // A view's messages: posted by the chunk's code, in the driver's order
            // with the view's calls to the server.
            | Output::AppPost { .. }) => link_chunk::run(st, link),
        }
    }
    arm_timer();
}

/// One timer, for the driver's one deadline.
fn arm_timer() {
    let due = inbox::read(mcpg_page::PageDriver::poll_timeout).flatten();
    TIMER.with(|t| {
        if let Some(old) = t.borrow_mut().take() {
            old.clear();
        }
        let Some(due) = due else { return };
        let wait = due.as_millis().saturating_sub(now().as_millis());
        *t.borrow_mut() =
            set_timeout_with_handle(|| inbox::send(Input::Timer), Duration::from_millis(wait)).ok();
    });
}
