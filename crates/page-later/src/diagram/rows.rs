//! Steps to rows: which arrows a step draws, between which lanes, labelled how, of
//! which kind. No coordinates here (`geometry` places the rows).

use mcpg_loop_data::{BlockKind, Step, StepStatus, is_answer, is_asked};

use super::read::{
    asked_what, calls_before, count_blocks, result, short_name, starts_run, tool_name,
};
use super::{ArrowKind, DiagramInput, Lane, Target};

/// One arrow before it is placed.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Row {
    pub from: Lane,
    pub to: Lane,
    pub kind: ArrowKind,
    /// The whole label (`geometry` shortens it to fit).
    pub label: String,
    pub description: String,
    pub number: Option<u8>,
    pub shows_number: bool,
    pub target: Option<Target>,
    pub current: bool,
    pub running: bool,
}

/// A row, or the start or end of a `par` frame around the rows between.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Item {
    Row(Row),
    /// A frame opens: `calls` calls drawn so far, `complete` when no more are coming.
    OpenPar {
        calls: usize,
        complete: bool,
    },
    ClosePar,
}

/// The rows of `input`, top to bottom.
pub(super) fn rows(input: &DiagramInput<'_>) -> Vec<Item> {
    let steps = input.steps;
    let mut out = Vec::new();
    if steps.is_empty() {
        return out;
    }
    if let Some(prompt) = input.prompt {
        out.push(Item::Row(chat(
            Lane::User,
            Lane::Host,
            format!("“{prompt}”"),
            "Your message",
            None,
        )));
    }
    let mut rows = Rows {
        input,
        out,
        in_par: false,
    };
    for (i, step) in steps.iter().enumerate() {
        rows.step(i, step);
    }
    let mut out = rows.out;
    if input.answered {
        out.push(Item::Row(chat(
            Lane::Host,
            Lane::User,
            "answer".to_owned(),
            "The model's answer",
            Some(Target::Answer),
        )));
    }
    out
}

/// A row of the chat around the loop (the message, the answer).
fn chat(from: Lane, to: Lane, label: String, what: &str, target: Option<Target>) -> Row {
    Row {
        from,
        to,
        kind: ArrowKind::User,
        description: format!("{what}, from {} to {}: {label}", from.phrase(), to.phrase()),
        label,
        number: None,
        shows_number: false,
        target,
        current: false,
        running: false,
    }
}

struct Rows<'a, 'b> {
    input: &'a DiagramInput<'b>,
    out: Vec<Item>,
    in_par: bool,
}

impl Rows<'_, '_> {
    fn step(&mut self, i: usize, step: &Step) {
        let steps = self.input.steps;
        let running = step.status == StepStatus::Running;
        let failed = step.status == StepStatus::Failed;
        match step.number {
            1 => {
                let sent = count_blocks(step, false).max(1);
                let pages = count_blocks(step, true);
                let times = if sent > 1 {
                    format!(" ×{sent}")
                } else {
                    String::new()
                };
                self.push(
                    i,
                    Lane::Host,
                    Lane::Server,
                    ArrowKind::Mcp,
                    format!("tools/list{times}"),
                );
                if failed {
                    self.push(
                        i,
                        Lane::Server,
                        Lane::Host,
                        ArrowKind::Failed,
                        "list failed".into(),
                    );
                } else if pages > 0 {
                    let label = match pages {
                        1 => "tools".to_owned(),
                        n => format!("tools, {n} pages"),
                    };
                    self.push(i, Lane::Server, Lane::Host, ArrowKind::Mcp, label);
                }
            }
            2 => {
                let label = format!("reshape → {}", short_name(self.input.provider));
                self.push(i, Lane::Host, Lane::Host, ArrowKind::Host, label);
            }
            3 | 6 => {
                let ask = if step.number == 3 {
                    "tools + message".to_owned()
                } else {
                    match calls_before(steps, i) {
                        0 | 1 => "feed back the result".to_owned(),
                        n => format!("feed back {n} results"),
                    }
                };
                self.push(i, Lane::Host, Lane::Model, ArrowKind::Host, ask);
                if failed {
                    self.push(
                        i,
                        Lane::Model,
                        Lane::Host,
                        ArrowKind::Failed,
                        "model error".into(),
                    );
                } else if !running {
                    let reply = self.pick(i);
                    self.push(i, Lane::Model, Lane::Host, ArrowKind::Host, reply);
                }
            }
            4 => {
                if starts_run(steps, i) {
                    let (calls, pending) = self.run_calls(i);
                    if calls + usize::from(pending) > 1 {
                        self.out.push(Item::OpenPar {
                            calls: calls + usize::from(pending),
                            complete: !pending,
                        });
                        self.in_par = true;
                    }
                }
                // The careful host refused the call (its Built block is what it
                // would have sent): nothing went to the server.
                let refused = failed && step.blocks.iter().any(|b| b.kind == BlockKind::Built);
                let (to, kind, label) = if refused {
                    (
                        Lane::Host,
                        ArrowKind::Failed,
                        "tools/call refused".to_owned(),
                    )
                } else if failed {
                    (
                        Lane::Server,
                        ArrowKind::Failed,
                        "tools/call not sent".to_owned(),
                    )
                } else {
                    let label = format!("tools/call {}", tool_name(step));
                    (Lane::Server, ArrowKind::Mcp, label)
                };
                self.push(i, Lane::Host, to, kind, label.trim_end().to_owned());
                self.asked(i, step);
            }
            // No call was sent (the host refused it): no result either.
            5 if step.status == StepStatus::Skipped => {}
            5 => {
                let (kind, label) = result(step);
                self.push(i, Lane::Server, Lane::Host, kind, label);
            }
            _ => {}
        }
        let ends_run = !steps.get(i + 1).is_some_and(|s| matches!(s.number, 4 | 5));
        if self.in_par && ends_run {
            self.out.push(Item::ClosePar);
            self.in_par = false;
        }
    }

