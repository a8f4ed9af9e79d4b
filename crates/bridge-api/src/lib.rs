//! The bridge's own wire types: what `mcpg serve` and the page say to each other
//! outside MCP. One definition, used by the bridge (which writes them) and the page
//! (which reads them), so the two can never drift apart.
//!
//! - [`SideEvent`]: one event of the side channel `GET /api/events` (SSE), which
//!   reports what happens to a server process (spawned, stderr, exit, errors) apart
//!   from the MCP stream.
//! - [`ServerList`]: the answer of `GET /api/servers`: names, never commands.
//! - [`BridgeLink`]: the bridge's address and token in a hosted page's link
//!   fragment (`#bridge=http://127.0.0.1:PORT&token=…`), written by
//!   `mcpg serve --page-origin` and read by the page.
//!
//! JSON is read and written by hand over [`serde_json::Value`] (serde's traits are
//! implemented through it): a derived, internally tagged deserializer would buffer
//! through serde's `Content` and cost the page more than this whole crate.

mod json;
mod link;
mod servers;
mod side;

pub use json::WireError;
pub use link::{BridgeLink, BridgeLinkError};
pub use servers::{RemoteEntry, ServerEntry, ServerList};
pub use side::SideEvent;
