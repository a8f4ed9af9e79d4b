//! Whether an element is on screen, through the browser's `IntersectionObserver`:
//! the windowed tool list renders a block of rows only while it is near the
//! viewport.

use wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::Closure;
use web_sys::{Element, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// An element being watched; dropping it stops the watching.
pub struct Watch {
    observer: IntersectionObserver,
    // Kept alive as long as the observer may call it.
    _on_change: Closure<dyn FnMut(js_sys::Array)>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Calls `on_change(true)` when `el` comes within `margin_px` of `root` (its
/// scrolling ancestor; the viewport when `None`) and `on_change(false)` when it
/// leaves.
/// `None` when the browser refuses the observer (it has no `IntersectionObserver`):
/// callers then show everything.
pub fn watch(
    el: &Element,
    root: Option<&Element>,
    margin_px: u32,
    mut on_change: impl FnMut(bool) + 'static,
) -> Option<Watch> {
    let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        // Several entries can come at once; the last one is the latest state.
        let last = entries
            .iter()
            .rev()
            .find_map(|e| e.dyn_into::<IntersectionObserverEntry>().ok());
        if let Some(entry) = last {
            on_change(entry.is_intersecting());
        }
    });
    let init = IntersectionObserverInit::new();
    init.set_root_margin(&format!("{margin_px}px 0px"));
    if let Some(root) = root {
        init.set_root(Some(root));
    }
    let observer =
        IntersectionObserver::new_with_options(on_change.as_ref().unchecked_ref(), &init).ok()?;
    observer.observe(el);
    Some(Watch {
        observer,
        _on_change: on_change,
    })
}
