//! The stdio transport: the server is a child process; one JSON-RPC message per line
//! on its stdin and stdout; its stderr is a log, kept apart from the messages.
//!
//! Three tasks per server: a supervisor (owns the process, forwards sends, runs the
//! shutdown), a stdout reader and a stderr reader. The readers always drain their
//! pipe, so a chatty server never blocks on a full pipe.

mod lines;
mod shutdown;
mod supervise;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Stdio;

use tokio::process::Command;
use tokio::sync::mpsc;

use crate::error::TransportError;
use crate::link::Link;

pub use lines::{BoundedLine, read_line};
pub use shutdown::{Grace, describe_exit};

/// How many stderr lines may wait for the driver before new ones are dropped.
const STDERR_QUEUE: usize = 1024;

/// How to start a server.
#[derive(Clone, Debug)]
pub struct StdioConfig {
    /// The program (looked up on `PATH` when it has no slash).
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Variables added to (or overriding) the inherited environment.
    pub env: Vec<(OsString, OsString)>,
    /// Working directory; the caller's when `None`.
    pub cwd: Option<PathBuf>,
    /// Shutdown timing.
    pub grace: Grace,
    /// Longest stdout line accepted; longer ones are dropped with a notice.
    pub max_message: usize,
    /// Longest stderr line kept; longer ones are cut.
    pub max_stderr_line: usize,
    /// Start the server in a process group of its own, so that a Ctrl-C at the
    /// terminal reaches only the client, which then stops the server the spec's
    /// way instead of the server dying under it.
    pub own_process_group: bool,
}

impl StdioConfig {
    /// A config for `program args…` with default limits.
    pub fn new<P: Into<OsString>, A: Into<OsString>>(
        program: P,
        args: impl IntoIterator<Item = A>,
    ) -> Self {
        StdioConfig {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            cwd: None,
            grace: Grace::default(),
            max_message: 32 << 20,
            max_stderr_line: 4096,
            own_process_group: false,
        }
    }

    /// Adds one environment variable.
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Sets the working directory.
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }
}

/// Starts the server and returns the link to it. Must run inside a tokio runtime.
pub fn spawn(cfg: StdioConfig) -> Result<Link, TransportError> {
    let mut cmd = Command::new(&cfg.program);
    cmd.args(&cfg.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A safety net only: the supervisor stops and reaps the process itself.
        .kill_on_drop(true);
    for (k, v) in &cfg.env {
        cmd.env(k, v);
    }
    if let Some(dir) = &cfg.cwd {
        cmd.current_dir(dir);
    }
    if cfg.own_process_group {
        cmd.process_group(0);
    }
    let program = cfg.program.to_string_lossy().into_owned();
    let mut child = cmd.spawn().map_err(|source| TransportError::Spawn {
        program: program.clone(),
        source,
    })?;
    let pid = child.id();
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(TransportError::Spawn {
            program,
            source: std::io::Error::other("the child's pipes were not set up"),
        });
    };
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let (ev_tx, ev_rx) = mpsc::channel(64);
    let (err_tx, err_rx) = mpsc::channel(STDERR_QUEUE);
    let pipes = supervise::Pipes {
        stdin,
        stdout,
        stderr,
    };
    tokio::spawn(supervise::run(child, pipes, cmd_rx, ev_tx, err_tx, cfg));
    Ok(Link::new("stdio", pid, cmd_tx, ev_rx, Some(err_rx)))
}
