//! What the task tests of both kinds read from a session (2025-11-25 tasks and
//! the 2026-07-28 extension): the task events, the statuses, the requests sent,
//! and the ttl's end, which the two kinds share.

use std::time::Duration;

use mcpg_core::client::{CallOutcome, Event, Failure, OpId, TaskEvent, TaskStatus};
use mcpg_core::diag::{Rule, Severity};
use serde_json::Value;

use super::{Scripted, findings, outcomes};

/// The task events among `ev`.
pub fn task_events(ev: &[Event]) -> Vec<TaskEvent> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Task { event, .. } => Some(event.clone()),
            _ => None,
        })
        .collect()
}

/// The statuses the task events report, in order.
pub fn statuses(ev: &[Event]) -> Vec<TaskStatus> {
    task_events(ev)
        .into_iter()
        .filter_map(|e| match e {
            TaskEvent::Status { status, .. } => Some(status),
            _ => None,
        })
        .collect()
}

/// How many requests of `method` the client sent.
pub fn count(s: &Scripted, method: &str) -> usize {
    s.sent.iter().filter(|m| m.method() == Some(method)).count()
}

/// A task `t1` with a 2 s ttl, polled every second and answered `working` each
/// time: six polls, then at 7 s (the ttl plus 5 s of slack) the call `op` fails as
/// expired, with a warning, and nothing is polled afterwards.
pub fn gives_up_after_the_ttl(s: &mut Scripted, op: OpId, working: &Value) {
    for _ in 0..6 {
        s.advance(Duration::from_secs(1));
        s.reply("tasks/get", working.clone());
    }
    assert_eq!(count(s, "tasks/get"), 6);
    s.take();
    s.advance(Duration::from_secs(1));
    let ev = s.take();
    assert!(
        task_events(&ev).contains(&TaskEvent::Expired {
            task_id: "t1".into()
        }),
        "{ev:#?}"
    );
    assert_eq!(
        outcomes(&ev, op),
        [CallOutcome::Failed(Failure::TaskExpired {
            task_id: "t1".into(),
            ttl: Duration::from_secs(2)
        })]
    );
    assert!(findings(&ev).contains(&(Rule::Task, Severity::Warning)));
    s.advance(Duration::from_secs(10));
    assert_eq!(count(s, "tasks/get"), 6, "polled after giving up");
    assert_eq!(s.client.poll_timeout(), None);
}
