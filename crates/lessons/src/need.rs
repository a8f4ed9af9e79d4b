//! What a learner must make happen before a lesson's question opens, and the page's
//! watch over it. A [`Need`] names a sign the page can see (a step card's field, a
//! number of cards, a message in the wire log, the Server panel's Transport row);
//! [`Watch`] remembers which signs have
//! been seen since the lesson opened, so a lesson whose task takes two runs (Atlantis,
//! then an unknown tool) counts both even though the second run replaces the first's
//! cards.

use mcpg_auth::Step as AuthStep;
use mcpg_host::{Step, StepStatus};
use mcpg_loop_data::Pitfall;
use serde_json::Value;

use crate::Lesson;
use crate::path::at;

/// Where the page sees that something happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// A card of step `step` shows `field` (a path as in [`crate::Pointer`]), equal to
    /// `value` (JSON text) when one is given.
    Field {
        /// 1 to 6.
        step: u8,
        /// The path.
        field: &'static str,
        /// The value it must have, as JSON text (`"true"`, `"\"page-24\""`).
        value: Option<&'static str>,
    },
    /// A card of step `step` finished normally.
    Done(u8),
    /// At least `count` cards of step `step` at once.
    Cards {
        /// 1 to 6.
        step: u8,
        /// How many.
        count: usize,
    },
    /// A card says the host made a choice about `pitfall`: the naive host's
    /// mistake (`naive`) or the careful host's way.
    Choice {
        /// The mistake at stake.
        pitfall: Pitfall,
        /// Whether the naive host made it.
        naive: bool,
    },
    /// A JSON-RPC message in the wire log (either way) shows `field`, equal to
    /// `value` when one is given: `method` = `"resources/read"`, `result.action` =
    /// `"decline"`.
    Wire {
        /// The path.
        field: &'static str,
        /// The value it must have, as JSON text.
        value: Option<&'static str>,
    },
    /// The sign-in panel shows a card of this OAuth exchange.
    Auth(AuthStep),
    /// A message between a hosted view and the host (the wire log's app ↔ host
    /// lane, MCP Apps) shows `field`, equal to `value` when one is given.
    App {
        /// The path.
        field: &'static str,
        /// The value it must have, as JSON text.
        value: Option<&'static str>,
    },
    /// The Server panel's Transport row names this transport (for HTTP+SSE, with
    /// the endpoint its stream named). The page looks when the row changes and
    /// whenever the cards do, so a need after a run is seen only if the run
    /// happened over this transport.
    Transport(TransportKind),
}

/// Which HTTP transport the Transport row names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransportKind {
    /// The deprecated HTTP+SSE (2024-11-05), once its stream named the endpoint.
    Sse,
    /// Streamable HTTP.
    StreamableHttp,
}

impl TransportKind {
    /// Whether the Transport row's `text` names this transport. The texts are the
    /// HTTP machine's (`mcpg_http::TransportChoice::why`): "Streamable HTTP POST
    /// answered 405; fell back to HTTP+SSE (2024-11-05): endpoint …" names the old
    /// one though it starts with the new one's name.
    pub fn named_in(self, text: &str) -> bool {
        let sse = text.contains("HTTP+SSE");
        match self {
            TransportKind::Sse => sse && text.contains(": endpoint "),
            TransportKind::StreamableHttp => !sse && text.starts_with("Streamable HTTP"),
        }
    }
}

/// One thing the learner does before the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// What to do, as the lesson shows it in its list ("Run the loop for Atlantis").
    pub task: &'static str,
    /// How the page knows it was done.
    pub sign: Sign,
}

/// Whether `found` is there and, when `value` is given, equal to it.
fn matches(found: Option<&Value>, value: Option<&str>) -> bool {
    match (found, value) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(f), Some(text)) => serde_json::from_str::<Value>(text).is_ok_and(|v| *f == v),
    }
}

impl Sign {
    /// Whether `steps` (the cards on screen) show this sign. A wire sign never
    /// shows in the cards.
    pub fn in_steps(&self, steps: &[Step]) -> bool {
        match *self {
            Sign::Field { step, field, value } => steps
                .iter()
                .filter(|s| s.number == step)
                .flat_map(|s| &s.blocks)
                .filter_map(|b| serde_json::from_str::<Value>(&b.json).ok())
                .any(|v| matches(at(&v, field), value)),
            Sign::Done(step) => steps
                .iter()
                .any(|s| s.number == step && s.status == StepStatus::Done),
            Sign::Cards { step, count } => {
                steps.iter().filter(|s| s.number == step).count() >= count
            }
            Sign::Choice { pitfall, naive } => steps
                .iter()
                .flat_map(|s| &s.choices)
                .any(|c| c.pitfall == pitfall && c.naive == naive),
            Sign::Wire { .. } | Sign::Auth(_) | Sign::App { .. } | Sign::Transport(_) => false,
        }
    }

