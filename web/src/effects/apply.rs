//! The one place the driver's view changes become signals. Components read the
//! signals; nothing else writes what the driver owns.

use std::time::Duration;

use leptos::prelude::*;
use mcpg_page::{ViewChange, slot};

use crate::state::{AppState, Conn, Tab};

/// Writes one change into the page's signals.
pub fn apply(st: AppState, change: ViewChange) {
    match change {
        ViewChange::Source(s) => st.source.set(s),
        ViewChange::Conn(c) => {
            // A server that closed before its first listing holds nothing back.
            if matches!(c, Conn::Closed(_)) {
                st.later_may_load.set(true);
            }
            st.conn.set(c);
        }
        ViewChange::Server(s) => st.server.set(s.map(|b| *b)),
        ViewChange::Pages(p) => st.pages.set(p),
        ViewChange::FirstListing { listed } => first_listing(st, listed),
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

/// The page's first listing ended, on whatever server: the page is usable. Its
/// time is recorded on `<body data-first-tool-list-ms>` (the e2e run prints the
/// embedded demo's). The first screen's later parts, the loop's code and the
/// connections' code are fetched from then on (the latter once the loop's first
/// pack is in, even when the bridge's server list waits for it), so the first Step
/// or the first other connection rarely waits for them.
fn first_listing(st: AppState, listed: bool) {
    if listed {
        super::clock::mark_body("data-first-tool-list-ms");
    }
    // After the list's next frame: what starts loading then (instantiating the
    // later parts' chunks takes the main thread) must not hold back its paint
    // (measured: a 1,001-tool list showed 70 ms after its last page, 3 ms before).
    request_animation_frame(move || {
        set_timeout(
            move || {
                st.later_may_load.set(true);
                super::later_kit::load();
                super::link_chunk::prefetch();
            },
            Duration::ZERO,
        );
    });
}
