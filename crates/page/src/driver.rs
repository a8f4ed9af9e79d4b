//! The driver itself: its state, the one entry point for inputs, the pump that moves
//! frames and events until nothing moves, the queue of work for the later parts, and
//! the one deadline.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::client::{Client, ClientConfig, OpId};
use mcpg_core::jsonrpc::RequestId;
use mcpg_loop_data::{PageRecord, Provider};
use serde_json::Value;

use crate::input::{Command, ConnId, Input};
use crate::later::{Later, LaterKit, LaterParts, LaterTools};
use crate::links::Link;
use crate::log::WireLog;
use crate::output::Output;
use crate::record::Recorder;
use crate::settings::Pin;
use crate::settings::{LlmSettings, ModelChoice};
use crate::view::{Notice, Source, ViewChange};

/// Pause between steps in run mode, so each step can be seen arriving.
pub const RUN_PACE: Duration = Duration::from_millis(300);

/// Bound on one pump, in case a misbehaving peer keeps the queues busy forever.
const PUMP_ROUNDS: usize = 100_000;

/// The later parts' place in the driver (shown as a word: see [`LaterParts`]).
struct LaterSlot(Option<Box<dyn LaterParts>>);

impl std::fmt::Debug for LaterSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "in" } else { "not in" })
    }
}

/// The page without its browser: see the crate documentation. The fields the later
/// parts work on are public to them (`mcpg-page-later`); the shell uses the methods.
#[derive(Debug)]
pub struct PageDriver {
    /// The time of the input being handled.
    pub now: Timestamp,
    /// The current connection's number.
    pub conn: ConnId,
    /// What the current connection is to.
    pub source: Source,
    pub(crate) link: Link,
    /// The core's client session of the current connection.
    pub client: Client,
    /// When the current connection started (times in the log count from it).
    pub started: Timestamp,
    pub(crate) pin: Pin,
    pub(crate) list_op: Option<OpId>,
    /// The Tools panel's pages.
    pub pages: Vec<PageRecord>,
    pub(crate) methods: HashMap<RequestId, String>,
    /// The loop's prompt.
    pub prompt: String,
    /// The model script as set (validated by the later parts when a loop starts).
    pub script_values: Vec<Value>,
    /// The provider format chosen.
    pub provider: Provider,
    /// Who answers for the model.
    pub model: ModelChoice,
    /// Each provider's real model settings (no key).
    pub llm: Vec<LlmSettings>,
    /// Each provider's key, as its masked hint only.
    pub key_hints: Vec<Option<String>>,
    /// The recording being replayed, if any.
    pub replay: Option<mcpg_recording::Recording>,
    /// What a shared session records.
    pub recorder: Recorder,
    pub(crate) log: WireLog,
    pub(crate) first_list_done: bool,
    /// The Tools panel's pages changed during this input (told once, at its end).
    pub pages_dirty: bool,
    /// HTTP links replaced or closed, kept until their DELETE is answered.
    pub(crate) closing: BTreeMap<ConnId, Box<dyn crate::http_port::HttpPort>>,
    /// The later parts, once the shell handed them in (taken out while they work).
    later: LaterSlot,
    /// The kit's stateless tools (kept while the parts are out).
    pub(crate) tools: Option<LaterTools>,
    /// Work for the later parts, in order.
    for_later: VecDeque<Later>,
    /// The later parts are at work (their work's queue runs after they return).
    in_later: bool,
    /// Commands waiting for the later parts, in order (`Some` while they load).
    pub(crate) waiting: Option<Vec<Command>>,
    /// The later parts were asked for because the client holds a server's request
    /// or notification (asked once: after a failed fetch, the next command that
    /// needs them asks again).
    pub(crate) later_for_held: bool,
    pub(crate) inbox: VecDeque<Input>,
    pub(crate) outputs: VecDeque<Output>,
    busy: bool,
    log_shown: crate::view::LogMeta,
}

impl Default for PageDriver {
    fn default() -> Self {
        PageDriver::new()
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
            now: Timestamp::ZERO,
            conn: 0,
            source: Source::Demo,
            link: Link::None,
            // Readers from the later parts (`readers.rs` in the core's client).
            client: Client::without_answer_readers(ClientConfig::default()),
            started: Timestamp::ZERO,
            pin: Pin::Auto,
            list_op: None,
            pages: Vec::new(),
            methods: HashMap::new(),
            prompt: "What's the weather in Austin?".to_owned(),
            script_values: Vec::new(),
            provider: Provider::Anthropic,
            model: ModelChoice::Mock,
            llm: Provider::ALL.map(LlmSettings::default_for).to_vec(),
            key_hints: vec![None; Provider::ALL.len()],
            replay: None,
            recorder: Recorder::default(),
            log,
            first_list_done: false,
            pages_dirty: false,
            closing: BTreeMap::new(),
            later: LaterSlot(None),
            tools: None,
            for_later: VecDeque::new(),
            in_later: false,
            waiting: None,
            later_for_held: false,
            inbox: VecDeque::new(),
            outputs: VecDeque::new(),
            busy: false,
            log_shown: crate::view::LogMeta::default(),
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
        self.client.set_answer_readers(tools.answer_readers);
        if let Link::Memory(m) = &mut self.link {
            m.set_handlers(tools.demo_handlers);
        }
        self.tools = Some(tools);
        self.later.0 = Some(kit.parts);
    }

