//! A test shell for the driver: a virtual clock, every output kept, and the views
//! folded into plain fields the way the page folds them into signals.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod features;
pub mod http;
pub mod peer;

use mcpg_core::Timestamp;
use mcpg_host::{Step, StepStatus};
use mcpg_page::{Command, Conn, Input, LogRow, Output, PageDriver, Source, ViewChange, WireLog};

/// The driver under a virtual clock, with what the view would show.
pub struct Shell {
    pub d: PageDriver,
    pub now: Timestamp,
    /// Every output other than a view change, in order.
    pub effects: Vec<Output>,
    pub steps: Vec<Step>,
    pub answer: Option<String>,
    pub running: bool,
    pub conn: Conn,
    pub notice: Option<String>,
    pub next_step: Option<u8>,
    pub view_changes: usize,
    /// The Resources, Prompts and Logs panels.
    pub panels: features::Panels,
    /// What the server asked the host.
    pub asks: Vec<mcpg_page::AskView>,
    /// The server wants authorization.
    pub auth: Option<mcpg_page::AuthNeeded>,
    /// The MCP Apps views hosted.
    pub apps: Vec<mcpg_page::AppView>,
    /// Each `ViewChange::FirstListing` told, as its `listed`.
    pub first_listings: Vec<bool>,
}

impl Shell {
    pub fn new() -> Shell {
        Shell::with_log(WireLog::default())
    }

    pub fn with_log(log: WireLog) -> Shell {
        Shell {
            d: PageDriver::with_log(log).with_later(mcpg_page_later::later_kit()),
            now: Timestamp::from_millis(1_000),
            effects: Vec::new(),
            steps: Vec::new(),
            answer: None,
            running: false,
            conn: Conn::Idle,
            notice: None,
            next_step: Some(1),
            view_changes: 0,
            panels: features::Panels::default(),
            asks: Vec::new(),
            auth: None,
            apps: Vec::new(),
            first_listings: Vec::new(),
        }
    }

    /// A shell whose driver has no later parts yet (the page's first load): it asks for them
    /// with `Output::LoadLater`, and the test hands it in.
    pub fn without_later() -> Shell {
        let mut s = Shell::new();
        s.d = PageDriver::new();
        s
    }

    /// How many times the driver asked for the later parts.
    pub fn later_asks(&self) -> usize {
        self.effects
            .iter()
            .filter(|o| matches!(o, Output::LoadLater))
            .count()
    }

    /// A shell connected to the embedded demo.
    pub fn demo() -> Shell {
        let mut s = Shell::new();
        s.cmd(Command::Connect(Source::Demo));
        assert_eq!(s.conn, Conn::Ready);
        s
    }

    pub fn input(&mut self, input: Input) {
        self.d.handle(self.now, input);
        self.collect();
    }

    pub fn cmd(&mut self, c: Command) {
        self.input(Input::Command(c));
    }

    fn collect(&mut self) {
        while let Some(out) = self.d.poll_output() {
            match out {
                Output::View(v) => self.apply(v),
                other => self.effects.push(other),
            }
        }
    }

    fn apply(&mut self, v: ViewChange) {
        self.view_changes += 1;
        match v {
            ViewChange::Steps(s) => self.steps = s,
            ViewChange::Answer(a) => self.answer = a,
            ViewChange::Running(r) => self.running = r,
            ViewChange::Conn(c) => self.conn = c,
            ViewChange::Notice(n) => self.notice = n.map(|n| n.text),
            ViewChange::NextStep(n) => self.next_step = n,
            ViewChange::Feature(f) => self.panels.apply(f),
            ViewChange::Asks(a) => self.asks = a,
            ViewChange::Auth(a) => self.auth = a,
            ViewChange::Apps(a) => self.apps = a,
            ViewChange::FirstListing { listed } => self.first_listings.push(listed),
            _ => {}
        }
    }

