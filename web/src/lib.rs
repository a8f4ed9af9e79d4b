//! The MCP Playground page. The Leptos app arrives with the page issue; for now the
//! crate proves that the core builds for the browser as a dependency.

pub use mcpg_core as core;
