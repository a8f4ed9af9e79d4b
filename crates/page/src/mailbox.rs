//! The shell's side of "no input is dropped": the driver behind a `RefCell` with a
//! queue in front. An input that arrives while the driver is borrowed (a JS callback
//! firing during a read, say) is queued and handled by whoever holds the driver next,
//! never refused. Single-threaded, like the page.

use std::cell::RefCell;
use std::collections::VecDeque;

use mcpg_core::Timestamp;

use crate::driver::PageDriver;
use crate::input::Input;
use crate::output::Output;

/// The driver and the inputs waiting for it.
#[derive(Debug, Default)]
pub struct Mailbox {
    driver: RefCell<PageDriver>,
    pending: RefCell<VecDeque<(Timestamp, Input)>>,
}

impl Mailbox {
    /// A mailbox in front of `driver`.
    pub fn new(driver: PageDriver) -> Mailbox {
        Mailbox {
            driver: RefCell::new(driver),
            pending: RefCell::new(VecDeque::new()),
        }
    }

    /// Queues `input` and, when the driver is free, handles every queued input and
    /// returns the outputs for the shell to execute (after this returns, so the
    /// driver is free again while they run). While the driver is borrowed it returns
    /// nothing: the input waits for [`Mailbox::drain`] or the next dispatch.
    pub fn dispatch(&self, now: Timestamp, input: Input) -> Vec<Output> {
        self.pending.borrow_mut().push_back((now, input));
        self.drain()
    }

    /// Handles every queued input, if the driver is free.
    pub fn drain(&self) -> Vec<Output> {
        let Ok(mut d) = self.driver.try_borrow_mut() else {
            return Vec::new();
        };
        let mut outs = Vec::new();
        loop {
            // The queue's borrow ends before `handle`, so nothing it does can collide.
            let next = self.pending.borrow_mut().pop_front();
            let Some((now, input)) = next else { break };
            d.handle(now, input);
            outs.extend(std::iter::from_fn(|| d.poll_output()));
        }
        outs
    }

    /// Inputs waiting.
    pub fn pending(&self) -> usize {
        self.pending.borrow().len()
    }

    /// Reads the driver (`None` only if it is being mutated right now, which a
    /// single-threaded shell never sees from a read).
    pub fn read<R>(&self, f: impl FnOnce(&PageDriver) -> R) -> Option<R> {
        self.driver.try_borrow().ok().map(|d| f(&d))
    }
}
