//! The loop's state turned into view changes (only what changed since the last
//! time, so the shell writes each signal once per change), and run mode's switches.

use mcpg_core::client::CallOutcome;
use mcpg_host::Action;
use mcpg_page::{CallView, Page, ViewChange};

use crate::parts::LoopParts;

impl LoopParts {
    pub(crate) fn set_running(&mut self, page: &mut Page, on: bool) {
        self.running = on;
        if !on {
            self.pace_due = None;
        }
        if self.shown.running != on {
            self.shown.running = on;
            page.emit(ViewChange::Running(on));
        }
    }

    pub(crate) fn set_model_busy(&mut self, page: &mut Page, on: bool) {
        if self.shown.model_busy != on {
            self.shown.model_busy = on;
            page.emit(ViewChange::ModelBusy(on));
        }
    }

    /// Whether the loop has something to do now (not waiting, not done).
    pub(crate) fn actionable(&self) -> bool {
        self.run
            .as_ref()
            .is_some_and(|r| !matches!(r.next(), Action::Wait | Action::Done))
    }

    /// Turns the loop's state into view changes (only what changed).
    pub(crate) fn sync_loop(&mut self, page: &mut Page) {
        let Some(run) = &self.run else { return };
        let mut changes = Vec::new();
        let sh = &mut self.shown;
        if sh.steps.as_slice() != run.steps() {
            sh.steps = run.steps().to_vec();
            changes.push(ViewChange::Steps(sh.steps.clone()));
            // What a shared session records of the loop so far.
            page.recorder.loop_played = run.played().iter().map(|t| t.to_value()).collect();
            page.recorder.loop_steps = run
                .steps()
                .iter()
                .map(|x| serde_json::json!({"n": x.number, "status": x.status.as_str()}))
                .collect();
        }
        let next = run.next_step_number();
        if sh.next_step != next {
            sh.next_step = next;
            changes.push(ViewChange::NextStep(next));
        }
        let active = !run.is_done();
        if !active {
            // The loop is over: the host acts by the setting again.
            page.loop_pitfalls = None;
        }
        if sh.loop_active != active {
            sh.loop_active = active;
            changes.push(ViewChange::LoopActive(active));
        }
        if sh.turns.as_slice() != run.turns() {
            sh.turns = run.turns().to_vec();
            changes.push(ViewChange::Turns(sh.turns.clone()));
        }
        if sh.rounds != run.rounds() {
            sh.rounds = run.rounds();
            changes.push(ViewChange::Rounds(sh.rounds));
        }
        let answer = run.answer().map(str::to_owned);
        if sh.answer != answer {
            sh.answer.clone_from(&answer);
            changes.push(ViewChange::Answer(answer));
        }
        let progress = run.progress().cloned();
        if sh.progress != progress {
            sh.progress.clone_from(&progress);
            changes.push(ViewChange::Progress(progress));
        }
        // When the loop's listing completes it is the latest one: the Tools panel shows it.
        if !self.run_pages_shown
            && !run.pages().is_empty()
            && run.next_step_number().is_none_or(|n| n > 1)
        {
            self.run_pages_shown = true;
            if page.pages.as_slice() != run.pages() {
                page.pages = run.pages().to_vec();
                page.pages_dirty = true;
            }
        }
        if let Some(c) = run.call() {
            let outcome = run.outcome();
            let check = match (run.called_tool(), outcome) {
                (Some(t), Some(CallOutcome::Success(r) | CallOutcome::ToolError(r))) => {
                    mcpg_host::schema::check_structured(t, r)
                }
                _ => None,
            };
            // Compared in place, copied only when it changed: the outcome can be a
            // 10 MB answer, and this runs after every message (issue #33: a copy
            // each time was ~8 ms of the answer's longest task).
            let same = sh.call.as_ref().is_some_and(|v| {
                v.tool == c.name
                    && v.arguments == c.arguments
                    && v.outcome.as_ref() == outcome
                    && v.check == check
            });
            if !same {
                let view = CallView {
                    tool: c.name.clone(),
                    arguments: c.arguments.clone(),
                    outcome: outcome.cloned(),
                    check,
                };
                sh.call = Some(view.clone());
                changes.push(ViewChange::Call(Some(Box::new(view))));
            }
        }
        if !active && self.running {
            self.set_running(page, false);
        }
        for c in changes {
            page.emit(c);
        }
    }
}
