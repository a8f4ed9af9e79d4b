//! The page's one driver ([`mcpg_page::PageDriver`]) behind a [`Mailbox`], and the
//! one way anything reaches it: [`send`] an input. Browser callbacks (sockets,
//! fetches, timers, clicks) all end here. An input that arrives while the driver is
//! busy is queued by the mailbox and handled right after, never dropped.
//!
//! The outputs are executed by the shell (`shell.rs`), registered at start through
//! [`set_executor`]: callbacks import this module only, and the shell imports them,
//! so no module imports one that imports it back.

use std::cell::Cell;

use mcpg_page::{Input, Mailbox, Output, PageDriver};

use super::clock::now;

/// What executes a batch of outputs.
type Executor = fn(Vec<Output>);

thread_local! {
    static MAILBOX: Mailbox = Mailbox::default();
    static EXECUTOR: Cell<Option<Executor>> = const { Cell::new(None) };
}

/// Registers the function that executes the driver's outputs (the shell's).
pub fn set_executor(f: Executor) {
    EXECUTOR.with(|e| e.set(Some(f)));
}

/// Hands `input` to the driver now (or right after what it is doing), then executes
/// what it asked for.
pub fn send(input: Input) {
    let outs = MAILBOX.with(|m| m.dispatch(now(), input));
    execute(outs);
    // Inputs queued while the outputs ran (a callback that fired synchronously) are
    // handled before returning.
    while MAILBOX.with(Mailbox::pending) > 0 {
        let outs = MAILBOX.with(Mailbox::drain);
        if outs.is_empty() {
            break;
        }
        execute(outs);
    }
}

/// A command from the learner.
pub fn command(c: mcpg_page::Command) {
    send(Input::Command(c));
}

fn execute(outs: Vec<Output>) {
    if let Some(f) = EXECUTOR.with(Cell::get) {
        f(outs);
    }
}

/// Reads the driver (the wire log's visible rows, a recording). `None` only while
/// the driver is being mutated, which a read from the page never meets.
pub fn read<R>(f: impl FnOnce(&PageDriver) -> R) -> Option<R> {
    MAILBOX.with(|m| m.read(f))
}
