//! The one live connection: the core's `Client`, its transport, the tool loop, and
//! the timer that drives time-based work. It lives in a thread-local (the page is
//! single-threaded and JS callbacks need to reach it) and copies what the panels
//! show into [`AppState`] after every change.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;

use leptos::prelude::*;
use mcpg_core::client::{
    CallOptions, Client, ClientConfig, Direction, Event, Negotiated, OpId, Outgoing, SendFailure,
};
use mcpg_core::jsonrpc::{Body, Message, RequestId};
use mcpg_core::{Generation, Timestamp};
use mcpg_host::provider::{ModelTurn, ToolCall};
use mcpg_host::schema;
use mcpg_host::script::Script;
use mcpg_host::tool_loop::{Action, PageRecord};
use mcpg_host::{MockModel, ToolLoop};

use super::clock::{now, now_ms};
use super::http::{HttpLink, PostError};
use super::memory::MemoryLink;
use super::replay::ReplayLink;
use super::ws::{WsLink, side_row};
use crate::model_state::ModelChoice;
use crate::state::{AppState, CallView, Conn, LogRow, Notice, ServerInfo, Source, Tab, pretty};

/// Pause between steps in run mode, so each step can be seen arriving.
const RUN_PACE: Duration = Duration::from_millis(300);

/// How frames travel.
pub enum Link {
    /// The embedded demo server.
    Memory(Box<MemoryLink>),
    /// A bridge stdio server over WebSocket.
    Ws(WsLink),
    /// Streamable HTTP (direct or through the relay).
    Http(HttpLink),
    /// A recorded session standing in for the server (no network).
    Replay(Box<ReplayLink>),
}

/// A turn the learner wrote as the model, waiting for step 3 or 6.
enum Manual {
    /// A tool call, from the generated form.
    Call(ToolCall),
    /// A final answer in words.
    Answer(String),
}

