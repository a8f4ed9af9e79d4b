//! What the loop keeps of the server's tools and of a call in flight.

use std::sync::Arc;

use mcpg_core::model::Tool;

/// One page of `tools/list`, as received.
#[derive(Clone, Debug, PartialEq)]
pub struct PageRecord {
    /// Page number, from 1.
    pub page: u32,
    /// Its tools. Shared: the page copies its list into the view on every page that
    /// arrives, and a big server's list holds thousands (issue #33).
    pub tools: Arc<[Tool]>,
    /// Its cursor for the next page.
    pub next_cursor: Option<String>,
}

/// The latest progress of the call in flight.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Progress so far.
    pub progress: f64,
    /// Total, when known.
    pub total: Option<f64>,
    /// The server's message.
    pub message: Option<String>,
}