    /// Whether the later parts are in.
    pub fn later_in(&self) -> bool {
        self.tools.is_some()
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
            self.now = now.max(self.now);
            self.apply(input);
            self.pump();
        }
        self.busy = false;
        if std::mem::take(&mut self.pages_dirty) {
            self.emit(ViewChange::Pages(self.pages.clone()));
        }
        // One log change per input batch, however many rows it appended.
        let meta = crate::view::LogMeta {
            unrecorded: self.recorder.unrecorded(),
            ..self.log.meta()
        };
        if meta != self.log_shown {
            self.log_shown = meta;
            self.emit(ViewChange::Log(meta));
        }
    }

    /// The next thing for the shell to do.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.outputs.pop_front()
    }

    /// When the shell must hand in [`Input::Timer`] next (core deadlines, the demo
    /// server's slow jobs, HTTP resumes and deadlines, run-mode pacing), if ever.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        let memory = match &self.link {
            Link::Memory(m) => m.poll_timeout(),
            _ => None,
        };
        [
            self.client.poll_timeout(),
            memory,
            self.http_deadline(),
            self.later.0.as_ref().and_then(|l| l.poll_timeout()),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The wire log (rows to show, counts, the JSON export).
    pub fn log(&self) -> &WireLog {
        &self.log
    }

    /// The current connection's id.
    pub fn conn(&self) -> ConnId {
        self.conn
    }

    /// The source of the current connection.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The pinned revision.
    pub fn pin(&self) -> Pin {
        self.pin
    }

    /// Shows `change`.
    pub fn emit(&mut self, change: ViewChange) {
        self.outputs.push_back(Output::View(change));
    }

    /// Asks the shell to do `out`.
    pub fn output(&mut self, out: Output) {
        self.outputs.push_back(out);
    }

    /// A line in the wire log.
    pub fn note(&mut self, text: impl Into<String>) {
        self.log.note(text.into());
    }

    /// A notice over the page.
    pub fn notice(&mut self, text: impl Into<String>) {
        self.emit(ViewChange::Notice(Some(Notice::text(text))));
    }

    /// Queues `work` for the later parts (without them, the log says it was not done).
    pub(crate) fn queue_later(&mut self, work: Later) {
        self.for_later.push_back(work);
    }

    /// Queues `work` for the later parts if they are in (housekeeping: without them
    /// there is nothing to keep).
    pub(crate) fn tell_later(&mut self, work: Later) {
        if self.later_in() {
            self.for_later.push_back(work);
        }
    }

    /// Runs the later parts' queue; whether anything ran. Inside their own work it
    /// waits: the outer run takes what they queue next.
    pub(crate) fn run_later(&mut self) -> bool {
        if self.in_later {
            return false;
        }
        let mut ran = false;
        while let Some(work) = self.for_later.pop_front() {
            ran = true;
            match self.later.0.take() {
                Some(mut parts) => {
                    self.in_later = true;
                    parts.handle(self, work);
                    self.in_later = false;
                    self.later.0 = Some(parts);
                }
                None => self.note(format!(
                    "not done: {} needed the tool loop's code, which is not loaded",
                    work.label()
                )),
            }
        }
        ran
    }

    /// Moves frames and events until nothing moves (the later parts' work included),
    /// then lets the later parts update the loop's view and its pace. Inside the
    /// later parts' work it moves frames and events only (their work waits).
    pub fn pump(&mut self) {
        for _ in 0..PUMP_ROUNDS {
            let mut moved = false;
            while let Some(out) = self.client.poll_transmit() {
                self.transmit(out);
                moved = true;
            }
            moved |= self.drain_http();
            while let Some(text) = self.next_incoming() {
                self.client.handle_text(self.now, &text);
                moved = true;
            }
            while let Some(ev) = self.client.poll_event() {
                self.on_event(ev);
                moved = true;
            }
            moved |= self.run_later();
            if !moved {
                break;
            }
        }
        if self.in_later {
            return;
        }
        self.ask_later_for_held();
        self.tell_later(Later::Pumped);
        self.run_later();
    }

    fn next_incoming(&mut self) -> Option<String> {
        match &mut self.link {
            Link::Memory(m) => m.pop(),
            Link::Replay(r) => r.pop(),
            _ => None,
        }
    }
}
