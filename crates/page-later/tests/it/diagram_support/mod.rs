//! What the diagram tests share: the page's way of drawing a shell's steps, and a
//! loop run to its end on the embedded demo.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_host::provider::Provider;
use mcpg_loop_data::{Pitfall, Pitfalls};
use mcpg_page::Command;
use mcpg_page_later::diagram::{ArrowKind, Diagram, DiagramInput, Lane, diagram};

use crate::support::Shell;

/// The diagram of the shell's steps as the page draws it (the last step current).
pub fn draw(s: &Shell, prompt: &str) -> Diagram {
    diagram(&DiagramInput {
        steps: &s.steps,
        prompt: (!s.steps.is_empty()).then_some(prompt),
        answered: s.answer.is_some(),
        provider: Provider::Anthropic,
        next_step: s.next_step,
        current: s.steps.len().checked_sub(1),
        views: &[],
        follow_ups: &[],
    })
}

/// Each arrow as (from, to, kind, label).
pub fn arrows(d: &Diagram) -> Vec<(Lane, Lane, ArrowKind, String)> {
    d.arrows
        .iter()
        .map(|a| (a.from, a.to, a.kind, a.label.clone()))
        .collect()
}

/// Runs `prompt` to its end with a naive host that makes mistake `pitfall`.
pub fn run_naive(prompt: &str, pitfall: Pitfall) -> Shell {
    let mut s = Shell::demo();
    s.cmd(Command::SetPitfalls(Pitfalls::only(pitfall)));
    s.cmd(Command::SetPrompt(prompt.into()));
    s.cmd(Command::Run);
    s.advance(10_000);
    assert!(s.answer.is_some(), "the loop ends: {:?}", s.numbers());
    s
}

/// A loop for `prompt`, run to the end.
pub fn run(prompt: &str) -> Shell {
    let mut s = Shell::demo();
    s.cmd(Command::SetPrompt(prompt.into()));
    s.cmd(Command::Run);
    s.advance(10_000);
    assert!(s.answer.is_some(), "the loop ends: {:?}", s.numbers());
    s
}
