//! `#lesson=NAME` in the page's URL fragment: how a presenter hands a room one
//! lesson. Session links (`#s1.…`) and ordinary anchors (`#loop`) are not lesson
//! links, so the page tells them apart before opening anything.

use crate::{Lesson, find};

/// The fragment's prefix.
pub const PREFIX: &str = "lesson=";

/// What a fragment asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LessonLink<'a> {
    /// Not a lesson link (a session link, an anchor, nothing).
    None,
    /// A lesson of the track, with its index.
    Lesson(usize, &'static Lesson),
    /// `#lesson=` with a name the track does not have (kept to name it in the
    /// notice; the page shows it as text only).
    Unknown(&'a str),
}

/// Reads `hash` (with or without its leading `#`).
pub fn parse(hash: &str) -> LessonLink<'_> {
    let f = hash.strip_prefix('#').unwrap_or(hash);
    let Some(name) = f.strip_prefix(PREFIX) else {
        return LessonLink::None;
    };
    match find(name) {
        Some((i, l)) => LessonLink::Lesson(i, l),
        None => LessonLink::Unknown(name),
    }
}

/// The fragment that opens `slug` (`#lesson=slug`).
pub fn link(slug: &str) -> String {
    ["#", PREFIX, slug].concat()
}
