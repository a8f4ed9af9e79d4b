//! Presenter mode's own state: whether it is on, which step it shows, whether the
//! diagram shows beside it. Only *which* step is shown lives here: the steps
//! themselves, and where the loop stands, stay the page's (`AppState`), so presenter
//! mode is a view of the same loop, not a second one.

use leptos::prelude::*;

/// Presenter mode's signals, provided by context.
#[derive(Clone, Copy, Debug)]
pub struct Presenter {
    /// Presenter mode is on.
    pub on: RwSignal<bool>,
    /// The index of the step shown; `None` follows the newest step.
    pub cursor: RwSignal<Option<usize>>,
    /// The diagram shows beside the step (D).
    pub diagram: RwSignal<bool>,
}

impl Presenter {
    /// Off, following the newest step, the step alone at full width.
    pub fn new() -> Self {
        Presenter {
            on: RwSignal::new(false),
            cursor: RwSignal::new(None),
            diagram: RwSignal::new(false),
        }
    }

    /// The index of the step shown, given how many steps there are: the cursor,
    /// kept in range, or the newest step.
    pub fn shown(&self, steps: usize) -> Option<usize> {
        let last = steps.checked_sub(1)?;
        Some(self.cursor.get().map_or(last, |c| c.min(last)))
    }

    /// [`Presenter::shown`] outside a reactive context (in an event handler).
    pub fn shown_untracked(&self, steps: usize) -> Option<usize> {
        let last = steps.checked_sub(1)?;
        Some(self.cursor.get_untracked().map_or(last, |c| c.min(last)))
    }
}

impl Default for Presenter {
    fn default() -> Self {
        Self::new()
    }
}

/// Presenter mode's state, from context.
pub fn use_presenter() -> Presenter {
    use_context::<Presenter>().unwrap_or_default()
}
