//! Which lessons a learner has done, as the page keeps it in the browser: one
//! versioned JSON value, `{"v":1,"done":["six-steps",…]}`, under [`STORAGE_KEY`].
//! A value this version cannot read (corrupt, hand-edited, from a future version)
//! is ignored, never an error: progress is a convenience, not data to guard.

use serde_json::{Value, json};

use crate::LESSONS;

/// The storage key; the version is in the name, so a future format gets its own.
pub const STORAGE_KEY: &str = "mcpg.lessons.v1";

/// The format version written in the value.
const VERSION: u64 = 1;

/// Lessons done, by index in [`LESSONS`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    done: Vec<bool>,
}

/// What reading a stored value found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// Nothing was stored.
    Empty,
    /// Read: these lessons are done (names of lessons no longer in the track are
    /// dropped).
    Read(Progress),
    /// The value could not be read and was ignored.
    Ignored,
}

impl Progress {
    /// No lesson done.
    pub fn new() -> Self {
        Progress {
            done: vec![false; LESSONS.len()],
        }
    }

    /// Reads the stored value (`None`: nothing stored).
    pub fn load(stored: Option<&str>) -> Loaded {
        let Some(text) = stored else {
            return Loaded::Empty;
        };
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            return Loaded::Ignored;
        };
        let (Some(VERSION), Some(done)) = (
            v.get("v").and_then(Value::as_u64),
            v.get("done").and_then(Value::as_array),
        ) else {
            return Loaded::Ignored;
        };
        let mut p = Progress::new();
        for slug in done {
            let Some(slug) = slug.as_str() else {
                return Loaded::Ignored;
            };
            if let Some((i, _)) = crate::find(slug) {
                p.set(i);
            }
        }
        Loaded::Read(p)
    }

    /// The progress in `stored`, or none done when it cannot be read.
    pub fn load_or_new(stored: Option<&str>) -> Self {
        match Progress::load(stored) {
            Loaded::Read(p) => p,
            Loaded::Empty | Loaded::Ignored => Progress::new(),
        }
    }

    fn set(&mut self, index: usize) {
        if let Some(d) = self.done.get_mut(index) {
            *d = true;
        }
    }

    /// Marks lesson `index` done.
    pub fn mark_done(&mut self, index: usize) {
        self.set(index);
    }

    /// Whether lesson `index` is done.
    pub fn is_done(&self, index: usize) -> bool {
        self.done.get(index).copied().unwrap_or(false)
    }

    /// How many lessons are done.
    pub fn count(&self) -> usize {
        self.done.iter().filter(|d| **d).count()
    }

    /// The value to store.
    pub fn to_stored(&self) -> String {
        let done: Vec<&str> = LESSONS
            .iter()
            .zip(&self.done)
            .filter(|(_, d)| **d)
            .map(|(l, _)| l.slug)
            .collect();
        json!({ "v": VERSION, "done": done }).to_string()
    }
}
