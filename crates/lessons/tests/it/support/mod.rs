//! Plays a lesson's loop the way the page does: the page's own driver, the
//! embedded demo server and the host's mock model (or scripted play for "play the
//! model"), under a virtual clock, and keeps the steps the page would show.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod http;

use mcpg_core::Timestamp;
use mcpg_host::Step;
use mcpg_host::asks::{
    Ask, ElicitAction, ElicitMode, ElicitPolicy, Policy, Reply, Root, SamplePolicy,
};
use mcpg_lessons::{Model, Setup};
use mcpg_loop_data::Pitfalls;
use mcpg_page::{
    AskCommand, AskState, AskView, Command, Input, ModelChoice, Output, PageDriver, Pin, Source,
    ViewChange,
};
use serde_json::{Map, Value, json};

/// What one loop showed.
pub struct Played {
    /// Every step card, in order.
    pub steps: Vec<Step>,
    /// The wire log's JSON-RPC texts.
    pub wire: Vec<String>,
    /// The tools the Tools panel lists at the end.
    pub tools: usize,
    /// Every question the server asked, as the page last showed it.
    pub asks: Vec<AskView>,
    /// URLs the page opened (only ever on the learner's click).
    pub opened: Vec<String>,
    /// The Server panel's Transport row at the end.
    pub transport: String,
    /// Sessions of the in-page demo over HTTP+SSE still open at the end.
    pub sse_sessions: usize,
}

struct Page {
    d: PageDriver,
    now: Timestamp,
    steps: Vec<Step>,
    next: Option<u8>,
    tools: usize,
    asks: Vec<AskView>,
    opened: Vec<String>,
    /// The in-page demo over HTTP, answering the page's requests.
    net: http::Net,
    /// The Server panel's Transport row.
    transport: String,
}

impl Page {
    fn cmd(&mut self, c: Command) {
        self.d.handle(self.now, Input::Command(c));
        self.drain();
    }

    /// Takes the driver's outputs; HTTP requests are answered by the in-page demo
    /// (as the page's executor answers them), and what that says is fed back, until
    /// nothing moves.
    fn drain(&mut self) {
        loop {
            let mut inputs = Vec::new();
            while let Some(o) = self.d.poll_output() {
                match o {
                    Output::View(ViewChange::Steps(s)) => self.steps = s,
                    Output::View(ViewChange::NextStep(n)) => self.next = n,
                    Output::View(ViewChange::Pages(p)) => {
                        self.tools = p.iter().map(|p| p.tools.len()).sum();
                    }
                    Output::View(ViewChange::Asks(a)) => self.asks = a,
                    Output::View(ViewChange::Server(s)) => {
                        self.transport = s.map(|s| s.transport).unwrap_or_default();
                    }
                    Output::OpenUrl { url, .. } => self.opened.push(url),
                    o @ (Output::Http { .. }
                    | Output::AbortHttp { .. }
                    | Output::CloseLink { .. }) => {
                        inputs.extend(self.net.run(self.now, o));
                    }
                    _ => {}
                }
            }
            inputs.extend(self.net.pushes());
            if inputs.is_empty() {
                return;
            }
            for i in inputs {
                self.d.handle(self.now, i);
            }
        }
    }

    /// Answers the first waiting question as a learner who says yes would: the
    /// form's defaults, the mock's sample, one root, and a URL opened (by click)
    /// and accepted. Returns false when nothing waits.
    fn answer_ask(&mut self) -> bool {
        let Some(a) = self.asks.iter().find(|a| a.state == AskState::Waiting) else {
            return false;
        };
        let id = a.id;
        let ask = mcpg_host::asks::parse(&a.method, Some(&a.params)).expect("a readable ask");
        let reply = match &ask {
            Ask::Elicit(e) if matches!(e.mode, ElicitMode::Url { .. }) => {
                self.cmd(Command::Ask(AskCommand::OpenUrl { id }));
                Reply::Elicited(ElicitAction::Accept(Map::new()))
            }
            _ => Policy {
                elicit: ElicitPolicy::Answers(Map::new()),
                sample: SamplePolicy::Mock,
                roots: vec![Root {
                    uri: "file:///home/learner/project".into(),
                    name: Some("project".into()),
                }],
            }
            .answer(&ask),
        };
        self.cmd(Command::Ask(AskCommand::Answer { id, reply }));
        true
    }

