//! The asks module (issue 14): what the server asks the host and the host's
//! answers. Runs natively and in headless Chromium; natively, every request and
//! reply is also checked against the official schema of each revision.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod elicit;
mod mrtr;
mod sampling;
#[cfg(not(target_arch = "wasm32"))]
mod spec;
