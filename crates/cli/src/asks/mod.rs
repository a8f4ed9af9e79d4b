//! What the server asks of mcpg (sampling, elicitation, roots; 2026-07-28 input
//! requests) and how mcpg answers: `flags` reads `--on-elicit`, `--on-sample`
//! and `--root`, `prompt` asks the person at the terminal.

pub mod flags;
pub mod prompt;

pub use flags::AskFlags;
