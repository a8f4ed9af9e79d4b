//! Ending a server process the way the MCP spec asks (close stdin, wait, SIGTERM,
//! wait, SIGKILL) and always reaping it, so no zombie is left.
//!
//! Each server runs in its own process group, and the signals go to the group, so a
//! wrapper (`sh -c`, `npx`) does not leave its real server behind. Once the server
//! itself is reaped, whatever it started and left in its group is ended too
//! ([`end_group`]): a server's grandchildren stop with it.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

use mcpg_transport::stdio::Grace;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::process::Child;
use tokio::time::{Instant, sleep, timeout};

/// How often [`end_group`] looks whether the group is empty.
const POLL: Duration = Duration::from_millis(50);

/// Waits for the child after its stdin was closed, escalating to SIGTERM then
/// SIGKILL. `Err` only if it could not be waited for (it was still sent SIGKILL).
pub(crate) async fn stop(child: &mut Child, grace: Grace) -> std::io::Result<ExitStatus> {
    if let Ok(status) = timeout(grace.after_stdin, child.wait()).await {
        return status;
    }
    signal_group(child, Signal::SIGTERM);
    if let Ok(status) = timeout(grace.after_term, child.wait()).await {
        return status;
    }
    signal_group(child, Signal::SIGKILL);
    // Also through the handle, in case the group signal could not be sent.
    let _ = child.start_kill();
    child.wait().await
}

/// Sends `sig` to the child's process group (the child leads it).
pub(crate) fn signal_group(child: &Child, sig: Signal) {
    if let Some(pid) = child.id().and_then(|p| i32::try_from(p).ok()) {
        // ESRCH means it is gone already; the wait that follows picks that up.
        let _ = killpg(Pid::from_raw(pid), sig);
    }
}

/// Exit code and signal number of a status, for the `exit` event.
pub(crate) fn code_and_signal(status: &ExitStatus) -> (Option<i32>, Option<i32>) {
    (status.code(), status.signal())
}

/// Ends what is left of process group `pgid` after its leader (the server) was
/// reaped: SIGTERM now, SIGKILL after `grace` if anything is still there. The wait
/// runs in the background, so the exit report is not held up.
///
/// The group id cannot be reused while any member lives, and the wait stops as
/// soon as the group is empty, so the SIGKILL never reaches a stranger.
pub(crate) fn end_group(pgid: Option<u32>, grace: Duration) {
    let Some(pg) = pgid.and_then(|p| i32::try_from(p).ok()).map(Pid::from_raw) else {
        return;
    };
    // ESRCH: nobody was left in the group, the common case.
    if killpg(pg, Signal::SIGTERM).is_err() {
        return;
    }
    tokio::spawn(async move {
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            sleep(POLL).await;
            if killpg(pg, None).is_err() {
                return;
            }
        }
        let _ = killpg(pg, Signal::SIGKILL);
    });
}
