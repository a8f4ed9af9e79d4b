//! The host side of MCP Apps, natively: tool metadata and visibility, view
//! resources and their CSP, and the dialogue's order rules under a virtual clock.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod meta;
mod resource;
mod session;
