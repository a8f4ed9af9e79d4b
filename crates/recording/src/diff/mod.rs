//! Two sessions compared: what changed in the server between them. Both sides are
//! a [`Snapshot`] (a recording's, or one a caller built from a live server), and the
//! [`SessionDiff`] says which tools were added, removed, renamed or changed (field by
//! field, as JSON pointers) and which answers to the same call changed. Volatile
//! members ([`VOLATILE`]) are never compared; every list is in a fixed order, so the
//! same two sessions always give the same diff. No I/O: `mcpg diff` and the page
//! both call [`diff`].

mod calls;
mod snapshot;
mod tools;
mod value;

use serde::Serialize;

pub use calls::{AnswerKind, CallCounts, ResultChanged, answer_changes, diff_calls};
pub use snapshot::{Answer, Call, Exchange, Snapshot, SnapshotError, error_answer, exchanges};
pub use tools::{
    Area, CatalogDiff, Renamed, ToolChanged, ToolEntry, ToolFieldChange, diff_catalogs,
};
pub use value::{FieldChange, VOLATILE, canonical, pointer_segment, strip, value_changes};

/// What changed from session A to session B.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SessionDiff {
    /// The catalogs compared (`None` when either session never listed its tools).
    pub tools: Option<CatalogDiff>,
    /// The calls whose answers differ.
    pub results: Vec<ResultChanged>,
    /// How many calls were compared.
    pub calls: CallCounts,
}

impl SessionDiff {
    /// How many differences: each tool added, removed, renamed or changed, and each
    /// call whose answer changed.
    pub fn count(&self) -> usize {
        let tools = self.tools.as_ref().map_or(0, |t| {
            t.added.len() + t.removed.len() + t.renamed.len() + t.changed.len()
        });
        tools + self.results.len()
    }

    /// Whether the two sessions show the same server.
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }
}

/// Compares session `a` with session `b`.
pub fn diff(a: &Snapshot, b: &Snapshot) -> SessionDiff {
    let tools = match (&a.tools, &b.tools) {
        (Some(x), Some(y)) => Some(diff_catalogs(x, y)),
        _ => None,
    };
    let (results, calls) = diff_calls(&a.calls, &b.calls);
    SessionDiff {
        tools,
        results,
        calls,
    }
}
