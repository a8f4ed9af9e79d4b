//! The driver itself: the one entry point for inputs, the pump that moves frames and
//! events until nothing moves, the later parts and their queue of work, and the one
//! deadline. The state both work on is the [`Page`].

use std::collections::VecDeque;
use std::ops::Deref;
use std::time::Duration;

use mcpg_core::Timestamp;

use crate::input::Input;
use crate::later::LaterTools;
use crate::links::Link;
use crate::log::WireLog;
use crate::output::Output;
use crate::page::{PUMP_ROUNDS, Page};
use crate::parts::{LaterKit, LaterParts};
use crate::view::{LogMeta, ViewChange};

/// Pause between steps in run mode, so each step can be seen arriving.
pub const RUN_PACE: Duration = Duration::from_millis(300);

/// The later parts' place in the driver (shown as a word: see [`LaterParts`]).
struct LaterSlot(Option<Box<dyn LaterParts>>);

impl std::fmt::Debug for LaterSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "in" } else { "not in" })
    }
}

/// The page without its browser: see the crate documentation. It reads as its
/// [`Page`] (`Deref`): the log, the connection, a recording.
#[derive(Debug)]
pub struct PageDriver {
    page: Page,
    /// The later parts, once the shell handed them in.
    later: LaterSlot,
    inbox: VecDeque<Input>,
    busy: bool,
    log_shown: LogMeta,
}

impl Default for PageDriver {
    fn default() -> Self {
        PageDriver::new()
    }
}

impl Deref for PageDriver {
    type Target = Page;

    fn deref(&self) -> &Page {
        &self.page
    }
}

impl PageDriver {
    /// A driver connected to nothing, with the page's default settings.
    pub fn new() -> PageDriver {
        PageDriver::with_log(WireLog::default())
    }

    /// A driver whose wire log is `log` (e.g. a smaller bound in tests).
    pub fn with_log(log: WireLog) -> PageDriver {
        PageDriver {
            page: Page::with_log(log),
            later: LaterSlot(None),
            inbox: VecDeque::new(),
            busy: false,
            log_shown: LogMeta::default(),
        }
    }

    /// This driver with its later parts already in (natively, where nothing is split
    /// off: tests and tools then never see [`Output::LoadLater`]).
    pub fn with_later(mut self, kit: LaterKit) -> PageDriver {
        self.take_kit(kit);
        self
    }

    /// Keeps `kit`: its parts, its tools, the client's readers.
    pub(crate) fn take_kit(&mut self, kit: LaterKit) {
        let tools = LaterTools {
            http: kit.http,
            demo_handlers: kit.demo_handlers,
            answer_readers: kit.answer_readers,
        };
        let page = &mut self.page;
        page.client.set_answer_readers(tools.answer_readers);
        if let Link::Memory(m) = &mut page.link {
            m.set_handlers(tools.demo_handlers);
        }
        page.tools = Some(tools);
        self.later.0 = Some(kit.parts);
    }

    /// Hands in one input at `now`. Inputs are queued and handled in order, so one
    /// that arrives while another is handled is never lost.
    pub fn handle(&mut self, now: Timestamp, input: Input) {
        self.inbox.push_back(input);
        if self.busy {
            return;
        }
        self.busy = true;
        while let Some(input) = self.inbox.pop_front() {
            self.page.now = now.max(self.page.now);
            self.apply(input);
            self.pump();
        }
        self.busy = false;
        let page = &mut self.page;
        if std::mem::take(&mut page.pages_dirty) {
            page.emit(ViewChange::Pages(page.pages.clone()));
        }
        // One log change per input batch, however many rows it appended.
        let meta = LogMeta {
            unrecorded: page.recorder.unrecorded(),
            ..page.log.meta()
        };
        if meta != self.log_shown {
            self.log_shown = meta;
            page.emit(ViewChange::Log(meta));
        }
    }

    /// The next thing for the shell to do.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.page.outputs.pop_front()
    }

    /// When the shell must hand in [`Input::Timer`] next (core deadlines, the demo
    /// server's slow jobs, HTTP resumes and deadlines, run-mode pacing), if ever.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        let page = &self.page;
        let memory = match &page.link {
            Link::Memory(m) => m.poll_timeout(),
            _ => None,
        };
        [
            page.client.poll_timeout(),
            memory,
            page.http_deadline(),
            self.later.0.as_ref().and_then(|l| l.poll_timeout()),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Where each hosted MCP Apps view belongs in the loop, for the picture of the
    /// loop (none before the later parts are in). Read when
    /// [`ViewChange::Apps`] says the views changed.
    pub fn app_lifelines(&self) -> Vec<crate::apps::AppLifeline> {
        self.later
            .0
            .as_ref()
            .map(|l| l.app_lifelines())
            .unwrap_or_default()
    }

    /// The first screen's state, to change (the driver's own inputs' work).
    pub(crate) fn page_mut(&mut self) -> &mut Page {
        &mut self.page
    }

    /// Puts `commands` at the head of the inbox, in order.
    pub(crate) fn requeue(&mut self, commands: Vec<crate::Command>) {
        for c in commands.into_iter().rev() {
            self.inbox.push_front(Input::Command(c));
        }
    }

    /// Runs the later parts' queue; whether anything ran.
    fn run_later(&mut self) -> bool {
        let mut ran = false;
        while let Some(work) = self.page.for_later.pop_front() {
            ran = true;
            match &mut self.later.0 {
                Some(parts) => parts.handle(&mut self.page, work),
                None => self.page.note(format!(
                    "not done: {} needed the tool loop's code, which is not loaded",
                    work.label()
                )),
            }
        }
        ran
    }

    /// Moves frames and events until nothing moves (the later parts' work included),
    /// then lets the later parts update the loop's view and its pace.
    pub(crate) fn pump(&mut self) {
        for _ in 0..PUMP_ROUNDS {
            let moved = self.page.move_once();
            if !(self.run_later() || moved) {
                break;
            }
        }
        self.page.ask_later_for_held();
        self.page.tell_later(crate::Later::Pumped);
        self.run_later();
    }
}
