//! Side effects of the loop's picture and of presenter mode: bringing a step's JSON
//! into view, moving through the steps, presenter mode's keys, and marking `<body>`
//! while presenting (the stylesheet then shows presenter mode alone).

use leptos::prelude::*;
use mcpg_page_later::diagram::Target;
use wasm_bindgen::JsCast as _;
use web_sys::{Element, HtmlDetailsElement, HtmlElement, KeyboardEvent};

use crate::presenter::Presenter;
use crate::state::AppState;

/// What a key does in presenter mode (or, for `P`, outside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    /// → : the next step (advancing the loop on the last one).
    Next,
    /// ← : the previous step.
    Previous,
    /// R: run the loop.
    Run,
    /// D: show or hide the diagram.
    Diagram,
    /// Esc: leave presenter mode.
    Leave,
    /// P: enter presenter mode.
    Enter,
}

/// The action of `key`, given whether presenter mode is on. Keys with Ctrl, Alt or
/// Meta belong to the browser, and none acts while typing in a field.
pub fn key_action(key: &str, presenting: bool, modified: bool, typing: bool) -> Option<KeyAction> {
    if modified || typing {
        return None;
    }
    match (key, presenting) {
        ("p" | "P", false) => Some(KeyAction::Enter),
        ("ArrowRight", true) => Some(KeyAction::Next),
        ("ArrowLeft", true) => Some(KeyAction::Previous),
        ("r" | "R", true) => Some(KeyAction::Run),
        ("d" | "D", true) => Some(KeyAction::Diagram),
        ("Escape", true) => Some(KeyAction::Leave),
        _ => None,
    }
}

/// Listens to the page's keys for presenter mode, for the page's lifetime.
pub fn listen_keys(st: AppState, pr: Presenter) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev: KeyboardEvent| {
        let modified = ev.ctrl_key() || ev.alt_key() || ev.meta_key();
        let presenting = pr.on.get_untracked();
        let Some(action) = key_action(&ev.key(), presenting, modified, typing(&ev)) else {
            return;
        };
        ev.prevent_default();
        match action {
            KeyAction::Next => next(st, pr),
            KeyAction::Previous => previous(st, pr),
            KeyAction::Run => {
                pr.cursor.set(None);
                super::run_all();
            }
            KeyAction::Diagram => pr.diagram.update(|d| *d = !*d),
            KeyAction::Leave => set_presenting(pr, false),
            KeyAction::Enter => set_presenting(pr, true),
        }
    });
    // The listener lives as long as the page: nothing ever removes it.
    drop(handle);
}

/// Whether the key went to a text field (where letters and arrows are text).
fn typing(ev: &KeyboardEvent) -> bool {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else {
        return false;
    };
    if el.is_content_editable() {
        return true;
    }
    match el.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => !matches!(
            el.get_attribute("type").as_deref(),
            Some("button" | "checkbox" | "radio" | "submit" | "reset" | "file")
        ),
        _ => false,
    }
}

/// Turns presenter mode on or off; focus moves into it, and back to its button.
pub fn set_presenting(pr: Presenter, on: bool) {
    pr.on.set(on);
    pr.cursor.set(None);
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(body) = doc.body() {
        let _ = if on {
            body.class_list().add_1("presenting")
        } else {
            body.class_list().remove_1("presenting")
        };
    }
    let focus = if on {
        "[data-testid=presenter]"
    } else {
        "[data-testid=present-button]"
    };
    // Presenter mode renders when the signal is read next; focus it after that.
    request_animation_frame(move || focus_selector(focus));
}

/// → : the next step; on the newest step, the loop's next step (like Step), shown
/// from its first new card.
pub fn next(st: AppState, pr: Presenter) {
    let len = st.steps.with_untracked(Vec::len);
    match pr.shown_untracked(len) {
        Some(i) if i + 1 < len => pr.cursor.set(Some(i + 1)),
        _ if can_step(st) => {
            pr.cursor.set(Some(len));
            super::step();
        }
        _ => {}
    }
}

/// ← : the previous step.
pub fn previous(st: AppState, pr: Presenter) {
    let len = st.steps.with_untracked(Vec::len);
    if let Some(i) = pr.shown_untracked(len) {
        pr.cursor.set(Some(i.saturating_sub(1)));
    }
}