/// The live connection and everything hanging off it.
pub struct Session {
    /// Distinguishes this session's callbacks from a previous one's.
    pub generation: u64,
    /// The core.
    pub client: Client,
    /// The transport.
    pub link: Link,
    st: AppState,
    source: Source,
    started_ms: f64,
    run: Option<ToolLoop>,
    /// Whether the loop's listing has been shown in the Tools panel (once: a later
    /// listing, e.g. after list_changed, must not be overwritten by it).
    run_pages_shown: bool,
    manual: Option<Manual>,
    /// Counts loops, so a real model's late reply for an abandoned loop is dropped.
    loop_id: u64,
    /// A request to a real model is in flight.
    model_pending: bool,
    /// The request line and headers of the request in flight, as shown (key masked).
    pending_head: Option<serde_json::Value>,
    timer: Option<TimeoutHandle>,
    tick_pending: bool,
    list_op: Option<OpId>,
    pages: Vec<PageRecord>,
    methods: HashMap<RequestId, String>,
    seq: u32,
    /// Guards against re-entering `pump` from a callback it triggered.
    pumping: bool,
    /// Model turns played instead of the mock (reloaded from the page's script
    /// whenever it has been played through).
    script: Script,
    /// The user's message of every loop, in order (what a shared session replays).
    prompts: Vec<String>,
    /// Model turns of the loops before the current one, as script entries.
    played: Vec<serde_json::Value>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    static GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static FIRST_LIST_RECORDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` on the live session, if there is one (and, given `generation`, if it is
/// still that session). `None` when there is none or it is busy.
pub fn with_session<R>(generation: Option<u64>, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
    SESSION.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        let s = slot.as_mut()?;
        if generation.is_some_and(|g| g != s.generation) {
            return None;
        }
        Some(f(s))
    })
}

/// Replaces the session with a new connection to `source`.
pub fn open(st: AppState, source: Source) {
    // A live connection ends any replay.
    st.replay.set(None);
    open_with(st, source, None);
}

/// Replaces the session with a new one on `source`, or, given `replay`, with the
/// recording of a session on `source` standing in for the server.
pub fn open_with(st: AppState, source: Source, replay: Option<ReplayLink>) {
    close();
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    st.source.set(source.clone());
    st.conn.set(Conn::Connecting);
    st.server.set(None);
    st.pages.set(Vec::new());
    st.log.set(Vec::new());
    st.notice.set(None);
    st.call.set(None);
    st.progress.set(None);
    clear_loop_state(st);
    let token = st
        .bridge
        .with_untracked(|b| b.token.clone())
        .unwrap_or_default();
    let link = match (replay, &source) {
        (Some(r), _) => Ok(Link::Replay(Box::new(r))),
        (None, Source::Demo) => Ok(Link::Memory(Box::default())),
        (None, Source::Bridge(name)) => WsLink::open(generation, name, &token).map(Link::Ws),
        (None, Source::Relay(name)) => Ok(Link::Http(HttpLink::new(
            generation,
            &format!(
                "/relay/{}?token={}",
                super::ws::encode(name),
                super::ws::encode(&token)
            ),
        ))),
        (None, Source::Url(url)) => Ok(Link::Http(HttpLink::new(generation, url))),
    };
    let link = match link {
        Ok(l) => l,
        Err(why) => {
            st.conn.set(Conn::Closed(why));
            return;
        }
    };
    let cfg = ClientConfig {
        // A list_changed stream is cheap in memory and over the bridge; over plain
        // HTTP it would hold a request open, which some servers refuse.
        // (Decided by the source, so a replay sends what the recorded session sent.)
        listen_for_list_changes: !matches!(source, Source::Relay(_) | Source::Url(_)),
        ..ClientConfig::default()
    };
    let session = Session {
        generation,
        client: Client::new(cfg),
        link,
        st,
        source,
        started_ms: now_ms(),
        run: None,
        run_pages_shown: false,
        manual: None,
        loop_id: 0,
        model_pending: false,
        pending_head: None,
        timer: None,
        tick_pending: false,
        list_op: None,
        pages: Vec::new(),
        methods: HashMap::new(),
        seq: 0,
        pumping: false,
        script: Script::default(),
        prompts: Vec::new(),
        played: Vec::new(),
    };
    SESSION.with(|cell| {
        if let Ok(mut slot) = cell.try_borrow_mut() {
            *slot = Some(session);
        }
    });
    with_session(Some(generation), |s| {
        s.client.connect(now());
        s.pump();
    });
}

/// Ends the live session, if any.
pub fn close() {
    let old = SESSION.with(|cell| cell.try_borrow_mut().ok().and_then(|mut s| s.take()));
    if let Some(mut s) = old {
        if let Some(t) = s.timer.take() {
            t.clear();
        }
        if let Link::Http(h) = &s.link {
            h.close();
        }
        // Dropping the link closes sockets and detaches callbacks.
    }
}

fn clear_loop_state(st: AppState) {
    st.steps.set(Vec::new());
    st.turns.set(Vec::new());
    st.rounds.set(0);
    st.model_busy.set(false);
    st.next_step.set(Some(1));
    st.loop_active.set(false);
    st.answer.set(None);
    st.running.set(false);
}

fn summary(msg: &Message, methods: &HashMap<RequestId, String>) -> String {
    match msg.body() {
        Body::Request { method, .. } | Body::Notification { method, .. } => method.clone(),
        Body::Response { id, .. } => match methods.get(id) {
            Some(m) => format!("result of {m}"),
            None => "result".to_owned(),
        },
        Body::Error { id, error } => match id.as_ref().and_then(|i| methods.get(i)) {
            Some(m) => format!("error {} on {m}", error.code),
            None => format!("error {}", error.code),
        },
    }
}

impl Session {
    fn next_seq(&mut self) -> u32 {
        self.seq += 1;
        self.seq
    }

    fn log(&mut self, row: LogRow) {
        self.st.log.update(|l| l.push(row));
    }

    fn note(&mut self, text: impl Into<String>) {
        let seq = self.next_seq();
        self.log(LogRow::Note {
            seq,
            text: text.into(),
        });
    }

    /// One frame of text from the server.
    pub fn receive(&mut self, text: &str) {
        self.client.handle_text(now(), text);
        self.pump();
    }

    /// The transport closed.
    pub fn closed(&mut self, why: &str) {
        self.client.handle_closed(now(), why);
        self.pump();
    }

    /// A side-channel event from the bridge.
    pub fn side_event(&mut self, text: &str) {
        let seq = self.next_seq();
        self.log(side_row(seq, text));
    }

    /// An HTTP POST failed.
    pub fn send_failed(&mut self, id: Option<&RequestId>, e: PostError) {
        let failure = match e {
            PostError::Network {
                detail,
                cross_origin,
            } => {
                if cross_origin {
                    self.cors_notice();
                }
                let why = if cross_origin {
                    format!(
                        "the browser refused the request ({detail}); the server probably sends no CORS headers, or is not running"
                    )
                } else {
                    format!("the request failed ({detail})")
                };
                SendFailure::Network(why)
            }
            PostError::Status(f) => f,
        };
        match id {
            Some(id) => self.client.handle_send_failed(now(), id, failure),
            None => self.note(format!("a notification was not delivered: {failure:?}")),
        }
        self.pump();
    }

    /// The page sent something the recording does not have: say so (the request
    /// stays unanswered, as no server is there to answer it).
    fn replay_diverged(&mut self) {
        let text = "This request is not in the recorded session, so the replay cannot answer it (a replay only repeats what was recorded, in order). Use \"Run it live\" to run the session against a real server.";
        self.note(text);
        self.st.notice.set(Some(Notice {
            text: text.to_owned(),
            relay: None,
            blocked_url: None,
        }));
    }

    /// What a shared session needs from the live connection: the user's message of
    /// every loop, and every model turn as a script that replays it.
    pub fn recording(&self) -> (Vec<String>, Vec<serde_json::Value>) {
        let mut script = self.played.clone();
        if let Some(run) = &self.run {
            script.extend(run.played().iter().map(|t| t.to_value()));
        }
        (self.prompts.clone(), script)
    }

    fn cors_notice(&mut self) {
        let Source::Url(url) = &self.source else {
            return;
        };
        // The advice depends on the bridge's remotes, which may still be loading: the
        // notice keeps the URL and works the advice out when it is shown.
        self.st.notice.set(Some(Notice {
            text: format!(
                "The browser blocked the request to {url}. This is most likely CORS: the server does not send Access-Control-Allow-Origin, so a web page may not call it directly (or the server is not reachable)."
            ),
            relay: None,
            blocked_url: Some(url.clone()),
        }));
    }

    /// Moves frames and events until nothing moves, then updates the panels and
    /// arms the timer.
    pub fn pump(&mut self) {
        if self.pumping {
            return;
        }
        self.pumping = true;
        // Bounded, in case a misbehaving peer keeps the queues busy forever.
        for _ in 0..100_000 {
            let mut moved = false;
            while let Some(out) = self.client.poll_transmit() {
                self.transmit(out);
                moved = true;
            }
            let incoming = match &mut self.link {
                Link::Memory(m) => m.take_incoming(),
                Link::Replay(r) => r.take_incoming(),
                _ => Vec::new(),
            };
            for text in incoming {
                self.client.handle_text(now(), &text);
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
        self.pumping = false;
        self.sync_loop();
        self.schedule_timer();
        if self.st.running.get_untracked() && self.actionable() {
            self.schedule_tick(RUN_PACE);
        }
    }

    fn transmit(&mut self, out: Outgoing) {
        if let (Some(id), Some(m)) = (out.message.id(), out.message.method()) {
            self.methods.insert(id.clone(), m.to_owned());
        }
        match &mut self.link {
            Link::Memory(m) => m.send(now(), out.message.raw()),
            Link::Ws(w) => w.send(out.message.raw()),
            Link::Http(h) => h.send(out),
            Link::Replay(r) => {
                if !r.send(out.message.raw()) {
                    self.replay_diverged();
                }
            }
        }
    }

    fn on_event(&mut self, ev: Event) {
        if let Some(run) = &mut self.run {
            run.on_event(&ev);
        }
        match ev {
            Event::Wire(w) => {
                let seq = self.next_seq();
                let summary = Message::decode(&w.raw)
                    .map(|m| summary(&m, &self.methods))
                    .unwrap_or_else(|_| "not JSON-RPC".to_owned());
                let row = LogRow::Wire {
                    seq,
                    sent: w.direction == Direction::Sent,
                    at_ms: w.at.as_millis() as f64 - self.started_ms.floor(),
                    size: w.raw.len(),
                    summary,
                    raw: w.raw,
                };
                self.log(row);
            }
            Event::Connected(n) => {
                self.st.server.set(Some(server_info(&n)));
                self.st.conn.set(Conn::Ready);
                self.list_tools();
            }
            Event::ConnectFailed(why) => {
                self.note(format!("connection failed: {why}"));
                self.st.conn.set(Conn::Closed(why));
            }
            Event::ToolsPage {
                op,
                page,
                tools,
                next_cursor,
                ..
            } if Some(op) == self.list_op => {
                self.pages.push(PageRecord {
                    page,
                    tools,
                    next_cursor,
                });
                self.st.pages.set(self.pages.clone());
            }
            Event::ToolsListed { op, .. } if Some(op) == self.list_op => {
                self.list_op = None;
                self.first_list_done();
            }
            Event::ToolsListFailed { op, error, .. } if Some(op) == self.list_op => {
                self.list_op = None;
                self.note(format!("tools/list failed: {error}"));
            }
            Event::ToolsListChanged => {
                self.note("the server says its tool list changed (notifications/tools/list_changed): listing again");
                self.list_tools();
            }
            Event::Diagnostic(d) => {
                let seq = self.next_seq();
                self.log(LogRow::Diag {
                    seq,
                    severity: format!("{:?}", d.severity).to_ascii_lowercase(),
                    rule: d.rule.id().to_owned(),
                    message: d.message,
                });
            }
            Event::ServerRequest {
                method, answered, ..
            } => {
                let how = if answered {
                    "the core answered it"
                } else {
                    "this page does not handle it; the core answers with an error at the deadline"
                };
                self.note(format!("the server sent a {method} request: {how}"));
            }
            Event::Closed(why) => {
                self.note(format!("connection closed: {why}"));
                self.st.conn.set(Conn::Closed(why));
                self.st.running.set(false);
            }
            _ => {}
        }
    }

    /// The first complete listing on the embedded server marks the page as usable:
    /// recorded on `<body data-first-tool-list-ms>` for the e2e run to print.
    fn first_list_done(&self) {
        if self.source != Source::Demo || FIRST_LIST_RECORDED.with(std::cell::Cell::get) {
            return;
        }
        FIRST_LIST_RECORDED.with(|c| c.set(true));
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            let _ = body.set_attribute(
                "data-first-tool-list-ms",
                &mcpg_text::num::fmt_rounded(now_ms(), 1),
            );
        }
    }

    /// Lists every tool for the Tools panel.
    pub fn list_tools(&mut self) {
        self.pages.clear();
        self.list_op = Some(self.client.list_tools(now()));
        self.pump();
    }

    fn schedule_timer(&mut self) {
        if let Some(t) = self.timer.take() {
            t.clear();
        }
        let link_due = match &self.link {
            Link::Memory(m) => m.poll_timeout(),
            _ => None,
        };
        let due = match (self.client.poll_timeout(), link_due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let Some(due) = due else { return };
        let wait = due.as_millis().saturating_sub(now().as_millis());
        let generation = self.generation;
        self.timer = set_timeout_with_handle(
            move || {
                with_session(Some(generation), |s| {
                    s.timer = None;
                    let t = now();
                    s.handle_timeout(t);
                });
            },
            Duration::from_millis(wait),
        )
        .ok();
    }

    fn handle_timeout(&mut self, t: Timestamp) {
        if let Link::Memory(m) = &mut self.link {
            m.handle_timeout(t);
        }
        self.client.handle_timeout(t);
        self.pump();
    }

    // ---- the tool loop ----

    /// Whether the loop has something to do now (not waiting, not done).
    fn actionable(&self) -> bool {
        self.run
            .as_ref()
            .is_some_and(|r| !matches!(r.next(), Action::Wait | Action::Done))
    }

    fn schedule_tick(&mut self, after: Duration) {
        if self.tick_pending {
            return;
        }
        self.tick_pending = true;
        let generation = self.generation;
        set_timeout(
            move || {
                with_session(Some(generation), |s| {
                    s.tick_pending = false;
                    if s.st.running.get_untracked() {
                        s.perform();
                    }
                });
            },
            after,
        );
    }

    /// Starts a new loop for the current prompt.
    fn new_loop(&mut self) {
        // A replay asks what the recorded session asked, loop by loop.
        let recorded = self.st.replay.with_untracked(|r| {
            r.as_ref()
                .and_then(|r| r.messages.get(self.prompts.len()).cloned())
        });
        if let Some(p) = recorded {
            self.st.prompt.set(p);
        }
        let prompt = self.st.prompt.get_untracked();
        if let Some(run) = &self.run {
            self.played
                .extend(run.played().iter().map(|t| t.to_value()));
        }
        self.prompts.push(prompt.clone());
        if self.script.is_empty() {
            // The page's script was validated when it was set; a bad one is no script.
            self.script = Script::from_values(&self.st.script.get_untracked()).unwrap_or_default();
        }
        let opts = mcpg_host::provider::RequestOptions {
            model: "mock-model".into(),
            system: self
                .client
                .negotiated()
                .and_then(|n| n.instructions.clone()),
            ..Default::default()
        };
        self.run_pages_shown = false;
        self.loop_id += 1;
        self.model_pending = false;
        self.st.model_busy.set(false);
        self.run = Some(ToolLoop::new(
            &prompt,
            self.st.provider.get_untracked(),
            opts,
        ));
        self.st.call.set(None);
        self.st.progress.set(None);
        self.st.answer.set(None);
    }

    fn ensure_loop(&mut self) {
        if self.run.as_ref().is_none_or(ToolLoop::is_done) {
            self.new_loop();
        }
    }

    /// Step mode: one click, one step.
    pub fn step(&mut self) {
        self.st.running.set(false);
        self.ensure_loop();
        self.perform();
    }

    /// Run mode: the whole loop, paced.
    pub fn run_all(&mut self) {
        self.ensure_loop();
        self.st.running.set(true);
        self.perform();
    }

    /// Takes the page's model script afresh at the next loop (it was just changed).
    pub fn reload_script(&mut self) {
        self.script = Script::default();
    }

    /// Forgets the loop.
    pub fn reset(&mut self) {
        self.run = None;
        self.manual = None;
        self.loop_id += 1;
        self.model_pending = false;
        clear_loop_state(self.st);
        self.st.call.set(None);
        self.st.progress.set(None);
    }

    /// The learner plays the model: this call is step 3.
    pub fn play_model(&mut self, name: String, arguments: mcpg_core::model::JsonObject) {
        let round = self.run.as_ref().map_or(0, ToolLoop::rounds);
        self.play(Manual::Call(ToolCall {
            id: format!("call_{}", round + 1),
            name,
            arguments,
        }));
    }

    /// The learner plays the model: this text is its answer (step 3 or 6).
    pub fn play_answer(&mut self, text: String) {
        self.play(Manual::Answer(text));
    }

    /// Runs the loop up to the model's next turn and gives it `turn`. A loop waiting
    /// for the model (step 3, or step 6 after results) takes it there; otherwise a new
    /// loop starts and the turn becomes its step 3.
    fn play(&mut self, turn: Manual) {
        let keeps = self
            .run
            .as_ref()
            .and_then(ToolLoop::next_step_number)
            .is_some_and(|n| n <= 3 || n == 6);
        if !keeps {
            self.new_loop();
        }
        self.manual = Some(turn);
        self.st.running.set(true);
        self.perform();
    }

    /// A real model's reply (or why there was none) for loop `loop_id`.
    pub fn model_answered(&mut self, loop_id: u64, reply: super::llm::Reply) {
        if loop_id != self.loop_id || !self.model_pending {
            return;
        }
        self.model_pending = false;
        self.st.model_busy.set(false);
        let Some(run) = &mut self.run else { return };
        let before = run.steps().len();
        let head = self.pending_head.take().unwrap_or_default();
        match reply {
            super::llm::Reply::Http(status, body) => run.model_http_reply(status, &body, &head),
            super::llm::Reply::Unreachable(detail) => {
                run.model_unreachable(&detail, &head, &super::llm::origin());
            }
        }
        let failed = run.steps().len() > before
            && run
                .steps()
                .last()
                .is_some_and(|s| s.status == mcpg_host::StepStatus::Failed);
        if failed {
            // Run mode stops on a failed model turn; the learner decides what next.
            self.st.running.set(false);
        }
        self.pump();
    }

    /// Asks the real model for the loop's next turn.
    fn ask_llm(&mut self) {
        let st = self.st;
        let Some(run) = &mut self.run else { return };
        let provider = run.provider();
        let settings = st
            .llm
            .with_untracked(|l| l.get(crate::model_state::slot(provider)).cloned())
            .unwrap_or_else(|| crate::model_state::LlmSettings::default_for(provider));
        run.set_model_name(&settings.model);
        let ep = mcpg_host::provider::endpoint(provider, &settings.base, &settings.model);
        let key = st.api_keys.with_untracked(|k| {
            k.get(crate::model_state::slot(provider))
                .cloned()
                .unwrap_or_default()
        });
        self.pending_head = Some(mcpg_host::provider::shown_request(provider, &ep, &key));
        let out = super::llm::Outgoing {
            provider,
            url: ep.url,
            headers: ep.headers,
            body: run.model_request().to_string(),
        };
        self.model_pending = true;
        st.model_busy.set(true);
        super::llm::send(st, self.generation, self.loop_id, out);
    }

    /// Cancels the call in flight.
    pub fn cancel(&mut self) {
        if let Some(op) = self.run.as_ref().and_then(ToolLoop::call_in_flight) {
            self.client.cancel(now(), op, "cancelled by the learner");
            self.pump();
        }
    }

    /// Performs the loop's next action, if it has one.
    fn perform(&mut self) {
        let Some(run) = &mut self.run else { return };
        match run.next() {
            Action::ListTools => {
                let op = self.client.list_tools(now());
                run.listing_started(op);
            }
            Action::Reshape => run.reshape(),
            Action::AskModel if self.model_pending => return,
            Action::AskModel => match self.manual.take() {
                Some(Manual::Call(call)) => {
                    let why = format!(
                        "You played the model: you chose {} and filled its form.",
                        call.name
                    );
                    let turn = ModelTurn::ToolCalls {
                        text: None,
                        calls: vec![call],
                    };
                    run.model_replied(turn, None, &why);
                }
                Some(Manual::Answer(text)) => {
                    let why = "You played the model: you answered in words, with no tool call.";
                    run.model_replied(ModelTurn::Answer { text }, None, why);
                }
                // A replay never asks a live model: the recorded turns answer, then the mock.
                None if !self.script.is_empty()
                    || self.st.replay.with_untracked(Option::is_some) =>
                {
                    let scripted = run.ask_script(&mut self.script, &MockModel);
                    if !scripted && self.st.script.with_untracked(|s| !s.is_empty()) {
                        self.note("the model script has no turn left for this loop: the mock model answered");
                    }
                }
                None => match self.st.model.get_untracked() {
                    ModelChoice::Mock => run.ask_mock(&MockModel),
                    ModelChoice::Play => {
                        // The learner's turn: the play box and the Tools panel's form wait.
                        self.st.running.set(false);
                        return;
                    }
                    ModelChoice::Real => {
                        self.ask_llm();
                        return;
                    }
                },
            },
            Action::CallTool(call) => {
                let opts = CallOptions {
                    progress: true,
                    ..Default::default()
                };
                let op =
                    self.client
                        .call_tool(now(), &call.name, Some(call.arguments.clone()), opts);
                run.call_started(op);
                self.st.tab.set(Tab::Result);
            }
            Action::Wait => return,
            Action::Done => {
                self.st.running.set(false);
                return;
            }
        }
        self.pump();
    }

    /// Copies the loop's state into the panels' signals (only what changed).
    fn sync_loop(&mut self) {
        let st = self.st;
        let Some(run) = &self.run else { return };
        if st.steps.with_untracked(|s| s.as_slice() != run.steps()) {
            st.steps.set(run.steps().to_vec());
        }
        let next = run.next_step_number();
        if st.next_step.get_untracked() != next {
            st.next_step.set(next);
        }
        let active = !run.is_done();
        if st.loop_active.get_untracked() != active {
            st.loop_active.set(active);
        }
        if !active && st.running.get_untracked() {
            st.running.set(false);
        }
        if st.turns.with_untracked(|t| t.as_slice() != run.turns()) {
            st.turns.set(run.turns().to_vec());
        }
        if st.rounds.get_untracked() != run.rounds() {
            st.rounds.set(run.rounds());
        }
        let answer = run.answer().map(str::to_owned);
        if st.answer.with_untracked(|a| a != &answer) {
            st.answer.set(answer);
        }
        let progress = run.progress().cloned();
        if st.progress.with_untracked(|p| p != &progress) {
            st.progress.set(progress);
        }
        // When the loop's listing completes it is the latest one: the Tools panel shows it.
        if !self.run_pages_shown
            && !run.pages().is_empty()
            && run.next_step_number().is_none_or(|n| n > 1)
        {
            self.run_pages_shown = true;
            let pages = run.pages();
            if st.pages.with_untracked(|p| p.as_slice() != pages) {
                st.pages.set(pages.to_vec());
            }
        }
        let view = run.call().map(|c| CallView {
            tool: c.name.clone(),
            arguments: c.arguments.clone(),
            outcome: run.outcome().cloned(),
            check: match (run.called_tool(), run.outcome()) {
                (
                    Some(t),
                    Some(
                        mcpg_core::client::CallOutcome::Success(r)
                        | mcpg_core::client::CallOutcome::ToolError(r),
                    ),
                ) => schema::check_structured(t, r),
                _ => None,
            },
        });
        if view.is_some() && st.call.with_untracked(|c| c != &view) {
            st.call.set(view);
        }
    }
}

fn server_info(n: &Negotiated) -> ServerInfo {
    let info = n.server_info.clone().unwrap_or_default();
    ServerInfo {
        name: info.name,
        version: info.version,
        title: info.title,
        protocol: n.version.as_str().to_owned(),
        generation: match n.version.generation() {
            Generation::Initialize => "initialize handshake".to_owned(),
            Generation::Stateless => "stateless (server/discover, no handshake)".to_owned(),
        },
        capabilities: pretty(&serde_json::Value::Object(n.capabilities.clone())),
        instructions: n.instructions.clone(),
    }
}

/// What to do about a URL the browser blocked: advice in words, and the name of a
/// bridge relay that reaches the same URL, if one is configured.
pub fn cors_advice(url: &str, b: &crate::state::BridgeInfo) -> (String, Option<String>) {
    let relay = b
        .remotes
        .iter()
        .find(|(_, u)| u.trim_end_matches('/') == url.trim_end_matches('/'))
        .map(|(n, _)| n.clone());
    let advice = match (&relay, b.token.is_some()) {
        (Some(n), _) => format!("The bridge can relay it: it is configured as the remote {n:?}."),
        (None, true) => "The bridge can relay it: add it to the bridge's config as a [[remote]] (name and url), restart `mcpg serve`, then pick it in the server list.".to_owned(),
        (None, false) => "Start the playground with `cargo xtask play` and add the server to the bridge's config as a [[remote]]: the bridge relays it without CORS.".to_owned(),
    };
    (advice, relay)
}