    /// The questions the server asked while step `i`'s call waited (server to host),
    /// and the host's answers (host to server), in the order they crossed the wire.
    fn asked(&mut self, i: usize, step: &Step) {
        for b in step.blocks.iter().skip(1) {
            if is_asked(b) {
                self.push(
                    i,
                    Lane::Server,
                    Lane::Host,
                    ArrowKind::ServerRequest,
                    asked_what(b),
                );
            } else if is_answer(b) {
                self.push(
                    i,
                    Lane::Host,
                    Lane::Server,
                    ArrowKind::ServerRequest,
                    "answer".into(),
                );
            }
        }
    }

    /// Adds a row of step `i`; the step's first row shows its number.
    fn push(&mut self, i: usize, from: Lane, to: Lane, kind: ArrowKind, label: String) {
        let Some(step) = self.input.steps.get(i) else {
            return;
        };
        let shows_number = !self.out.iter().any(
            |it| matches!(it, Item::Row(r) if r.target == Some(Target::Step(i)) && r.shows_number),
        );
        let route = if from == to {
            String::new()
        } else {
            format!(", from {} to {}", from.phrase(), to.phrase())
        };
        self.out.push(Item::Row(Row {
            from,
            to,
            kind,
            description: format!("Step {}, {}{route}: {label}", step.number, kind.phrase()),
            label,
            number: Some(step.number),
            shows_number,
            target: Some(Target::Step(i)),
            current: self.input.current == Some(i),
            running: step.status == StepStatus::Running,
        }));
    }

    /// What the model's turn at `i` did, from the steps that follow it.
    fn pick(&self, i: usize) -> String {
        let steps = self.input.steps;
        if steps.get(i + 1).is_some_and(|s| s.number == 4) {
            let (calls, pending) = self.run_calls(i + 1);
            return match (calls, pending) {
                (1, false) => steps
                    .get(i + 1)
                    .map_or_else(String::new, |s| format!("picks {}", tool_name(s))),
                (n, false) => format!("picks {n} tools"),
                _ => "picks tools".to_owned(),
            };
        }
        if i + 1 == steps.len() && self.input.next_step == Some(4) {
            "picks a tool".to_owned()
        } else {
            "answers".to_owned()
        }
    }

    /// The calls in the run of steps 4 and 5 starting at `i`, and whether another is
    /// still to come (the run is the last thing drawn and step 4 is next).
    fn run_calls(&self, i: usize) -> (usize, bool) {
        let steps = self.input.steps;
        let run: Vec<&Step> = steps
            .iter()
            .skip(i)
            .take_while(|s| matches!(s.number, 4 | 5))
            .collect();
        let calls = run.iter().filter(|s| s.number == 4).count();
        let pending = i + run.len() == steps.len() && self.input.next_step == Some(4);
        (calls, pending)
    }
}
