//! Commands about the connection and the page's settings: connecting (and pinning a
//! revision), the links' own inputs, opening a shared session, and recording one.

use mcpg_core::client::{Client, ClientConfig, Outgoing};

use crate::http_port::HttpRoute;
use crate::input::Command;
use crate::later::Later;
use crate::links::{HttpLink, HttpTarget, Link, LinkSpec, Memory};
use crate::output::Output;
use crate::page::Page;
use crate::record::Recorder;
use crate::replay::ReplayLink;
use crate::settings::Pin;
use crate::settings::slot;
use crate::view::{Conn, Source, ViewChange};

impl Page {
    pub(crate) fn command(&mut self, c: Command) {
        match c {
            Command::Connect(source) => self.connect(source),
            // What needs the later parts is theirs (see `later.rs`).
            c @ (Command::Step
            | Command::Run
            | Command::PlayCall { .. }
            | Command::PlayAnswer(_)
            | Command::Pin(_)
            | Command::OpenShared { .. }
            | Command::RunLive
            | Command::Feature(_)
            | Command::Ask(_)
            | Command::App(_)) => self.queue_later(Later::Command(c)),
            // About the loop: nothing to do without it.
            c @ (Command::Pause | Command::Reset | Command::Cancel) => {
                self.tell_later(Later::Command(c));
            }
            Command::ListTools => self.list_tools(),
            // Settings are echoed as view changes: the driver is the one source of
            // truth, and the shell writes its signals only from view changes.
            Command::SetPrompt(p) => {
                self.prompt.clone_from(&p);
                self.emit(ViewChange::Prompt(p));
            }
            Command::SetScript(turns) => {
                self.script_values.clone_from(&turns);
                // Taken afresh at the next loop.
                self.tell_later(Later::ScriptChanged);
                self.emit(ViewChange::Script(turns));
            }
            Command::SetProvider(p) => {
                self.provider = p;
                self.emit(ViewChange::Provider(p));
            }
            Command::SetPitfalls(p) => {
                self.pitfalls = p;
                self.emit(ViewChange::Pitfalls(p));
            }
            Command::SetModel(m) => {
                self.model = m;
                self.emit(ViewChange::Model(m));
            }
            Command::SetLlm { provider, settings } => {
                if let Some(s) = self.llm.get_mut(slot(provider)) {
                    s.clone_from(&settings);
                }
                self.emit(ViewChange::Llm { provider, settings });
            }
            Command::SetKeyHint { provider, masked } => {
                if let Some(h) = self.key_hints.get_mut(slot(provider)) {
                    *h = masked;
                }
            }
            Command::ShowNotice(text) => self.notice(text),
            Command::DismissNotice => self.emit(ViewChange::Notice(None)),
            Command::ClearLog => self.log.clear(),
            Command::Auth(c) => self.auth_command(c),
            Command::ListToolsTimes(n) => {
                for _ in 0..n {
                    self.list_tools();
                    self.move_frames();
                }
            }
        }
    }

    /// Replaces the connection with one to `source`, ending any replay.
    fn connect(&mut self, source: Source) {
        if self.replay.take().is_some() {
            self.emit(ViewChange::Replay(None));
        }
        self.open(source, None);
    }

