//! The one place the driver's view changes become signals. Components read the
//! signals; nothing else writes what the driver owns.

use leptos::prelude::*;
use mcpg_page::{ViewChange, slot};

use crate::state::{AppState, Tab};

/// Writes one change into the page's signals.
pub fn apply(st: AppState, change: ViewChange) {
    match change {
        ViewChange::Source(s) => st.source.set(s),
        ViewChange::Conn(c) => st.conn.set(c),
        ViewChange::Server(s) => st.server.set(s.map(|b| *b)),
        ViewChange::Pages(p) => st.pages.set(p),
        ViewChange::FirstToolList => first_tool_list(),
        ViewChange::Log(meta) => st.log.set(meta),
        ViewChange::Steps(s) => st.steps.set(s),
        ViewChange::Apps(a) => st.apps.set(a),
        ViewChange::NextStep(n) => st.next_step.set(n),
        ViewChange::LoopActive(a) => st.loop_active.set(a),
        ViewChange::Answer(a) => st.answer.set(a),
        ViewChange::Running(r) => st.running.set(r),
        ViewChange::Call(c) => st.call.set(c.map(|b| *b)),
        ViewChange::Progress(p) => st.progress.set(p),
        ViewChange::ShowResult => st.tab.set(Tab::Result),
        ViewChange::ModelBusy(b) => st.model_busy.set(b),
        ViewChange::Turns(t) => st.turns.set(t),
        ViewChange::Rounds(r) => st.rounds.set(r),
        ViewChange::Notice(n) => st.notice.set(n),
        ViewChange::Prompt(p) => {
            if st.prompt.with_untracked(|old| *old != p) {
                st.prompt.set(p);
            }
        }
        ViewChange::Script(s) => st.script.set(s),
        ViewChange::Provider(p) => st.provider.set(p),
        ViewChange::Pitfalls(p) => st.pitfalls.set(p),
        ViewChange::Model(m) => st.model.set(m),
        ViewChange::Llm { provider, settings } => st.llm.update(|l| {
            if let Some(s) = l.get_mut(slot(provider)) {
                *s = settings;
            }
        }),
        ViewChange::LlmModel { provider, model } => st.llm.update(|l| {
            if let Some(s) = l.get_mut(slot(provider)) {
                s.model = model;
            }
        }),
        ViewChange::Pin(p) => st.pin.set(p),
        ViewChange::Asks(a) => st.asks.set(a),
        ViewChange::Roots(r) => st.roots.set(r),
        ViewChange::Auth(a) => st.auth.set(a),
        ViewChange::Replay(r) => st.replay.set(r),
        ViewChange::Feature(f) => super::feature_sink::apply(st, f),
    }
}

/// The first complete listing on the embedded server marks the page as usable:
/// recorded on `<body data-first-tool-list-ms>` for the e2e run to print. The loop's
/// code and the connections' code are fetched from then on (the latter after the
/// former, unless the bridge's list waits for it), so the first Step or the first
/// other connection rarely waits for them.
fn first_tool_list() {
    super::later_kit::load();
    super::link_chunk::prefetch();
    super::clock::mark_body("data-first-tool-list-ms");
}
