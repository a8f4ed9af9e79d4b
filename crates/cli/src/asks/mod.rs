//! What the server asks of mcpg (sampling, elicitation, roots; 2026-07-28 input
//! requests) and how mcpg answers, the same way for every command and for the
//! conformance client: `flags` reads `--on-elicit`, `--on-sample` and `--root`,
//! `answer` turns them into an [`Answerer`] over `mcpg_host::asks::Policy`,
//! `prompt` asks the person at the terminal, `show` prints asks and answers,
//! `call` continues `input_required` tool calls.

pub mod answer;
pub mod call;
pub mod flags;
pub mod prompt;
pub mod show;

use std::io::IsTerminal;
use std::sync::Arc;

pub use answer::Answerer;
pub use flags::AskFlags;

use crate::exit::Failure;

/// The answerer the flags ask for (`None` without any), or a usage error.
pub fn from_flags(flags: &AskFlags) -> Result<Option<Arc<Answerer>>, Failure> {
    let checked = flags
        .check(std::io::stdin().is_terminal())
        .map_err(|e| Failure::usage(e.to_string()))?;
    Ok(Answerer::new(&checked).map(Arc::new))
}

/// The answerer of `mcpg loop` and `mcpg eval` ([`Answerer::like_the_page`]), or a
/// usage error.
pub fn like_the_page(flags: &AskFlags) -> Result<Arc<Answerer>, Failure> {
    let checked = flags
        .check(std::io::stdin().is_terminal())
        .map_err(|e| Failure::usage(e.to_string()))?;
    Ok(Arc::new(Answerer::like_the_page(&checked)))
}
