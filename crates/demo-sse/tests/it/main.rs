//! The in-page demo over HTTP: the old HTTP+SSE face on its own (sessions, the
//! 405, the `endpoint` event, 202 then the answer on the stream, refusals, a
//! closed or cut stream), the Streamable HTTP face beside it, and both driven by
//! the page's own HTTP machine (`mcpg_http`) under a virtual clock.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod face;
mod held;
mod machine;
mod server;
mod stateless;
