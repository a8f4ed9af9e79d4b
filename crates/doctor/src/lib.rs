//! The connection doctor, sans-IO: the ordered checks, their verdicts and the
//! judging of what a driver observed.
//!
//! A driver (the CLI's `mcpg doctor`; later the page's Doctor with browser
//! fetches) does the I/O: it resolves, connects, POSTs, spawns, and hands each
//! observation to a judging function here, which returns a [`Finding`]: the
//! [`Check`], a [`Verdict`], the evidence and the fix. The driver pushes them into
//! a [`Report`] in [`Check`] order and skips what depends on a failed check
//! ([`Report::skip_rest`]). Nothing here touches a socket, a process or a clock,
//! so it builds for wasm32 as it is.
//!
//! - [`check`]: the checks (stable ids), verdicts and findings.
//! - [`report`]: the ordered report, the worst verdict, the JSON shape for CI.
//! - [`network`]: name resolution, TCP, TLS.
//! - [`http`]: the POST of an MCP request, `Accept`, CORS for the page's origin.
//! - [`auth`]: a 401, protected-resource and authorization-server discovery.
//! - [`stdio`]: the program, its start-up.
//! - [`handshake`]: `server/discover`, `initialize`, the revisions on each side.
//! - [`tools`]: every page of `tools/list`, `x-mcp-header`, each tool's schemas.
//! - [`capabilities`]: what the server declared against what it answers.
//! - [`browser`]: the run a browser makes against a URL, as a state machine.
//! - [`advice`]: the fix for a JSON-RPC error (the seam for the advice table).

pub mod advice;
pub mod auth;
pub mod browser;
pub mod capabilities;
pub mod check;
pub mod handshake;
pub mod http;
pub mod network;
pub mod report;
pub mod stdio;
pub mod tools;

pub use check::{Check, Finding, Verdict};
pub use report::Report;