    /// Takes the WebSocket frames the page sent since the last call.
    pub fn take_frames(&mut self) -> Vec<String> {
        let mut frames = Vec::new();
        self.effects.retain(|o| match o {
            Output::SendFrame { text, .. } => {
                frames.push(text.clone());
                false
            }
            _ => true,
        });
        frames
    }

    /// Moves the clock to `until`, firing every deadline on the way.
    pub fn advance_to(&mut self, until: Timestamp) {
        while let Some(due) = self.d.poll_timeout() {
            if due > until {
                break;
            }
            self.now = due.max(self.now);
            self.input(Input::Timer);
        }
        self.now = until.max(self.now);
    }

    /// Moves the clock by `ms`.
    pub fn advance(&mut self, ms: u64) {
        self.advance_to(Timestamp::from_millis(self.now.as_millis() + ms));
    }

    pub fn numbers(&self) -> Vec<u8> {
        self.steps.iter().map(|s| s.number).collect()
    }

    pub fn all_done(&self) -> bool {
        self.steps.iter().all(|s| s.status == StepStatus::Done)
    }

    /// Wire texts of the log, in order, with their direction.
    pub fn wire(&self) -> Vec<(bool, String)> {
        self.d
            .log()
            .iter()
            .filter_map(|r| match r {
                LogRow::Wire { sent, raw, .. } => Some((*sent, raw.to_string())),
                _ => None,
            })
            .collect()
    }

    /// Notes of the log.
    pub fn notes(&self) -> Vec<String> {
        self.d
            .log()
            .iter()
            .filter_map(|r| match r {
                LogRow::Note { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect()
    }

    /// Outputs that would touch the network.
    pub fn network(&self) -> Vec<&Output> {
        self.effects
            .iter()
            .filter(|o| {
                matches!(
                    o,
                    Output::OpenLink { .. }
                        | Output::SendFrame { .. }
                        | Output::Http { .. }
                        | Output::ModelRequest(_)
                )
            })
            .collect()
    }

    /// A fresh shell (its prompt changed, so the replay must set it) that opened
    /// `session` from a link, with no notice.
    pub fn replaying(session: mcpg_recording::Recording) -> Shell {
        let mut replay = Shell::new();
        replay.cmd(Command::SetPrompt("something else".into()));
        replay.cmd(Command::OpenShared {
            session: Box::new(session),
            from: "link".into(),
        });
        assert_eq!(replay.notice, None);
        replay
    }

    /// A replay of `live`'s whole loop: the same six steps, JSON and answer, the
    /// same frames in order, and nothing sent to the network.
    pub fn assert_replays(&self, live: &Shell) {
        assert_eq!(self.numbers(), [1, 2, 3, 4, 5, 6]);
        assert!(self.all_done());
        assert_eq!(self.answer, live.answer);
        for (a, b) in self.steps.iter().zip(&live.steps) {
            assert_eq!(a.blocks, b.blocks, "step {} differs", a.number);
        }
        assert!(self.network().is_empty(), "{:?}", self.network());
        assert_eq!(self.wire(), live.wire(), "the same frames, in order");
    }
}

/// `session` as a page that did not send `text` would have recorded it: `text`
/// removed from every sent frame, and every received frame the embedded demo's
/// answer to those (a fresh demo, in order, as a link regenerates them). How
/// many sent frames had it.
pub fn recorded_without(session: &mut mcpg_recording::Recording, text: &str) -> usize {
    let mut demo = mcpg_page::demo_exchange(mcpg_demo::handlers());
    let (mut answers, mut had) = (std::collections::VecDeque::new(), 0);
    for w in &mut session.wire {
        let Some(t) = &mut w.text else { continue };
        if w.direction == mcpg_recording::Direction::Sent {
            had += usize::from(t.contains(text));
            *t = t.replace(text, "");
            answers.extend(demo(w.at_ms, Some(t)));
        } else {
            answers.extend(demo(w.at_ms, None));
            *t = answers.pop_front().expect("the demo answers as often");
        }
    }
    had
}
