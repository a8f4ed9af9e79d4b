//! Where the driver's messages for a hosted view go (`Output::AppPost`, run by the
//! connections chunk). The frames and the code that posts to them come with the
//! loop's chunk (`app_frames`), which installs the poster when it first hosts a
//! view: neither chunk names the other's code.

use std::cell::Cell;

/// Posts one message to a view's frame.
pub type Poster = fn(u64, &str);

thread_local! {
    static POSTER: Cell<Option<Poster>> = const { Cell::new(None) };
}

/// Installs the poster (once a view is hosted).
pub fn set(p: Poster) {
    POSTER.with(|c| c.set(Some(p)));
}

/// Posts `text` to view `view`'s frame (nothing is hosted without a poster, so a
/// message cannot be for a view before it is installed).
pub(super) fn post(view: u64, text: &str) {
    if let Some(p) = POSTER.with(Cell::get) {
        p(view, text);
    }
}