    /// Replaces the connection with one to `source`, or, given `replay`, with the
    /// recording standing in for the server.
    pub fn open(&mut self, source: Source, replay: Option<ReplayLink>) {
        self.close_link();
        // The loop, the questions and the panels forget the old connection.
        self.tell_later(Later::NewConnection);
        self.conn += 1;
        let conn = self.conn;
        self.started = self.now;
        self.source = source.clone();
        self.recorder = Recorder::default();
        self.methods.clear();
        self.pages.clear();
        self.list_op = None;
        self.log.clear();
        self.emit(ViewChange::Source(source.clone()));
        self.emit(ViewChange::Conn(Conn::Connecting));
        self.emit(ViewChange::Server(None));
        self.pages_dirty = true;
        self.emit(ViewChange::Notice(None));
        self.emit(ViewChange::Auth(None));
        self.link = match (replay, &source) {
            (Some(r), _) => Link::Replay(Box::new(r)),
            (None, Source::Demo) => {
                Link::Memory(Box::new(Memory::new(self.tools.map(|t| t.demo_handlers))))
            }
            (None, Source::Bridge(name)) => {
                self.output(Output::OpenLink {
                    conn,
                    link: LinkSpec::Bridge(name.clone()),
                });
                Link::Ws {
                    open: false,
                    queue: Default::default(),
                }
            }
            (None, Source::Relay(name)) => {
                self.output(Output::OpenLink {
                    conn,
                    link: LinkSpec::Http(HttpTarget::Relay(name.clone())),
                });
                self.http_link(&format!("/relay/{}", encode_segment(name)), false)
            }
            (None, Source::Url(url)) => {
                self.output(Output::OpenLink {
                    conn,
                    link: LinkSpec::Http(HttpTarget::Url(url.clone())),
                });
                self.http_link(url, true)
            }
        };
        let mut cfg = ClientConfig {
            // A list_changed stream is cheap in memory and over the bridge; over plain
            // HTTP it would hold a request open, which some servers refuse. (Decided
            // by the source, so a replay sends what the recorded session sent.)
            listen_for_list_changes: !matches!(source, Source::Relay(_) | Source::Url(_)),
            capabilities: mcpg_loop_data::page_capabilities(),
            // The 2026-07-28 Tasks extension, declared on every request of that
            // revision from the first (the core stamps it from the configuration,
            // not from the later parts' readers), so a recorded session's frames do
            // not depend on when the later parts came.
            tasks_extension: true,
            ..ClientConfig::default()
        };
        if let Pin::Revision(v) = self.pin {
            cfg.pin_version(v);
        }
        // The readers of tool call, resource, prompt and completion answers come
        // with the later parts: only the loop and the panels' commands, which wait
        // for them, need them.
        self.client = Client::without_answer_readers(cfg);
        if let Some(tools) = self.tools {
            self.client.set_answer_readers(tools.answer_readers);
        }
        self.client.connect(self.now);
    }

    /// A Streamable HTTP link to `url`, its machine made by the later parts (commands
    /// that connect over HTTP wait for them; without them the link is none, and says
    /// so).
    fn http_link(&mut self, url: &str, direct: bool) -> Link {
        match self.tools {
            Some(tools) => {
                let route = if direct {
                    HttpRoute::Direct
                } else {
                    HttpRoute::Relay
                };
                Link::Http(Box::new(HttpLink::new(
                    (tools.http)(url, route),
                    url,
                    direct,
                )))
            }
            None => {
                self.emit(ViewChange::Conn(Conn::Closed(NO_HTTP.to_owned())));
                Link::None
            }
        }
    }

    fn close_link(&mut self) {
        match std::mem::take(&mut self.link) {
            Link::Ws { .. } => {
                let conn = self.conn;
                self.output(Output::CloseLink { conn });
            }
            Link::Http(link) => self.close_http(*link),
            _ => {}
        }
    }

    /// Pins a revision (or auto): a live connection reconnects so the wire shows it.
    pub fn set_pin(&mut self, pin: Pin) {
        if pin == self.pin {
            return;
        }
        self.pin = pin;
        self.emit(ViewChange::Pin(pin));
        if self.replay.is_none() && !matches!(self.link, Link::None) {
            let source = self.source.clone();
            self.open(source, None);
        }
    }

    pub(crate) fn transmit(&mut self, out: Outgoing) {
        if let (Some(id), Some(m)) = (out.message.id(), out.message.method()) {
            self.methods.insert(id.clone(), m.to_owned());
        }
        let conn = self.conn;
        match &mut self.link {
            Link::None => {}
            Link::Memory(m) => m.send(self.now, out.message.raw()),
            Link::Ws { open: true, .. } => self.output(Output::SendFrame {
                conn,
                text: out.message.raw().to_owned(),
            }),
            Link::Ws { queue, .. } => queue.push_back(out.message.raw().to_owned()),
            Link::Http(link) => link.machine.send(self.now, out),
            Link::Replay(r) => {
                if !r.send(out.message.raw()) {
                    self.replay_diverged();
                }
            }
        }
    }

    pub(crate) fn link_opened(&mut self) {
        let conn = self.conn;
        if let Link::Ws { open, queue } = &mut self.link {
            *open = true;
            let frames: Vec<String> = queue.drain(..).collect();
            for text in frames {
                self.output(Output::SendFrame { conn, text });
            }
        }
    }

    /// The page sent something the recording does not have: say so (the request
    /// stays unanswered, as no server is there to answer it).
    fn replay_diverged(&mut self) {
        let text = "This request is not in the recorded session, so the replay cannot answer it (a replay only repeats what was recorded, in order). Use \"Run it live\" to run the session against a real server.";
        self.note(text);
        self.notice(text);
    }
}

/// Why an HTTP link could not be made (its code is the later parts', not loaded).
const NO_HTTP: &str = "the page's Streamable HTTP code could not be loaded";

/// `name` as one URL path segment (the relay's remote names are plain, but a name
/// must not be able to leave `/relay/`).
fn encode_segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
