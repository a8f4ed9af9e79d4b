//! The driver itself: its state, the one entry point for inputs, the pump that moves
//! frames and events until nothing moves, and the one deadline.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::client::{Client, ClientConfig, OpId};
use mcpg_core::jsonrpc::RequestId;
use mcpg_host::ToolLoop;
use mcpg_host::provider::Provider;
use mcpg_host::script::Script;
use mcpg_host::tool_loop::PageRecord;
use serde_json::Value;

use crate::engine::EngineRef;
use crate::input::{Command, ConnId, Input, LoopId};
use crate::later::Later;
use crate::links::Link;
use crate::log::WireLog;
use crate::output::Output;
use crate::record::Recorder;
use crate::settings::Pin;
use crate::settings::{LlmSettings, ModelChoice};
use crate::shown::Shown;
use crate::view::{Notice, Source, ViewChange};

/// Pause between steps in run mode, so each step can be seen arriving.
pub const RUN_PACE: Duration = Duration::from_millis(300);

/// Bound on one pump, in case a misbehaving peer keeps the queues busy forever.
const PUMP_ROUNDS: usize = 100_000;

/// A turn the learner wrote as the model, waiting for step 3 or 6.
#[derive(Clone, Debug)]
pub(crate) enum Manual {
    /// A tool call, from the generated form.
    Call(mcpg_host::provider::ToolCall),
    /// A final answer in words.
    Answer(String),
}

/// The page without its browser: see the crate documentation.
#[derive(Debug)]
pub struct PageDriver {
    pub(crate) now: Timestamp,
    pub(crate) conn: ConnId,
    pub(crate) source: Source,
    pub(crate) link: Link,
    pub(crate) client: Client,
    pub(crate) started: Timestamp,
    pub(crate) pin: Pin,
    pub(crate) run: Option<ToolLoop>,
    /// Whether the loop's listing has been shown in the Tools panel (once: a later
    /// listing, e.g. after list_changed, must not be overwritten by it).
    pub(crate) run_pages_shown: bool,
    pub(crate) manual: Option<Manual>,
    pub(crate) loop_id: LoopId,
    pub(crate) model_pending: bool,
    /// The request line and headers of the model request in flight, as shown.
    pub(crate) pending_head: Option<Value>,
    pub(crate) running: bool,
    pub(crate) pace_due: Option<Timestamp>,
    pub(crate) list_op: Option<OpId>,
    pub(crate) pages: Vec<PageRecord>,
    pub(crate) methods: HashMap<RequestId, String>,
    /// Model turns still to play (reloaded from `script_values` when played through).
    pub(crate) script: Script,
    pub(crate) prompt: String,
    pub(crate) script_values: Vec<Value>,
    pub(crate) provider: Provider,
    pub(crate) model: ModelChoice,
    pub(crate) llm: Vec<LlmSettings>,
    pub(crate) key_hints: Vec<Option<String>>,
    pub(crate) replay: Option<mcpg_recording::Recording>,
    pub(crate) recorder: Recorder,
    pub(crate) log: WireLog,
    pub(crate) shown: Shown,
    pub(crate) first_list_done: bool,
    /// The Tools panel's pages changed during this input (told once, at its end).
    pub(crate) pages_dirty: bool,
    /// HTTP links replaced or closed, kept until their DELETE is answered.
    pub(crate) closing: BTreeMap<ConnId, Box<dyn crate::http_port::HttpPort>>,
    /// The Resources, Prompts and Logs panels.
    pub(crate) features: crate::features::state::Features,
    /// What the server asked the host, and the learner's roots.
    pub(crate) asks: crate::asks::Asks,
    /// The loop's code, once the shell handed it in ([`crate::engine`]).
    pub(crate) engine: Option<EngineRef>,
    /// Commands waiting for the engine, in order (`Some` while it is being loaded).
    pub(crate) waiting: Option<Vec<Command>>,
    /// The engine was asked for because the client holds a server's request or
    /// notification (asked once: after a failed fetch, the next command that needs
    /// the engine asks again).
    pub(crate) engine_for_held: bool,
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
            // Readers from the engine (`readers.rs` in the core's client).
            client: Client::without_answer_readers(ClientConfig::default()),
            started: Timestamp::ZERO,
            pin: Pin::Auto,
            run: None,
            run_pages_shown: false,
            manual: None,
            loop_id: 0,
            model_pending: false,
            pending_head: None,
            running: false,
            pace_due: None,
            list_op: None,
            pages: Vec::new(),
            methods: HashMap::new(),
            script: Script::default(),
            prompt: "What's the weather in Austin?".to_owned(),
            script_values: Vec::new(),
            provider: Provider::Anthropic,
            model: ModelChoice::Mock,
            llm: Provider::ALL.map(LlmSettings::default_for).to_vec(),
            key_hints: vec![None; Provider::ALL.len()],
            replay: None,
            recorder: Recorder::default(),
            log,
            shown: Shown::default(),
            first_list_done: false,
            pages_dirty: false,
            closing: BTreeMap::new(),
            features: crate::features::state::Features::default(),
            asks: crate::asks::Asks::default(),
            engine: None,
            waiting: None,
            engine_for_held: false,
            inbox: VecDeque::new(),
            outputs: VecDeque::new(),
            busy: false,
            log_shown: crate::view::LogMeta::default(),
        }
    }

    /// This driver with its engine already in (natively, where nothing is split off:
    /// tests and tools then never see [`Output::LoadEngine`]).
    pub fn with_engine(mut self, engine: EngineRef) -> PageDriver {
        self.engine = Some(engine);
        self.client.set_answer_readers(engine.0.answer_readers());
        self
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
            self.pace_due,
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

    /// The current loop's id.
    pub fn loop_id(&self) -> LoopId {
        self.loop_id
    }

    /// Whether run mode is on.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// The current loop, if any (read-only: for tests and the shell's queries).
    pub fn tool_loop(&self) -> Option<&ToolLoop> {
        self.run.as_ref()
    }

    /// The source of the current connection.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The pinned revision.
    pub fn pin(&self) -> Pin {
        self.pin
    }

    pub(crate) fn emit(&mut self, change: ViewChange) {
        self.outputs.push_back(Output::View(change));
    }

    pub(crate) fn output(&mut self, out: Output) {
        self.outputs.push_back(out);
    }

    pub(crate) fn note(&mut self, text: impl Into<String>) {
        self.log.note(text.into());
    }

    pub(crate) fn notice(&mut self, text: impl Into<String>) {
        self.emit(ViewChange::Notice(Some(Notice::text(text))));
    }

    /// Moves frames and events until nothing moves, then updates the view and the
    /// run-mode pace.
    pub(crate) fn pump(&mut self) {
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
            if !moved {
                break;
            }
        }
        self.ask_engine_for_held();
        if self.run.is_some() {
            self.through_engine(Later::SyncLoop);
        }
        if self.running && self.actionable() && self.pace_due.is_none() {
            self.pace_due = Some(self.now.after(RUN_PACE));
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
