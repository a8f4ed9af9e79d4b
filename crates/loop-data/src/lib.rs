//! The tool loop as plain data: what the page shows and records of it, without the
//! host's code (`mcpg-host`) that makes it. The page's first screen may name these
//! types; only what loads later may run the loop.
//!
//! - [`Step`], [`JsonBlock`], [`BlockKind`], [`StepStatus`]: the six steps as they
//!   happened.
//! - [`PageRecord`], [`Progress`]: the server's tool pages, a call's progress.
//! - [`Turn`], [`ModelTurn`], [`ToolCall`], [`ToolOutput`], [`ResultView`]: the
//!   neutral conversation every provider format renders from.
//! - [`Provider`]: the five LLM APIs, by name.
//! - [`SchemaError`], [`Root`].
//! - [`Pitfall`], [`Pitfalls`], [`HostChoice`]: the classic host mistakes a lesson
//!   switches on (the naive host), and what the host chose at each step.

mod capabilities;
mod pitfalls;
mod provider;
mod reply;
mod root;
mod schema_error;
mod step;
mod tools;
mod turn;

pub use capabilities::{APPS_EXTENSION, APPS_MIME, client_capabilities, page_capabilities};
pub use pitfalls::{HostChoice, Pitfall, Pitfalls};
pub use provider::{Provider, default_base, default_model, needs_key};
pub use reply::{ElicitAction, Reply, SAMPLING_REJECTED, Sampled};
pub use root::Root;
pub use schema_error::SchemaError;
pub use step::{
    BlockKind, JsonBlock, REINDENT_MAX, Step, StepStatus, TITLE_NO_RESULT, TITLE_RPC_ERROR, TITLES,
    is_answer, is_asked,
};
pub use tools::{PageRecord, Progress};
pub use turn::{ModelTurn, ResultView, ToolCall, ToolOutput, Turn};
