//! The first screen's state ([`Page`]): what the driver's own code and the later
//! parts work on. The driver ([`crate::PageDriver`]) wraps it with the inputs'
//! queue and the later parts, which get a `&mut Page`; this module names neither,
//! so no module imports one that imports it back.

use std::collections::{BTreeMap, HashMap, VecDeque};

use mcpg_core::Timestamp;
use mcpg_core::client::{Client, ClientConfig, OpId};
use mcpg_core::jsonrpc::RequestId;
use mcpg_loop_data::{PageRecord, Pitfalls, Provider};
use serde_json::Value;

use crate::command::{Command, ConnId};
use crate::later::{Later, LaterTools};
use crate::links::Link;
use crate::log::WireLog;
use crate::output::Output;
use crate::record::Recorder;
use crate::settings::Pin;
use crate::settings::{LlmSettings, ModelChoice};
use crate::view::{Notice, Source, ViewChange};

/// Bound on one pump, in case a misbehaving peer keeps the queues busy forever.
pub(crate) const PUMP_ROUNDS: usize = 100_000;

/// The page's first-screen state. The fields the later parts work on are public to
/// them (`mcpg-page-later`); the shell reads the rest through the methods.
#[derive(Debug)]
pub struct Page {
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
    /// The host's mistakes as set (none: the careful host); a loop takes them when
    /// it starts.
    pub pitfalls: Pitfalls,
    /// The mistakes of the loop under way, set by the later parts when it starts
    /// and cleared when it ends or is forgotten: while a loop runs the host acts as
    /// that loop's host, even if the setting changed since (so every card of a loop
    /// was made by one host).
    pub loop_pitfalls: Option<Pitfalls>,
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
    /// The kit's stateless tools (kept while the parts are out).
    pub(crate) tools: Option<LaterTools>,
    /// Work for the later parts, in order.
    pub(crate) for_later: VecDeque<Later>,
    /// Commands waiting for the later parts, in order (`Some` while they load).
    pub(crate) waiting: Option<Vec<Command>>,
    /// The later parts were asked for because the client holds a server's request
    /// or notification (asked once: after a failed fetch, the next command that
    /// needs them asks again).
    pub(crate) later_for_held: bool,
    pub(crate) outputs: VecDeque<Output>,
}

impl Page {
    /// A page connected to nothing, with the page's default settings.
    pub(crate) fn with_log(log: WireLog) -> Page {
        Page {
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
            pitfalls: Pitfalls::NONE,
            loop_pitfalls: None,
            llm: Provider::ALL.map(LlmSettings::default_for).to_vec(),
            key_hints: vec![None; Provider::ALL.len()],
            replay: None,
            recorder: Recorder::default(),
            log,
            first_list_done: false,
            pages_dirty: false,
            closing: BTreeMap::new(),
            tools: None,
            for_later: VecDeque::new(),
            waiting: None,
            later_for_held: false,
            outputs: VecDeque::new(),
        }
    }

    /// Whether the later parts are in.
    pub fn later_in(&self) -> bool {
        self.tools.is_some()
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

    /// The mistakes the host makes now: the running loop's, else the setting's.
    pub fn host_pitfalls(&self) -> Pitfalls {
        self.loop_pitfalls.unwrap_or(self.pitfalls)
    }

    /// Shows `change`.
    pub fn emit(&mut self, change: ViewChange) {
        self.outputs.push_back(Output::View(change));
    }

    /// Asks the shell to do `out`.
    pub fn output(&mut self, out: Output) {
        self.outputs.push_back(out);
    }

    /// The first `tools/list` of the page's life ended (once): told to the view.
    pub(crate) fn first_listing_ended(&mut self, listed: bool) {
        if !self.first_list_done {
            self.first_list_done = true;
            self.emit(ViewChange::FirstListing { listed });
        }
    }

    /// A line in the wire log.
    pub fn note(&mut self, text: impl Into<String>) {
        self.log.note(text.into());
    }

    /// A message between a hosted view and the host, in the wire log's app lane.
    pub fn log_app(&mut self, from_view: bool, summary: String, raw: std::sync::Arc<str>) {
        let at_ms = self
            .now
            .as_millis()
            .saturating_sub(self.started.as_millis());
        self.log.app(from_view, at_ms, summary, raw);
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

    /// Moves frames and events once round; whether anything moved. What the later
    /// parts must do about it is queued, not done.
    pub(crate) fn move_once(&mut self) -> bool {
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
        moved
    }

    /// Moves frames and events until nothing moves (the later parts' work waits in
    /// its queue: the driver runs it next).
    pub fn move_frames(&mut self) {
        for _ in 0..PUMP_ROUNDS {
            if !self.move_once() {
                break;
            }
        }
    }

    fn next_incoming(&mut self) -> Option<String> {
        match &mut self.link {
            Link::Memory(m) => m.pop(),
            Link::Replay(r) => r.pop(),
            _ => None,
        }
    }
}
