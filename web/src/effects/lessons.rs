//! The lesson track in the page: which lesson is open, the learner's progress
//! (kept in localStorage under a versioned key; a value that cannot be read is
//! ignored), `#lesson=NAME` links, setting the page up for a lesson, and pointing
//! at a step card. The lessons themselves are data (`mcpg_lessons`).

use leptos::prelude::*;
use mcpg_lessons::hash::{LessonLink, link, parse};
use mcpg_lessons::progress::{Progress, STORAGE_KEY};
use mcpg_lessons::{AuthStep, LESSONS, Model, Server, Verdict, Watch};
use mcpg_page::{ModelChoice, Pin};
use wasm_bindgen::JsCast as _;

use crate::state::{AppState, Source};

/// The lesson track's signals, provided by context.
#[derive(Clone, Copy, Debug)]
pub struct Lessons {
    /// The list of lessons is shown.
    pub expanded: RwSignal<bool>,
    /// The open lesson, by index in [`LESSONS`].
    pub current: RwSignal<Option<usize>>,
    /// Lessons done.
    pub progress: RwSignal<Progress>,
    /// How the learner's latest answer to the open lesson's check was judged.
    pub verdict: RwSignal<Option<Verdict>>,
    /// A `#lesson=` name the track does not have.
    pub unknown: RwSignal<Option<String>>,
    /// What pointing at a step found (e.g. the step has not happened yet).
    pub step_note: RwSignal<Option<String>>,
    /// Which of the open lesson's needs the page has seen since it opened.
    pub watch: RwSignal<Watch>,
    /// The last wire row (by row number) the watch has looked at: rows from
    /// before the lesson opened do not count.
    wire_seen: RwSignal<u64>,
    /// The end of the track is shown (after the last lesson's "Finish").
    pub finished: RwSignal<bool>,
    /// Opening the lesson reconnected (another server or revision): the wire log
    /// started again, and the lesson says so.
    pub reconnected: RwSignal<bool>,
}

impl Lessons {
    fn new() -> Self {
        Lessons {
            expanded: RwSignal::new(false),
            current: RwSignal::new(None),
            progress: RwSignal::new(Progress::new()),
            verdict: RwSignal::new(None),
            unknown: RwSignal::new(None),
            step_note: RwSignal::new(None),
            watch: RwSignal::new(Watch::default()),
            wire_seen: RwSignal::new(0),
            finished: RwSignal::new(false),
            reconnected: RwSignal::new(false),
        }
    }
}

thread_local! {
    /// The track's signals once the lessons panel made them: parts outside the
    /// panel's subtree (presenter mode) reach them here, not through context.
    static TRACK: std::cell::Cell<Option<Lessons>> = const { std::cell::Cell::new(None) };
}