/// Whether Step would do something now: a loop to start, or one that is not
/// waiting for the server or the model (the Step button's own rule). `tracked`: a
/// view is reading (and follows the signals), not a handler.
fn can_step_by(st: AppState, tracked: bool) -> bool {
    let get = |s: RwSignal<bool>| if tracked { s.get() } else { s.get_untracked() };
    let steps = if tracked {
        st.steps.with(Vec::len)
    } else {
        st.steps.with_untracked(Vec::len)
    };
    let next = if tracked {
        st.next_step.get()
    } else {
        st.next_step.get_untracked()
    };
    if !get(st.loop_active) {
        return steps == 0;
    }
    !(next == Some(5) || get(st.model_busy) || get(st.running))
}

fn can_step(st: AppState) -> bool {
    can_step_by(st, false)
}

/// Whether → would show or do something, for the Next button (tracked, for a view).
pub fn can_go_next(st: AppState, pr: Presenter) -> bool {
    let len = st.steps.with(Vec::len);
    pr.shown(len).is_some_and(|i| i + 1 < len) || can_step_by(st, true)
}

/// Whether ← would show something, for the Previous button (tracked, for a view).
pub fn can_go_back(st: AppState, pr: Presenter) -> bool {
    pr.shown(st.steps.with(Vec::len)).is_some_and(|i| i > 0)
}

/// Where each hosted MCP Apps view belongs in the loop, from the driver (read for
/// the picture only, so the first load carries none of it).
pub fn app_lifelines() -> Vec<mcpg_page::AppLifeline> {
    super::inbox::read(mcpg_page::PageDriver::app_lifelines).unwrap_or_default()
}

/// In presenter mode, an arrow shows its step.
pub fn show_in_presenter(pr: Presenter, target: Target) {
    match target {
        // A view's arrows belong to its step 5 (presenter mode shows no views).
        Target::Step(i) | Target::View { step: i, .. } => pr.cursor.set(Some(i)),
        Target::Answer => pr.cursor.set(None),
    }
}

/// Brings a target into view: a step's card, scrolled to, its last JSON block opened
/// and focused; the model's answer; or an MCP Apps view's card.
pub fn jump_to(target: Target) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let card = match target {
        Target::Step(i) => doc
            .query_selector_all("#loop [data-testid=step]")
            .ok()
            .and_then(|cards| cards.item(u32::try_from(i).ok()?))
            .and_then(|n| n.dyn_into::<Element>().ok()),
        Target::Answer => doc
            .query_selector("#loop [data-testid=answer]")
            .ok()
            .flatten(),
        Target::View { id, .. } => doc
            .query_selector(&format!("[data-testid=app-view][data-view=\"{id}\"]"))
            .ok()
            .flatten(),
    };
    let Some(card) = card else {
        return;
    };
    let last_json = card
        .query_selector_all("details.json")
        .ok()
        .and_then(|all| all.item(all.length().checked_sub(1)?))
        .and_then(|n| n.dyn_into::<HtmlDetailsElement>().ok());
    let focus: Option<HtmlElement> = match last_json {
        Some(details) => {
            details.set_open(true);
            details
                .query_selector("summary")
                .ok()
                .flatten()
                .and_then(|s| s.dyn_into().ok())
        }
        None => {
            // A card without JSON (a call still running) takes the focus itself.
            let _ = card.set_attribute("tabindex", "-1");
            card.clone().dyn_into().ok()
        }
    };
    card.scroll_into_view_with_bool(true);
    if let Some(el) = focus {
        let _ = el.focus();
    }
}

/// Focuses presenter mode's screen on the next frame (once it is rendered).
pub fn focus_presenter() {
    request_animation_frame(|| focus_selector("[data-testid=presenter]"));
}

fn focus_selector(selector: &str) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<HtmlElement>().ok());
    if let Some(el) = el {
        let _ = el.focus();
    }
}

#[cfg(test)]
mod tests {
    use super::{KeyAction, key_action};

    #[test]
    fn keys_act_only_in_their_mode_and_never_while_typing() {
        assert_eq!(key_action("p", false, false, false), Some(KeyAction::Enter));
        assert_eq!(key_action("p", true, false, false), None);
        assert_eq!(key_action("ArrowRight", false, false, false), None);
        assert_eq!(
            key_action("ArrowRight", true, false, false),
            Some(KeyAction::Next)
        );
        assert_eq!(
            key_action("ArrowLeft", true, false, false),
            Some(KeyAction::Previous)
        );
        assert_eq!(key_action("R", true, false, false), Some(KeyAction::Run));
        assert_eq!(
            key_action("d", true, false, false),
            Some(KeyAction::Diagram)
        );
        assert_eq!(
            key_action("Escape", true, false, false),
            Some(KeyAction::Leave)
        );
        assert_eq!(key_action("r", true, false, true), None, "typing");
        assert_eq!(key_action("r", true, true, false), None, "Ctrl+R reloads");
        assert_eq!(key_action("Escape", false, false, false), None);
    }
}
