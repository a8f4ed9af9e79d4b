//! Stylesheets added when the parts that use them load, so their bytes are not
//! among those a learner waits for before the first tool list.
//!
//! Only code in split chunks calls these (the parts that come after the first tool
//! list, see `components/once_shown.rs`), so the stylesheets' text is in those
//! chunks, not in the first load.

/// Adds `css` to the page as a `<style id="{id}">`, once.
fn add(id: &str, css: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.get_element_by_id(id).is_some() {
        return;
    }
    let (Ok(style), Some(head)) = (doc.create_element("style"), doc.head()) else {
        return;
    };
    style.set_id(id);
    style.set_text_content(Some(css));
    let _ = head.append_child(&style);
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