/// The lesson track's signals, once the lessons panel is in.
pub fn loaded() -> Option<Lessons> {
    TRACK.with(std::cell::Cell::get)
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn save(p: &Progress) {
    if let Some(s) = storage() {
        // A full or disabled storage only costs the learner their ticks.
        let _ = s.set_item(STORAGE_KEY, &p.to_stored());
    }
}

fn hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Puts `fragment` in the address bar without a history entry or a `hashchange`
/// (an empty one leaves the path and query only).
fn set_hash(fragment: &str) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let url = [
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default(),
        fragment.to_owned(),
    ]
    .concat();
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Creates the signals, reads the stored progress, opens the lesson the URL names
/// and follows later `#lesson=` changes. Call once, after the page has connected.
pub fn init(st: AppState) -> Lessons {
    let ls = Lessons::new();
    provide_context(ls);
    TRACK.with(|t| t.set(Some(ls)));
    let stored = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    ls.progress.set(Progress::load_or_new(stored.as_deref()));
    watch_page(st, ls);
    open_from_hash(st, ls);
    let _ = window_event_listener(leptos::ev::hashchange, move |_| open_from_hash(st, ls));
    ls
}

/// The Server panel's Transport row now.
fn transport_row(st: AppState) -> String {
    st.server
        .with_untracked(|s| s.as_ref().map(|s| s.transport.clone()))
        .unwrap_or_default()
}

/// Follows the cards, the Transport row and the wire log for the open lesson's
/// needs. Only changes count: the cards on screen when a lesson opens are the last
/// lesson's, so the effects skip their first run, and the wire rows from before the
/// lesson opened are skipped by row number. The Transport row is read again each
/// time the cards change, so a need after a run sees the transport it ran over.
fn watch_page(st: AppState, ls: Lessons) {
    Effect::new(move |first: Option<()>| {
        st.steps.with(|steps| {
            if first.is_none() {
                return;
            }
            let Some(lesson) = ls.current.get_untracked().and_then(|i| LESSONS.get(i)) else {
                return;
            };
            let mut w = ls.watch.get_untracked();
            let seen = w.see_steps(lesson, steps);
            if w.see_transport(lesson, &transport_row(st)) || seen {
                ls.watch.set(w);
            }
        });
    });
    Effect::new(move |first: Option<()>| {
        st.server.track();
        if first.is_none() {
            return;
        }
        let Some(lesson) = ls.current.get_untracked().and_then(|i| LESSONS.get(i)) else {
            return;
        };
        let mut w = ls.watch.get_untracked();
        if w.see_transport(lesson, &transport_row(st)) {
            ls.watch.set(w);
        }
    });
    Effect::new(move |first: Option<()>| {
        let meta = st.log.get();
        if first.is_none() {
            return;
        }
        let Some(lesson) = ls.current.get_untracked().and_then(|i| LESSONS.get(i)) else {
            return;
        };
        let last = ls.wire_seen.get_untracked();
        if meta.appended <= last {
            return;
        }
        ls.wire_seen.set(meta.appended);
        let mut w = ls.watch.get_untracked();
        if !w.waits_for_wire(lesson) {
            return;
        }
        // The new rows are the last `appended - last` kept ones.
        let new = usize::try_from(meta.appended - last).unwrap_or(usize::MAX);
        let rows = super::log_rows(meta.len.saturating_sub(new), meta.len);
        let mut newly = false;
        for row in rows {
            match row {
                mcpg_page::LogRow::Wire { raw, .. } => newly |= w.see_wire(lesson, &raw),
                mcpg_page::LogRow::App { raw, .. } => newly |= w.see_app(lesson, &raw),
                _ => {}
            }
        }
        if newly {
            ls.watch.set(w);
        }
    });
}

/// The sign-in panel's cards changed (their exchanges, in order): the open
/// lesson's watch looks at them.
pub fn see_auth(exchanges: &[AuthStep]) {
    let Some(ls) = loaded() else { return };
    let Some(lesson) = ls.current.get_untracked().and_then(|i| LESSONS.get(i)) else {
        return;
    };
    let mut w = ls.watch.get_untracked();
    if w.see_auth(lesson, exchanges) {
        ls.watch.set(w);
    }
}

fn open_from_hash(st: AppState, ls: Lessons) {
    match parse(&hash()) {
        LessonLink::None => {}
        LessonLink::Lesson(i, _) => {
            if ls.current.get_untracked() != Some(i) {
                open(st, ls, i);
            }
        }
        LessonLink::Unknown(name) => {
            ls.current.set(None);
            ls.unknown.set(Some(name.to_owned()));
            ls.expanded.set(true);
        }
    }
}

/// Opens lesson `index` and sets the page up for it: the embedded demo, the
/// lesson's message, model and format, and a fresh loop.
pub fn open(st: AppState, ls: Lessons, index: usize) {
    let Some(lesson) = LESSONS.get(index) else {
        return;
    };
    // Before the set-up's commands: their wire rows (a reconnection) are the
    // lesson's, the rows already there are not.
    ls.wire_seen.set(st.log.with_untracked(|m| m.appended));
    ls.watch.set(Watch::new(lesson));
    ls.finished.set(false);
    ls.current.set(Some(index));
    ls.verdict.set(None);
    ls.unknown.set(None);
    ls.step_note.set(None);
    ls.expanded.set(false);
    set_hash(&link(lesson.slug));
    let setup = lesson.setup;
    let (source, signs_in) = match setup.server {
        Server::Demo => (Source::Demo, false),
        Server::OAuthDemo => (
            Source::Url(super::demo_oauth::RESOURCE_URL.to_owned()),
            true,
        ),
        Server::SseDemo => (Source::Url(mcpg_demo_sse::SSE_URL.to_owned()), false),
    };
    // Pinned first, so a new connection starts with it (the driver ignores a pin it
    // already has; a new one reconnects).
    let pin = setup.revision.map_or(Pin::Auto, Pin::Revision);
    let elsewhere =
        st.source.get_untracked() != source || st.replay.with_untracked(Option::is_some);
    ls.reconnected.set(
        elsewhere
            || signs_in
            || (st.pin.get_untracked() != pin
                && st.conn.with_untracked(|c| *c != mcpg_page::Conn::Idle)),
    );
    super::set_pin(pin);
    if signs_in {
        // The lesson is the sign-in: a token from an earlier visit is forgotten
        // (not refreshed), so the server refuses again and the learner signs in.
        super::oauth::forget();
    }
    if elsewhere || signs_in {
        super::connect(source);
    }
    super::set_provider(setup.provider);
    // Every lesson opens with the careful host; a lesson's switch makes it naive.
    super::set_pitfalls(mcpg_loop_data::Pitfalls::NONE);
    super::set_model(match setup.model {
        Model::Mock => ModelChoice::Mock,
        Model::Play => ModelChoice::Play,
    });
    use_message(setup.prompt);
}

/// Moves the focus to the open lesson's title once it is drawn: the button that
/// opened it (in the list, or "Next lesson") is gone or folded away, and a keyboard
/// user should land on what it opened, not at the top of the page.
pub fn focus_title() {
    request_animation_frame(|| {
        let title = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("lesson-title"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(t) = title {
            let _ = t.focus();
        }
    });
}

/// Puts `prompt` in the message box and clears the loop.
pub fn use_message(prompt: &str) {
    super::set_prompt(prompt.to_owned());
    super::reset();
}

/// Closes the last lesson and shows the end of the track.
pub fn finish(ls: Lessons) {
    close(ls);
    ls.expanded.set(false);
    ls.finished.set(true);
}

/// Closes the open lesson (the list stays).
pub fn close(ls: Lessons) {
    ls.finished.set(false);
    ls.current.set(None);
    ls.verdict.set(None);
    ls.step_note.set(None);
    ls.expanded.set(true);
    set_hash("");
}

/// Judges an answer to the open lesson's check; a right one marks the lesson done.
pub fn answer(ls: Lessons, choice: Option<usize>, text: &str) {
    let Some(i) = ls.current.get_untracked() else {
        return;
    };
    let Some(lesson) = LESSONS.get(i) else { return };
    // The question is not shown before: this is the guard behind the view.
    if !ls.watch.with_untracked(Watch::all_seen) {
        return;
    }
    let v = lesson.check.judge(choice, text);
    ls.verdict.set(Some(v));
    if v.right {
        ls.progress.update(|p| p.mark_done(i));
        ls.progress.with_untracked(save);
    }
}

/// Scrolls to the first card of step `n`, highlights it and moves focus there (its
/// JSON blocks opened), or says the step has not happened yet.
pub fn show_step(ls: Lessons, n: u8) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(old) = doc.query_selector_all("[data-highlight]") {
        for i in 0..old.length() {
            if let Some(e) = old
                .item(i)
                .and_then(|e| e.dyn_into::<web_sys::Element>().ok())
            {
                let _ = e.remove_attribute("data-highlight");
            }
        }
    }
    let card = doc
        .query_selector(&format!("[data-testid=\"step\"][data-step=\"{n}\"]"))
        .ok()
        .flatten();
    let Some(card) = card else {
        ls.step_note.set(Some(format!(
            "Step {n} has not happened yet: step or run the loop first."
        )));
        return;
    };
    ls.step_note.set(None);
    let _ = card.set_attribute("data-highlight", "true");
    let _ = card.set_attribute("tabindex", "-1");
    if let Ok(blocks) = card.query_selector_all("details") {
        for i in 0..blocks.length() {
            if let Some(d) = blocks
                .item(i)
                .and_then(|d| d.dyn_into::<web_sys::Element>().ok())
            {
                let _ = d.set_attribute("open", "");
            }
        }
    }
    card.scroll_into_view();
    if let Some(h) = card.dyn_ref::<web_sys::HtmlElement>() {
        let _ = h.focus();
    }
}
