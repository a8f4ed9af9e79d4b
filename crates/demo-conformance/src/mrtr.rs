//! The 2026-07-28 `input_required` fixtures (the suite's `input-required-result-*`
//! scenarios: `resultType: "input_required"`, `inputRequests`, `requestState`).
//! Kept in a file of their own: they come with the core server's side of MRTR,
//! built apart from the other fixtures.

use mcpg_core::Timestamp;
use mcpg_core::model::Tool;
use mcpg_core::server::{Server, ServerEvent};

/// The input-required fixture tools, listed after the others (none yet).
pub(crate) fn tools() -> Vec<Tool> {
    Vec::new()
}

/// Answers `ev` if it is a call of one of [`tools`]; whether it did.
pub(crate) fn serve(_server: &mut Server, _now: Timestamp, ev: &ServerEvent) -> bool {
    match ev {
        ServerEvent::CallTool { name, .. } => tools().iter().any(|t| t.name == *name),
        _ => false,
    }
}
