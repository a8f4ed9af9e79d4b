//! Resources, prompts, completions and logs: the other half of MCP, beside the
//! tool loop. The driver keeps what the Resources, Prompts and Logs panels show
//! ([`view`]); this code, reached only through the engine ([`crate::Engine`], a
//! chunk the first load does not hold), turns their commands ([`FeatureCommand`])
//! into the core's requests (`ops`) and the core's events into view changes
//! (`events`), on the driver's parts a [`FeatureCtx`] lends it.
//!
//! As a host should, the page asks only for what the server declared: a listing,
//! a completion, a subscription or a log level the server's capabilities do not
//! offer is not sent, and the panel says why.

pub(crate) mod command;
mod ctx;
mod events;
mod ops;
pub(crate) mod state;
pub mod view;

pub use command::FeatureCommand;
pub use ctx::FeatureCtx;
pub(crate) use state::Tracked;

/// The Logs panel keeps this many of the newest log messages.
pub const LOG_MESSAGES: usize = 500;
