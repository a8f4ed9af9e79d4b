//! One configured server as a child process, relayed line by line without
//! interpretation: what the page sends goes to stdin as is, what the server prints
//! comes back as is (junk included: the page's core turns junk into diagnostics).
//!
//! `mcpg-transport`'s stdio link is not used here because it only carries decoded
//! JSON-RPC messages; a relay must also pass batches and junk through unchanged.

// The bounded line reader is the transport's: one discipline for both.
pub(crate) use mcpg_transport::stdio::read_line;
mod cut_answer;
mod queue;
mod stop;
mod supervise;

use std::process::Stdio;
use std::sync::Arc;

use mcpg_transport::stdio::Grace;
use tokio::process::Command;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};

use crate::config::{Limits, ServerSpec};
use crate::events::Channel;

pub(crate) use supervise::ExitInfo;

/// Longest stderr line kept; longer ones are cut with a note.
const MAX_STDERR_LINE: usize = 4096;
/// How many of the largest messages may wait for the WebSocket at once; output past
/// that is dropped with a notice ([`queue`]).
const OUTPUT_QUEUE_MESSAGES: usize = 2;

/// What comes out of a running server, in order.
#[derive(Debug)]
pub(crate) enum Out {
    /// One stdout line, exactly as written (lossy UTF-8); holds its share of the
    /// output budget until dropped.
    Line(queue::Line),
    /// The process is gone and reaped; nothing follows.
    Exit(ExitInfo),
}

/// Why a line could not be queued for the server's stdin.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum InputError {
    /// The server is not reading: too many bytes are already waiting.
    Full,
    /// The server's stdin is closed.
    Closed,
}

/// A running server. Dropping it stops the server (and reaps it).
#[derive(Debug)]
pub(crate) struct Running {
    /// Its process id (also its process group id).
    pub pid: u32,
    /// Lines out of it, then its exit.
    pub output: mpsc::UnboundedReceiver<Out>,
    input: mpsc::UnboundedSender<(String, OwnedSemaphorePermit)>,
    /// Bytes that may wait for stdin at once; a server that stops reading cannot
    /// make the bridge queue without bound.
    budget: Arc<Semaphore>,
    _stop: oneshot::Sender<()>,
}

impl Running {
    /// Queues one line for the server's stdin.
    pub(crate) fn send_line(&self, line: String) -> Result<(), InputError> {
        let n = u32::try_from(line.len().max(1)).map_err(|_| InputError::Full)?;
        let permit = self
            .budget
            .clone()
            .try_acquire_many_owned(n)
            .map_err(|_| InputError::Full)?;
        self.input
            .send((line, permit))
            .map_err(|_| InputError::Closed)
    }
}

/// Starts `spec`. `slot` is its place in the child budget, released once the
/// process is reaped; `channel` receives its side events. The variables in `hidden`
/// are removed from what it inherits (the server's own `env` may still set them:
/// the config said so explicitly).
pub(crate) fn spawn(
    spec: &ServerSpec,
    limits: &Limits,
    hidden: &[String],
    channel: Option<Arc<Channel>>,
    slot: OwnedSemaphorePermit,
) -> std::io::Result<Running> {
    let mut cmd = Command::new(&spec.command);
    for var in hidden {
        cmd.env_remove(var);
    }
    cmd.args(&spec.args)
        .envs(&spec.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own group, so the shutdown signals reach whatever it started too.
        .process_group(0)
        // A safety net only: the supervisor stops and reaps the process itself.
        .kill_on_drop(true);
    if let Some(dir) = &spec.cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn()?;
    let (Some(pid), Some(stdin), Some(stdout), Some(stderr)) = (
        child.id(),
        child.stdin.take(),
        child.stdout.take(),
        child.stderr.take(),
    ) else {
        let _ = child.start_kill();
        return Err(std::io::Error::other("the child's pipes were not set up"));
    };
    let (in_tx, in_rx) = mpsc::unbounded_channel();
    let (stop_tx, stop_rx) = oneshot::channel();
    let max = limits.max_message_bytes;
    let (out_tx, out_rx) =
        queue::bounded(max.saturating_mul(OUTPUT_QUEUE_MESSAGES), channel.clone());
    let budget = Arc::new(Semaphore::new(max.saturating_mul(4).min(u32::MAX as usize)));
    let job = supervise::Job {
        child,
        pipes: supervise::Pipes {
            stdin,
            stdout,
            stderr,
        },
        input: in_rx,
        output: out_tx,
        stop: stop_rx,
        channel,
        max_message: max,
        max_stderr_line: MAX_STDERR_LINE,
        grace: Grace::default(),
        slot,
    };
    tokio::spawn(supervise::run(job));
    Ok(Running {
        pid,
        output: out_rx,
        input: in_tx,
        budget,
        _stop: stop_tx,
    })
}