    /// Fires deadlines (the slow tool's ticks) until nothing is due.
    fn settle(&mut self) {
        while let Some(due) = self.d.poll_timeout() {
            self.now = due.max(self.now);
            self.d.handle(self.now, Input::Timer);
            self.drain();
        }
    }
}

/// A page set up as a lesson sets it up: connected, with the message in the box
/// and no loop yet.
fn start(setup: &Setup, prompt: &str) -> Page {
    let mut p = Page {
        d: PageDriver::default().with_later(mcpg_page_later::later_kit()),
        now: Timestamp::from_millis(1_000),
        steps: Vec::new(),
        next: Some(1),
        tools: 0,
        asks: Vec::new(),
        opened: Vec::new(),
        net: http::Net::default(),
        transport: String::new(),
    };
    // Pinned before connecting, as the page's lessons panel does.
    p.cmd(Command::Pin(
        setup.revision.map_or(Pin::Auto, Pin::Revision),
    ));
    // The demo behind OAuth is this same demo server once signed in (the page
    // reaches it over HTTP with a token; `mcpg-demo-auth`'s tests and the e2e
    // learner test play that part): its loop's cards are the embedded demo's.
    // The demo over HTTP+SSE is played here as the page plays it, over HTTP.
    let source = match setup.server {
        mcpg_lessons::Server::Demo | mcpg_lessons::Server::OAuthDemo => Source::Demo,
        mcpg_lessons::Server::SseDemo => Source::Url(mcpg_demo_sse::SSE_URL.to_owned()),
    };
    p.cmd(Command::Connect(source));
    p.cmd(Command::SetProvider(setup.provider));
    p.cmd(Command::SetModel(match setup.model {
        Model::Mock => ModelChoice::Mock,
        Model::Play => ModelChoice::Play,
    }));
    p.cmd(Command::SetPrompt(prompt.to_owned()));
    p.cmd(Command::Reset);
    p.settle();
    p
}

/// The wire log's JSON-RPC texts.
fn wire(p: &Page) -> Vec<String> {
    p.d.log()
        .iter()
        .filter_map(|r| match r {
            mcpg_page::LogRow::Wire { raw, .. } => Some(raw.to_string()),
            _ => None,
        })
        .collect()
}

/// What a page set up for a lesson shows before the learner does anything.
pub fn opened(setup: &Setup) -> Played {
    let p = start(setup, setup.prompt);
    Played {
        wire: wire(&p),
        steps: p.steps,
        tools: p.tools,
        asks: p.asks,
        opened: p.opened,
        sse_sessions: p.net.open_sessions(),
        transport: p.transport,
    }
}

/// Plays `prompt` with `setup`'s server, model and format, to the loop's end.
pub fn play(setup: &Setup, prompt: &str) -> Played {
    play_with(setup, prompt, Pitfalls::NONE)
}

/// [`play`] with a host that makes the mistakes `pitfalls` (a lesson's switch).
pub fn play_with(setup: &Setup, prompt: &str, pitfalls: Pitfalls) -> Played {
    let mut p = start(setup, prompt);
    p.cmd(Command::SetPitfalls(pitfalls));
    p.run_loop(setup.model, prompt);
    p.played()
}

/// Plays `setup`'s loop for its message, then connects to `then` (a learner's
/// switch, as the lesson's button does) and plays it again: what the page showed
/// after each run.
pub fn play_then_switch(setup: &Setup, then: Source) -> (Played, Played) {
    let mut p = start(setup, setup.prompt);
    p.run_loop(setup.model, setup.prompt);
    let first = p.played();
    p.cmd(Command::Connect(then));
    p.settle();
    p.cmd(Command::Reset);
    p.run_loop(setup.model, setup.prompt);
    (first, p.played())
}

