//! The later parts as the driver sees them: one trait, and the kit the shell hands
//! in (see `later.rs`).

use std::fmt;

use mcpg_core::Timestamp;
use mcpg_core::client::AnswerReaders;

use crate::http_port::{HttpPort, HttpRoute};
use crate::later::Later;
use crate::page::Page;

/// What loads after the first tool list, with its state: the one way the driver
/// reaches it. (No `Debug` bound: formatting the loop's whole state would come with
/// the chunk for nothing.)
pub trait LaterParts {
    /// Does `work` on `page` (what this queues runs after it returns).
    fn handle(&mut self, page: &mut Page, work: Later);
    /// The parts' next deadline (the running loop's pace), if any.
    fn poll_timeout(&self) -> Option<Timestamp>;
    /// Where each hosted MCP Apps view belongs in the loop, for the picture.
    fn app_lifelines(&self) -> Vec<crate::apps::AppLifeline>;
}

/// What the shell hands in once the later chunk is loaded.
pub struct LaterKit {
    /// The parts and their state.
    pub parts: Box<dyn LaterParts>,
    /// Makes the HTTP machine for a URL, reached directly or through the relay.
    pub http: fn(&str, HttpRoute) -> Box<dyn HttpPort>,
    /// The embedded demo's answers to tool calls, reads, prompts and completions.
    pub demo_handlers: &'static dyn mcpg_demo::Handlers,
    /// The client's readers of those answers and of what the server sends unasked.
    pub answer_readers: AnswerReaders,
}

impl fmt::Debug for LaterKit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LaterKit")
    }
}
