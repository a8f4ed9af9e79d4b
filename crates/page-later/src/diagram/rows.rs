//! Steps to rows: which arrows a step draws, between which lanes, labelled how, of
//! which kind. No coordinates here (`geometry` places the rows).

use mcpg_loop_data::{BlockKind, Step, StepStatus, is_answer, is_asked};

use super::read::{
    TaskWire, asked_what, calls_before, count_blocks, result, short_name, starts_run, task_wire,
    tool_name,
};
use super::{ArrowKind, DiagramInput, DiagramView, Lane, Target};

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
    /// A task's span opens (a call that runs as a 2025-11-25 task); `ClosePar`
    /// closes it.
    OpenTask,
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
        follow_ups: 0,
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

/// The views drawn: those whose step 5 is among the steps (a view outlives a
/// reset while it tears down, and a call the host refused has no step 5).
pub(super) fn shown_views<'a>(
    input: &'a DiagramInput<'_>,
) -> impl Iterator<Item = &'a DiagramView> {
    let steps = input.steps;
    input.views.iter().filter(move |v| {
        steps
            .get(v.step)
            .is_some_and(|s| s.number == 5 && s.status != StepStatus::Skipped)
    })
}

impl Rows<'_, '_> {
    /// The answer the model gave in step 6 at `answered`, then the user's next
    /// message (when the page knows it).
    fn follow_up(&mut self, answered: usize) {
        self.out.push(Item::Row(chat(
            Lane::Host,
            Lane::User,
            "answer".to_owned(),
            "The model's answer",
            Some(Target::Step(answered)),
        )));
        // The later messages are the last ones: a loop seeded with a prompt's
        // messages has more user turns before its first step.
        let later = self.input.follow_ups;
        let goes_on = self
            .input
            .steps
            .windows(2)
            .filter(|w| w[0].number == 6 && w[1].number == 3)
            .count();
        let first = later.len().saturating_sub(goes_on);
        if let Some(text) = later.get(first + self.follow_ups) {
            self.out.push(Item::Row(chat(
                Lane::User,
                Lane::Host,
                format!("“{text}”"),
                "A later message",
                None,
            )));
        }
        self.follow_ups += 1;
    }
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
    /// Later user messages drawn so far.
    follow_ups: usize,
}

impl Rows<'_, '_> {
    fn step(&mut self, i: usize, step: &Step) {
        let steps = self.input.steps;
        // Within one message a step 6 leads to step 4 or to the end: a step 3 after
        // it is the loop going on with a later message.
        if step.number == 3 && i > 0 && steps[i - 1].number == 6 {
            self.follow_up(i - 1);
        }
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
                let task = task_wire(step);
                // Inside a `par` frame the task's arrows go without a frame of their own.
                let span = task.is_some() && !self.in_par;
                if let Some(t) = &task {
                    if span {
                        self.out.push(Item::OpenTask);
                    }
                    self.task(i, t);
                }
                let (kind, label) = result(step);
                self.push(i, Lane::Server, Lane::Host, kind, label);
                if span {
                    self.out.push(Item::ClosePar);
                }
                let input = self.input;
                for v in shown_views(input).filter(|v| v.step == i) {
                    self.view(i, v, kind);
                }
            }
            _ => {}
        }
        let ends_run = !steps.get(i + 1).is_some_and(|s| matches!(s.number, 4 | 5));
        if self.in_par && ends_run {
            self.out.push(Item::ClosePar);
            self.in_par = false;
        }
    }

    /// A task's exchanges before its result: the handle, the polls (one arrow,
    /// however many), a cancel, the `tasks/result` request.
    fn task(&mut self, i: usize, t: &TaskWire) {
        self.push(
            i,
            Lane::Server,
            Lane::Host,
            ArrowKind::Mcp,
            "task handle".into(),
        );
        if t.polled {
            self.push(
                i,
                Lane::Host,
                Lane::Server,
                ArrowKind::Mcp,
                "tasks/get, polled".into(),
            );
        }
        if t.cancelled {
            self.push(
                i,
                Lane::Host,
                Lane::Server,
                ArrowKind::Mcp,
                "tasks/cancel".into(),
            );
        }
        if t.result {
            self.push(
                i,
                Lane::Host,
                Lane::Server,
                ArrowKind::Mcp,
                "tasks/result".into(),
            );
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

    /// The arrows of view `v`, shown for step 5 at `i` whose result arrow was of
    /// `kind`: the host hands the view the result (or tells it the call was
    /// cancelled, when there is none), then each call the view asked the host to
    /// make, in order, consecutive calls of one tool folded into one "×N" group.
    fn view(&mut self, i: usize, v: &DiagramView, kind: ArrowKind) {
        let handed = if matches!(kind, ArrowKind::ProtocolError | ArrowKind::Failed) {
            "tool-cancelled"
        } else {
            "tool-result"
        };
        let mut row = |from, to, kind, label: String, running| {
            self.push_view(i, v, (from, to, kind), label, running);
        };
        row(
            Lane::Host,
            Lane::View,
            ArrowKind::App,
            handed.into(),
            v.waiting,
        );
        let mut groups: Vec<(&str, usize)> = Vec::new();
        for name in &v.calls {
            match groups.last_mut() {
                Some((last, n)) if *last == name.as_str() => *n += 1,
                _ => groups.push((name, 1)),
            }
        }
        for (name, n) in groups {
            let times = if n > 1 {
                format!(" ×{n}")
            } else {
                String::new()
            };
            let call = format!("tools/call {name}{times}");
            let result = format!("result{times}");
            row(Lane::View, Lane::Host, ArrowKind::App, call.clone(), false);
            row(Lane::Host, Lane::Server, ArrowKind::Mcp, call, false);
            row(
                Lane::Server,
                Lane::Host,
                ArrowKind::Mcp,
                result.clone(),
                false,
            );
            row(Lane::Host, Lane::View, ArrowKind::App, result, false);
        }
    }

    /// Adds a row of view `v`, shown after step 5 at `i`: its number shows on the
    /// result's row above, and clicking it leads to the view's card.
    fn push_view(
        &mut self,
        i: usize,
        v: &DiagramView,
        (from, to, kind): (Lane, Lane, ArrowKind),
        label: String,
        running: bool,
    ) {
        // What crosses the wire here is the host's own request, made for the view.
        let whose = if kind == ArrowKind::Mcp {
            format!(", for the view of {}", v.tool)
        } else {
            String::new()
        };
        self.out.push(Item::Row(Row {
            from,
            to,
            kind,
            description: format!(
                "Step 5, {}{whose}, from {} to {}: {label}",
                kind.phrase(),
                from.phrase(),
                to.phrase()
            ),
            label,
            number: Some(5),
            shows_number: false,
            target: Some(Target::View { id: v.id, step: i }),
            current: self.input.current == Some(i),
            running,
        }));
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
