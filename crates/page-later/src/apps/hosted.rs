//! One hosted view: its dialogue, what the page shows of it, and its events turned
//! into the page's log rows and the view's card.

use std::sync::Arc;

use mcpg_apps::{AppEvent, AppSession, Phase, ServerAsk, Ticket, UiResource};
use mcpg_page::{AppLink, AppView, Page};
use serde_json::Value;

use super::summary::Summaries;

/// The most notes a view's card keeps (the oldest go first).
const MAX_NOTES: usize = 40;
/// How much of a view's message or context a card note quotes.
const NOTE_CHARS: usize = 400;
/// How much of a view's message or context goes to the model: a view writes for
/// the user, not a flood into the conversation.
const MAX_SAID: usize = 4000;
/// The most messages a view may have waiting for the loop (more are dropped; the
/// card still notes them).
const MAX_HELD: usize = 4;

/// One view and its dialogue.
#[derive(Debug)]
pub(super) struct Hosted {
    /// The dialogue (none for a view that cannot be hosted).
    pub(super) session: Option<AppSession>,
    pub(super) view: AppView,
    /// The dialogue is over: the frame goes.
    pub(super) gone: bool,
    /// The card changed since the page was last told.
    pub(super) dirty: bool,
    /// User messages the view added (`ui/message`), oldest first, until the loop
    /// has answered and takes them.
    pub(super) said: Vec<String>,
    /// What the view last set for the model to see (`ui/update-model-context`),
    /// sent with the next user message.
    pub(super) context: Option<String>,
    /// The index in the loop's steps of its call's step 5 (for the picture).
    pub(super) step: Option<usize>,
    /// The tools it called through the host that were answered (for the picture).
    pub(super) calls: Vec<String>,
    summaries: Summaries,
}

impl Hosted {
    /// A view about to load, of `tool`'s call whose step 5 is at `step`.
    pub(super) fn new(
        id: u64,
        tool: &str,
        step: Option<usize>,
        res: UiResource,
        session: Option<AppSession>,
    ) -> Hosted {
        let mut notes = Vec::new();
        for r in &res.csp.refused {
            notes.push(format!("Left out of the view's CSP: {r}."));
        }
        for p in &res.permissions {
            notes.push(format!(
                "The view asks for the {p} permission; the page grants none."
            ));
        }
        Hosted {
            view: AppView {
                id,
                tool: tool.to_owned(),
                policy: res.csp.policy(),
                uri: res.uri,
                html: Arc::from(res.html),
                status: "loading",
                height: None,
                fullscreen: false,
                border: res.prefers_border.unwrap_or(true),
                links: Vec::new(),
                notes,
            },
            session,
            gone: false,
            dirty: true,
            said: Vec::new(),
            context: None,
            step,
            calls: Vec::new(),
            summaries: Summaries::default(),
        }
    }

    /// A view that cannot be hosted (its card says why; no frame).
    pub(super) fn failed(
        id: u64,
        tool: &str,
        step: Option<usize>,
        uri: &str,
        why: String,
    ) -> Hosted {
        let mut h = Hosted::new(
            id,
            tool,
            step,
            UiResource {
                uri: uri.to_owned(),
                html: String::new(),
                csp: mcpg_apps::Csp::default(),
                prefers_border: None,
                permissions: Vec::new(),
            },
            None,
        );
        h.view.status = "not hosted";
        h.view
            .notes
            .push(format!("The view cannot be hosted: {why}."));
        h
    }

    fn note(&mut self, text: String) {
        if self.view.notes.len() == MAX_NOTES {
            self.view.notes.remove(0);
        }
        self.view.notes.push(text);
        self.dirty = true;
    }

    /// Moves the session's events to the page; returns what to send the server.
    pub(super) fn events(&mut self, page: &mut Page) -> Vec<(Ticket, ServerAsk)> {
        let mut asks = Vec::new();
        let Some(session) = &mut self.session else {
            return asks;
        };
        let mut events = Vec::new();
        while let Some(ev) = session.poll_event() {
            events.push(ev);
        }
        let tearing = session.phase() == Phase::TearingDown;
        for ev in events {
            match ev {
                AppEvent::Wire { from_view, raw } => {
                    let summary = self.summaries.of(from_view, &raw);
                    page.log_app(from_view, summary, Arc::from(raw));
                }
                AppEvent::Ready => self.set_status("ready"),
                AppEvent::ToServer { ticket, ask } => asks.push((ticket, ask)),
                AppEvent::OpenLink { ticket, url } => {
                    self.view.links.push(AppLink {
                        ticket: ticket.0,
                        url,
                    });
                    self.dirty = true;
                }
                AppEvent::Message { role, content } => {
                    let text = text_of(&content, MAX_SAID);
                    self.note(format!(
                        "The view sent a {role} message; the host adds it to the conversation once the model has answered: {}",
                        text_of(&content, NOTE_CHARS)
                    ));
                    if self.said.len() < MAX_HELD {
                        self.said.push(text);
                    }
                }
                AppEvent::ModelContext {
                    content,
                    structured,
                } => {
                    let what = content
                        .as_ref()
                        .map(|c| text_of(c, MAX_SAID))
                        .or_else(|| structured.as_ref().map(Value::to_string))
                        .unwrap_or_default();
                    self.note(format!(
                        "The view set what the model is told of it; the host sends it with the next user message: {}",
                        cut(&what, NOTE_CHARS)
                    ));
                    self.context = (!what.is_empty()).then(|| cut(&what, MAX_SAID));
                }
                AppEvent::Size { height, .. } => {
                    if height.is_some() && height != self.view.height {
                        self.view.height = height;
                        self.dirty = true;
                    }
                }
                AppEvent::Display(mode) => {
                    self.view.fullscreen = mode == mcpg_apps::DisplayMode::Fullscreen;
                    self.dirty = true;
                }
                AppEvent::Log { level, data } => {
                    page.note(format!(
                        "the view of {} logs ({level}): {data}",
                        self.view.tool
                    ));
                }
                AppEvent::Refused(r) => {
                    page.note(format!(
                        "the host refused the view of {}: {r}",
                        self.view.tool
                    ));
                    self.note(format!("Refused: {r}."));
                }
                AppEvent::Failed(f) => {
                    page.note(format!("the view of {} failed: {f}", self.view.tool));
                    self.note(format!("Failed: {f}."));
                    self.set_status("failed");
                }
                AppEvent::Gone => {
                    self.gone = true;
                    self.dirty = true;
                }
            }
        }
        if tearing && !self.gone {
            self.set_status("tearing down");
        }
        asks
    }

    fn set_status(&mut self, status: &'static str) {
        if self.view.status != status {
            self.view.status = status;
            self.dirty = true;
        }
    }
}

/// Content blocks in words: their text, else their JSON; at most `chars` characters.
fn text_of(content: &Value, chars: usize) -> String {
    let blocks: Vec<&Value> = match content {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let texts: Vec<String> = blocks
        .iter()
        .map(|b| match b.get("text").and_then(Value::as_str) {
            Some(t) => t.to_owned(),
            None => b.to_string(),
        })
        .collect();
    cut(&texts.join(" "), chars)
}

/// `text` cut to `chars` characters, with "…" when it was longer.
fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}
