//! The host's side of MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865), sans-IO:
//! which tools link a view and who may call them (`meta`), a view's resource
//! checked and its declared CSP as a policy (`resource`), and one view's JSON-RPC
//! dialogue with the host (`session`), with time passed in and every message
//! reported for the wire log's app ↔ host lane.
//!
//! The page hosts the frame and moves `postMessage` data in and out; the CLI's
//! `mcpg apps check` uses `meta` and `resource` alone.

mod meta;
mod resource;
mod session;

pub use meta::{ToolUi, UI_SCHEME, Visibility, for_model};
pub use resource::{Csp, MAX_HTML_BYTES, MIME, ResourceError, UiResource, source};
pub use session::{
    APPS_VERSION, AppEvent, AppSession, DisplayMode, FLOOD_LIMIT, FLOOD_WINDOW_MS, Failure,
    HostSetup, INIT_MS, Phase, Refusal, ServerAsk, TEARDOWN_MS, Ticket,
};

/// The extension's identifier, declared in the client's capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
