//! Resources, prompts, completions and logs: the other half of MCP, beside the
//! tool loop. These are the types the Resources, Prompts and Logs panels' commands
//! ([`FeatureCommand`]) and view ([`view`]) name; the code that turns commands into
//! the core's requests and events into view changes is the later parts'
//! (`mcpg-page-later`), which the first load does not hold.

pub(crate) mod command;
pub mod view;

pub use command::FeatureCommand;

/// The Logs panel keeps this many of the newest log messages.
pub const LOG_MESSAGES: usize = 500;
