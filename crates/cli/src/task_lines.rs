//! A task's steps as lines on stderr, for `tools call --task` and `--verbose`: a
//! leaf module, so the connection code prints them without importing the commands.

use std::sync::Arc;

use mcpg_core::client::TaskEvent;
use mcpg_transport::{Observed, Observer};

use crate::escape;

/// Prints a task's steps on stderr (the result goes to stdout).
pub fn status_observer() -> Observer {
    Arc::new(|o: &Observed| {
        if let Observed::Task { event, .. } = o {
            eprintln!("{}", task_line(event));
        }
    })
}

/// One line for a task's step.
pub fn task_line(event: &TaskEvent) -> String {
    match event {
        TaskEvent::Created {
            task_id,
            ttl,
            poll_interval,
        } => {
            let ttl = ttl.map_or("unlimited".into(), |t| format!("{} s", t.as_secs_f64()));
            let poll =
                poll_interval.map_or("not given".into(), |p| format!("{} s", p.as_secs_f64()));
            format!(
                "task {}: created (ttl {ttl}, poll interval {poll})",
                escape::line(task_id)
            )
        }
        TaskEvent::Status { status, message } => match message {
            Some(m) => format!("task status: {status}: {}", escape::line(m)),
            None => format!("task status: {status}"),
        },
        TaskEvent::Expired { task_id } => format!(
            "task {}: outlived its ttl; stopped polling",
            escape::line(task_id)
        ),
    }
}
