//! Stopping a server process the way the spec asks (close stdin, wait, SIGTERM,
//! wait, SIGKILL) and always reaping it, so no zombie is left behind.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use tokio::process::Child;
use tokio::time::timeout;

/// How long each step of the shutdown may take.
#[derive(Clone, Copy, Debug)]
pub struct Grace {
    /// After closing stdin, before SIGTERM.
    pub after_stdin: Duration,
    /// After SIGTERM, before SIGKILL.
    pub after_term: Duration,
}

impl Default for Grace {
    fn default() -> Self {
        Grace {
            after_stdin: Duration::from_secs(2),
            after_term: Duration::from_secs(2),
        }
    }
}

/// Waits for the child to exit after its stdin was closed, escalating to SIGTERM and
/// then SIGKILL. Returns how it ended; `Err` only if the process could not be waited
/// for at all (then it was at least sent SIGKILL).
pub(crate) async fn stop(child: &mut Child, grace: Grace) -> std::io::Result<ExitStatus> {
    if let Ok(status) = timeout(grace.after_stdin, child.wait()).await {
        return status;
    }
    if let Some(pid) = child.id().and_then(|p| i32::try_from(p).ok()) {
        // ESRCH means it exited in the meantime; wait() below picks that up.
        let _ = kill(Pid::from_raw(pid), Signal::SIGTERM);
    }
    if let Ok(status) = timeout(grace.after_term, child.wait()).await {
        return status;
    }
    // `kill` sends SIGKILL and waits, which reaps the process.
    child.kill().await?;
    child.wait().await
}

/// Describes an exit status in words: `exited with status 3`, `was killed by SIGKILL`.
pub fn describe_exit(status: &ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with status {code}");
    }
    match status.signal() {
        Some(sig) => match Signal::try_from(sig) {
            Ok(s) => format!("was killed by {}", s.as_str()),
            Err(_) => format!("was killed by signal {sig}"),
        },
        None => "ended in an unknown way".to_owned(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn exit_statuses_read_naturally() {
        assert_eq!(
            describe_exit(&ExitStatus::from_raw(3 << 8)),
            "exited with status 3"
        );
        assert_eq!(
            describe_exit(&ExitStatus::from_raw(9)),
            "was killed by SIGKILL"
        );
    }
}