impl Page {
    /// Steps the loop to its end as the learner would (playing the model when the
    /// lesson says so, answering the server's questions).
    fn run_loop(&mut self, model: Model, prompt: &str) {
        for _ in 0..40 {
            match (model, self.next) {
                (_, None) if !self.steps.is_empty() => break,
                (Model::Play, Some(3)) if self.steps.len() >= 2 => {
                    let mut args = Map::new();
                    args.insert("city".into(), json!("Austin"));
                    self.cmd(Command::PlayCall {
                        name: "get_weather".into(),
                        arguments: args,
                    });
                }
                (Model::Play, Some(6)) if self.steps.iter().any(|s| s.number == 5) => {
                    self.cmd(Command::PlayAnswer("It is 91F and sunny in Austin.".into()));
                }
                _ => self.cmd(Command::Step),
            }
            // A learner answers before the core's deadline, which settling would pass.
            while self.answer_ask() {}
            self.settle();
        }
        assert_eq!(self.next, None, "the loop for {prompt:?} did not end");
        self.settle();
    }

    /// What the page shows now.
    fn played(&self) -> Played {
        Played {
            wire: wire(self),
            steps: self.steps.clone(),
            tools: self.tools,
            asks: self.asks.clone(),
            opened: self.opened.clone(),
            transport: self.transport.clone(),
            sse_sessions: self.net.open_sessions(),
        }
    }
}

pub use mcpg_lessons::at;

/// The first value at `path` in any block of any card of step `n`.
pub fn field(played: &Played, n: u8, path: &str) -> Option<Value> {
    played
        .steps
        .iter()
        .filter(|s| s.number == n)
        .flat_map(|s| &s.blocks)
        .filter_map(|b| serde_json::from_str::<Value>(&b.json).ok())
        .find_map(|v| at(&v, path).cloned())
}

/// One row of the wire log, either lane: `(app, raw)`, `app` for a message
/// between a view and the host.
pub type Row = (bool, String);

/// Runs `setup`'s loop for its prompt to the end, then plays a view of the
/// called tool: its handshake, then `from_view` (raw JSON-RPC messages), each
/// answered before the next. Returns the whole log, both lanes, in order.
pub fn play_view(setup: &Setup, from_view: &[&str]) -> Vec<Row> {
    let mut p = start(setup, setup.prompt);
    for _ in 0..10 {
        if p.next.is_none() && !p.steps.is_empty() {
            break;
        }
        p.cmd(Command::Step);
    }
    assert_eq!(p.next, None, "the loop did not end");
    let handshake = [
        r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"t","version":"1"},"appCapabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized"}"#,
    ];
    for raw in handshake.iter().chain(from_view) {
        p.cmd(Command::App(mcpg_page::AppCommand::FromView {
            view: 1,
            raw: (*raw).to_owned(),
        }));
    }
    p.d.log()
        .iter()
        .filter_map(|r| match r {
            mcpg_page::LogRow::Wire { raw, .. } => Some((false, raw.to_string())),
            mcpg_page::LogRow::App { raw, .. } => Some((true, raw.to_string())),
            _ => None,
        })
        .collect()
}

/// Runs the skills lesson as its task says: the Skills panel lists, reads and
/// verifies `skill`, uses it in the loop, then the loop runs to its end. Returns
/// the cards and the whole log.
pub fn play_skill(setup: &Setup, skill: &str, use_it: bool) -> (Vec<Step>, Vec<Row>) {
    use mcpg_page::FeatureCommand;
    let mut p = start(setup, setup.prompt);
    p.cmd(Command::Feature(FeatureCommand::ListSkills));
    p.cmd(Command::Feature(FeatureCommand::ReadSkill(
        skill.to_owned(),
    )));
    p.settle();
    if use_it {
        p.cmd(Command::Feature(FeatureCommand::UseSkill {
            name: skill.to_owned(),
            on: true,
        }));
    }
    for _ in 0..10 {
        if p.next.is_none() && !p.steps.is_empty() {
            break;
        }
        p.cmd(Command::Step);
    }
    assert_eq!(p.next, None, "the loop did not end");
    let rows =
        p.d.log()
            .iter()
            .filter_map(|r| match r {
                mcpg_page::LogRow::Wire { raw, .. } => Some((false, raw.to_string())),
                _ => None,
            })
            .collect();
    (p.steps, rows)
}
