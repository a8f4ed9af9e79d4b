//! One sans-IO Streamable HTTP client machine for MCP (quinn-proto style): the
//! driver executes the [`HttpRequest`]s it asks for and feeds what the network did
//! back in through `handle_*`; the machine owns every protocol decision.
//!
//! It owns: the MCP headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
//! `Mcp-Param-*`, `Mcp-Session-Id`), status mapping (202, JSON vs
//! `text/event-stream`, 4xx/5xx, 404 with a session → `SessionExpired`), a bounded
//! SSE parser, resuming a cut SSE answer with `Last-Event-ID` after `retry`, the
//! standalone GET stream (2025-03-26 … 2025-11-25), cancellation per revision and the
//! closing DELETE. It also speaks the deprecated HTTP+SSE transport (2024-11-05),
//! alone or as the fallback when a Streamable HTTP `initialize` answers 400, 404 or
//! 405 (see `legacy.rs`). The native driver lives in `mcpg-transport`; the browser one is
//! [`fetch`] (wasm32 only).

pub mod cases;
mod config;
mod endpoint;
mod exchange;
pub mod guard;
mod headers;
mod hold;
mod legacy;
mod legacy_state;
mod machine;
mod requests;
pub mod sse;
mod stream;

pub use config::{HttpConfig, Transport};
pub use endpoint::EndpointError;
pub use legacy_state::TransportChoice;
pub use machine::HttpMachine;

pub use mcpg_net::{HttpEvent, HttpRequest, Method, NetEvent, NetFailure, ReqId};

#[cfg(target_arch = "wasm32")]
pub mod fetch;
