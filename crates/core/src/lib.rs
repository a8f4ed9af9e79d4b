//! The MCP Playground protocol core.
//!
//! Sans-IO: no sockets, no processes, no async runtime, no clock. Drivers (the CLI,
//! the bridge, the browser page, the tests) feed received text and the current
//! [`Timestamp`] in through `handle_*` methods and take frames to send and events out
//! through `poll_*` methods. The same code compiles to wasm32 and natively.
//!
//! - [`jsonrpc`]: JSON-RPC 2.0 messages that keep their exact wire text.
//! - [`model`]: typed views of tools, resources, prompts, completions, logs, results
//!   and content, named as in the spec.
//! - [`client`]: the client session (both protocol generations, pagination, calls,
//!   progress, cancellation, timeouts, server-to-client requests, resources, prompts,
//!   completions, subscriptions, logging, diagnostics).
//! - [`server`]: the server session (enough to host the demo server in the page).
//! - [`diag`] and [`validate`]: spec checks that name the rule and section.

pub mod client;
pub mod diag;
mod fmt;
pub mod jsonrpc;
pub mod model;
pub mod server;
pub mod time;
pub mod validate;
pub mod version;

pub use time::Timestamp;
pub use version::{Generation, ProtocolVersion};
