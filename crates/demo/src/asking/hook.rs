//! The hook that keeps the asking tools' code apart: the server reaches it only
//! through [`Asking`], so a host can build the server without it and hand it in later.

use std::fmt;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::RequestId;
use mcpg_core::model::{CallToolResult, JsonObject};
use mcpg_core::server::AskOutcome;

use super::Kind;
use crate::DemoServer;

/// The asking tools' code, reached through this trait object only: a host whose
/// first screen calls no tool (the page, before its loop's code is in) builds the
/// server without it ([`DemoServer::without_asking`]) and hands it in later, so it
/// stays out of that host's first download. [`DemoServer::new`] has it from the start.
pub trait Asking: Sync + fmt::Debug {
    /// Starts the asking tool `kind` called as `name` with `args` (call `id`).
    fn ask(
        &self,
        demo: &mut DemoServer,
        now: Timestamp,
        id: &RequestId,
        kind: Kind,
        call: (&str, &JsonObject),
    );
    /// The client answered (or did not) the question `ask`.
    fn answered(
        &self,
        demo: &mut DemoServer,
        now: Timestamp,
        ask: &RequestId,
        outcome: &AskOutcome,
    );
    /// Finishes the URL steps whose pretend site reported back by `now`.
    fn complete_links(&self, demo: &mut DemoServer, now: Timestamp);
}

/// The one [`Asking`].
#[derive(Debug)]
struct Tools;

impl Asking for Tools {
    fn ask(
        &self,
        demo: &mut DemoServer,
        now: Timestamp,
        id: &RequestId,
        kind: Kind,
        (name, args): (&str, &JsonObject),
    ) {
        demo.ask(now, id, kind, name, args);
    }

    fn answered(
        &self,
        demo: &mut DemoServer,
        now: Timestamp,
        ask: &RequestId,
        outcome: &AskOutcome,
    ) {
        demo.answered(now, ask, outcome);
    }

    fn complete_links(&self, demo: &mut DemoServer, now: Timestamp) {
        demo.complete_links(now);
    }
}

/// The asking tools' code, for [`DemoServer::set_asking`].
pub fn asking() -> &'static dyn Asking {
    static TOOLS: Tools = Tools;
    &TOOLS
}

/// What an asking tool answers while its code is not in yet.
pub(crate) fn not_loaded(name: &str) -> CallToolResult {
    CallToolResult::tool_error(format!(
        "{name} asks the client a question, and the code for that is not loaded yet (the page loads it with the tool loop's code). Try again in a moment."
    ))
}
