//! The host's own work in the MCP tool loop, sans-IO.
//!
//! MCP carries steps 1, 4 and 5 of the loop (`tools/list`, `tools/call`, the
//! `CallToolResult`); steps 2, 3 and 6 happen inside the host. This crate is that
//! host side, pure and target-independent, so the page (wasm) and the tests (native
//! and in Chromium) run the same code:
//!
//! - [`tool_loop`]: the six-step loop as a state machine the page drives, recording
//!   each step with its exact JSON and an explanation.
//! - [`provider`]: the model APIs' formats (steps 2, 3 and 6 in each provider's
//!   exact JSON) over one provider-neutral conversation.
//! - [`mock`]: a deterministic mock model for step 3 and step 6.
//! - [`script`]: scripted model turns, played instead of the mock (demos, replays).
//! - [`schema`]: a small JSON Schema checker (forms, `structuredContent`).
//! - [`asks`]: what the server asks the host (sampling, elicitation, roots, MRTR) and the answers.
//! - [`form`]: a tool's `inputSchema` as form fields, and back to arguments.
//! - [`lint`]: what each provider format would reject, rewrite or drop of a tool.
//!
//! Like the core, it does no I/O and reads no clock.

pub mod asks;
pub mod form;
pub mod lint;
pub mod mock;
pub mod provider;
pub mod schema;
pub mod script;
pub mod text;
pub mod tool_loop;

pub use mock::{MockModel, MockTurn};
pub use tool_loop::{Action, Step, StepStatus, ToolLoop};
