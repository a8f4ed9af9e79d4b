//! Stylesheets added when the parts that use them load, so their bytes are not
//! among those a learner waits for before the first tool list.
//!
//! Only code in split chunks calls these (the parts that come after the first tool
//! list, see `components/once_shown.rs`), so the stylesheets' text is in those
//! chunks, not in the first load.

/// Adds `css` to the page once, as a constructed stylesheet adopted by the
/// document (after its own sheets, as a `<style>` at the end of `<head>` would be).
/// Not a `<style>` element: the page's Content-Security-Policy (index.html)
/// allows stylesheets from files only, and constructed sheets are not inline
/// styles to it (issue 26).
fn add(id: &'static str, css: &str) {
    if ADDED.with(|a| a.borrow().contains(&id)) {
        return;
    }
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(sheet) = web_sys::CssStyleSheet::new() else {
        return;
    };
    if sheet.replace_sync(css).is_err() {
        return;
    }
    let sheets = doc.adopted_style_sheets();
    sheets.push(&sheet);
    doc.set_adopted_style_sheets(&sheets);
    ADDED.with(|a| a.borrow_mut().push(id));
}

thread_local! {
    /// The ids of the stylesheets added so far.
    static ADDED: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `web/later.css`: the rules of every part that comes after the first tool list.
/// Each such part adds it before its view mounts (the first one to load wins), so
/// none is ever shown unstyled.
pub fn add_later() {
    add("later-css", include_str!("../../later.css"));
}

/// `web/picture.css`: the picture's and presenter mode's rules, added the first
/// time either is shown.
pub fn add_picture() {
    add("picture-css", include_str!("../../picture.css"));
}