    /// Whether the wire message `msg` shows this sign. Only a wire sign does.
    pub fn in_wire(&self, msg: &Value) -> bool {
        match *self {
            Sign::Wire { field, value } => matches(at(msg, field), value),
            Sign::Field { .. }
            | Sign::Done(_)
            | Sign::Cards { .. }
            | Sign::Choice { .. }
            | Sign::Auth(_)
            | Sign::App { .. }
            | Sign::Transport(_) => false,
        }
    }

    /// Whether the view ↔ host message `msg` shows this sign. Only an app sign does.
    pub fn in_app(&self, msg: &Value) -> bool {
        match *self {
            Sign::App { field, value } => matches(at(msg, field), value),
            _ => false,
        }
    }

    /// Whether the Transport row's `text` shows this sign. Only a transport sign
    /// does.
    pub fn in_transport(&self, text: &str) -> bool {
        match *self {
            Sign::Transport(kind) => kind.named_in(text),
            _ => false,
        }
    }

    /// Whether the sign-in's cards (their exchanges, in order) show this sign. Only
    /// an auth sign does.
    pub fn in_auth(&self, exchanges: &[AuthStep]) -> bool {
        match *self {
            Sign::Auth(step) => exchanges.contains(&step),
            _ => false,
        }
    }
}

/// Which of a lesson's needs the page has seen since the lesson opened. Needs are
/// seen in order: a need counts only once the ones before it are seen (so "pin
/// 2025-11-25, then back to auto" is not met by a reconnection on auto that came
/// first). Signs stay seen: a later run that replaces the cards does not undo an
/// earlier one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Watch {
    seen: Vec<bool>,
}

impl Watch {
    /// Nothing seen yet, for `lesson`'s needs.
    pub fn new(lesson: &Lesson) -> Self {
        Watch {
            seen: vec![false; lesson.needs.len()],
        }
    }

    /// Looks at the cards on screen; true when a need was newly seen.
    pub fn see_steps(&mut self, lesson: &Lesson, steps: &[Step]) -> bool {
        self.see(lesson, |s| s.in_steps(steps))
    }

    /// Looks at one wire message (its raw text); true when a need was newly seen.
    /// The text is parsed only while a wire need is unseen.
    pub fn see_wire(&mut self, lesson: &Lesson, raw: &str) -> bool {
        self.see_message(lesson, raw, Sign::in_wire)
    }

    /// Looks at one message between a view and the host (its raw text); true when
    /// a need was newly seen.
    pub fn see_app(&mut self, lesson: &Lesson, raw: &str) -> bool {
        self.see_message(lesson, raw, Sign::in_app)
    }

    /// A message of either lane of the log, read by `shows`.
    fn see_message(
        &mut self,
        lesson: &Lesson,
        raw: &str,
        shows: fn(&Sign, &Value) -> bool,
    ) -> bool {
        if !self.waits_for_wire(lesson) {
            return false;
        }
        let Ok(msg) = serde_json::from_str::<Value>(raw) else {
            return false;
        };
        self.see(lesson, |s| shows(s, &msg))
    }

    /// Looks at the sign-in panel's cards (their exchanges); true when a need was
    /// newly seen.
    pub fn see_auth(&mut self, lesson: &Lesson, exchanges: &[AuthStep]) -> bool {
        self.see(lesson, |s| s.in_auth(exchanges))
    }

    /// Looks at the Server panel's Transport row (its text now); true when a need
    /// was newly seen.
    pub fn see_transport(&mut self, lesson: &Lesson, text: &str) -> bool {
        self.see(lesson, |s| s.in_transport(text))
    }

    /// Whether the next need is seen in the wire log, either lane (the page reads
    /// the log only then).
    pub fn waits_for_wire(&self, lesson: &Lesson) -> bool {
        self.next(lesson)
            .is_some_and(|n| matches!(n.sign, Sign::Wire { .. } | Sign::App { .. }))
    }

    /// The first need not seen yet.
    pub fn next<'l>(&self, lesson: &'l Lesson) -> Option<&'l Need> {
        lesson
            .needs
            .iter()
            .zip(&self.seen)
            .find(|(_, seen)| !**seen)
            .map(|(n, _)| n)
    }

    /// Marks the next needs seen while they show (several can show at once: the
    /// same cards hold step 3's call and step 6's answer).
    fn see(&mut self, lesson: &Lesson, shows: impl Fn(&Sign) -> bool) -> bool {
        let mut newly = false;
        for (need, seen) in lesson.needs.iter().zip(self.seen.iter_mut()) {
            if *seen {
                continue;
            }
            if !shows(&need.sign) {
                break;
            }
            *seen = true;
            newly = true;
        }
        newly
    }

    /// Whether need `i` has been seen.
    pub fn seen(&self, i: usize) -> bool {
        self.seen.get(i).copied().unwrap_or(false)
    }

    /// Whether every need has been seen: the question may open.
    pub fn all_seen(&self) -> bool {
        self.seen.iter().all(|s| *s)
    }
}
