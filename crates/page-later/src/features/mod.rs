//! The Resources, Prompts and Logs panels' code: their commands
//! (`mcpg_page::FeatureCommand`) turned into the core's requests (`ops`) and the
//! core's events into view changes (`events`), on a [`FeatureCtx`].
//!
//! As a host should, the page asks only for what the server declared: a listing,
//! a completion, a subscription or a log level the server's capabilities do not
//! offer is not sent, and the panel says why.

mod ctx;
mod events;
mod ops;
pub(crate) mod state;

pub(crate) use ctx::FeatureCtx;
pub(crate) use mcpg_page::features::{LOG_MESSAGES, view};
pub(crate) use state::Tracked;
