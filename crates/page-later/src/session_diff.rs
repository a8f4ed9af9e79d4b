//! The page's session diff: two recordings compared with `mcpg_recording::diff`,
//! the comparison `mcpg diff` prints. The embedded demo's answers a link leaves out
//! are regenerated first, with the demo's code that comes with the later parts.
//! Only the share bar's session diff (in the later parts' chunk) calls this, so
//! none of it is in the first load.

use mcpg_page::demo_exchange;
use mcpg_recording::diff::{SessionDiff, Snapshot, diff};
use mcpg_recording::{Connection, Recording, rehydrate_with};

/// One side as the page shows it above the diff.
#[derive(Clone, Debug, PartialEq)]
pub struct SideSummary {
    /// Tools in its last listing (`None`: it never listed them).
    pub tools: Option<usize>,
    /// Calls it made.
    pub calls: usize,
}

/// Two sessions compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    /// Session A.
    pub a: SideSummary,
    /// Session B.
    pub b: SideSummary,
    /// What changed from A to B.
    pub diff: SessionDiff,
}

/// Compares session `a` with session `b`; `Err` says, for a learner, which one
/// cannot be read and why.
pub fn compare(a: Recording, b: Recording) -> Result<Compared, String> {
    let (sa, sb) = (snapshot(a, "A")?, snapshot(b, "B")?);
    let side = |s: &Snapshot| SideSummary {
        tools: s.tools.as_ref().map(Vec::len),
        calls: s.calls.len(),
    };
    Ok(Compared {
        a: side(&sa),
        b: side(&sb),
        diff: diff(&sa, &sb),
    })
}

fn snapshot(mut s: Recording, which: &str) -> Result<Snapshot, String> {
    if s.connection == Connection::Embedded && s.wire.iter().any(|w| w.text.is_none()) {
        rehydrate_with(&mut s, demo_exchange(mcpg_demo::handlers()))
            .map_err(|e| format!("session {which} cannot be read: {e}"))?;
    }
    let snap =
        Snapshot::from_recording(&s).map_err(|e| format!("session {which} cannot be read: {e}"))?;
    if snap.tools.is_none() && snap.calls.is_empty() {
        return Err(format!(
            "session {which} recorded no tools/list or tools/call to compare"
        ));
    }
    Ok(snap)
}
