//! The tasks behind a stdio link: supervisor, stdin writer, stdout and stderr readers.

use std::process::ExitStatus;
use std::time::Duration;

use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::Body;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::timeout;

use super::StdioConfig;
use super::lines::read_line;
use super::shutdown::{describe_exit, stop};
use crate::link::{CloseReport, LinkCommand, StderrLine, TransportEvent};

/// How long to wait for the readers to see end-of-file once the process is gone.
/// A grandchild that inherited the pipes can keep them open forever.
const DRAIN: Duration = Duration::from_secs(2);

/// The child's three pipes.
pub(crate) struct Pipes {
    pub stdin: ChildStdin,
    pub stdout: ChildStdout,
    pub stderr: ChildStderr,
}

/// Why the supervisor stops.
enum End {
    /// The driver asked (or went away).
    Requested,
    /// The process exited on its own.
    Exited(std::io::Result<ExitStatus>),
    /// stdout reached end-of-file while the process still ran.
    StdoutClosed,
}

/// Supervises one server process until it is gone, then reports [`TransportEvent::Closed`].
pub(crate) async fn run(
    mut child: Child,
    pipes: Pipes,
    mut commands: mpsc::UnboundedReceiver<LinkCommand>,
    events: mpsc::Sender<TransportEvent>,
    stderr_out: mpsc::Sender<StderrLine>,
    cfg: StdioConfig,
) {
    let (write_tx, write_rx) = mpsc::unbounded_channel();
    // A separate writer, so that a server that stops reading (full pipe) cannot
    // stall the supervisor: it must stay free to see a close request or an exit.
    let writer = tokio::spawn(write_lines(pipes.stdin, write_rx, events.clone()));
    let (eof_tx, mut eof_rx) = oneshot::channel();
    let mut stdout = tokio::spawn(read_stdout(
        pipes.stdout,
        events.clone(),
        cfg.max_message,
        eof_tx,
    ));
    let mut stderr = tokio::spawn(read_stderr(pipes.stderr, stderr_out, cfg.max_stderr_line));

    let end = loop {
        tokio::select! {
            cmd = commands.recv() => match cmd {
                Some(LinkCommand::Send(out)) => {
                    let _ = write_tx.send(*out);
                }
                Some(LinkCommand::Close) | None => break End::Requested,
            },
            status = child.wait() => break End::Exited(status),
            _ = &mut eof_rx => {
                // Most servers exit right after closing stdout; give it a moment.
                match timeout(cfg.grace.after_stdin, child.wait()).await {
                    Ok(status) => break End::Exited(status),
                    Err(_) => break End::StdoutClosed,
                }
            }
        }
    };

    let (status, reason, requested) = match end {
        End::Exited(status) => {
            drop(write_tx);
            writer.abort();
            (status, None, false)
        }
        End::Requested | End::StdoutClosed => {
            // Closing stdin is the first step of the spec's shutdown: let queued
            // messages go out first, but never wait on a server that stopped reading.
            drop(write_tx);
            let mut writer = writer;
            if timeout(Duration::from_millis(500), &mut writer)
                .await
                .is_err()
            {
                // Aborting the task drops ChildStdin, which closes the pipe.
                writer.abort();
            }
            let status = stop(&mut child, cfg.grace).await;
            let note = matches!(end, End::StdoutClosed).then_some("server closed its stdout; ");
            (status, note, matches!(end, End::Requested))
        }
    };
    // Deliver everything the server wrote before it went away.
    finish_reader(&mut stdout).await;
    finish_reader(&mut stderr).await;
    let (text, exit) = match status {
        Ok(s) => (format!("server {}", describe_exit(&s)), Some(s)),
        Err(e) => (format!("could not wait for the server process: {e}"), None),
    };
    let reason = format!("{}{text}", reason.unwrap_or(""));
    let _ = events
        .send(TransportEvent::Closed(CloseReport {
            reason,
            requested,
            exit,
        }))
        .await;
}

async fn finish_reader(task: &mut JoinHandle<()>) {
    if timeout(DRAIN, &mut *task).await.is_err() {
        task.abort();
    }
}

/// Writes each message as one line. JSON never needs a raw newline (inside strings
/// they are escaped), so any that appear are whitespace and become spaces.
async fn write_lines(
    mut stdin: ChildStdin,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
    events: mpsc::Sender<TransportEvent>,
) {
    while let Some(out) = rx.recv().await {
        let mut line = out.message.raw().replace(['\n', '\r'], " ");
        line.push('\n');
        let written = match stdin.write_all(line.as_bytes()).await {
            Ok(()) => stdin.flush().await,
            Err(e) => Err(e),
        };
        // A broken pipe means the server closed its stdin, which in practice means
        // it is exiting: its exit status, reported when it is reaped, says more than
        // the write error (and a request failed here would race that report).
        if let Err(e) = &written
            && e.kind() == std::io::ErrorKind::BrokenPipe
        {
            let _ = events
                .send(TransportEvent::Notice(
                    "the server closed its stdin; nothing more can be sent".into(),
                ))
                .await;
            break;
        }
        if let Err(e) = written
            && let Body::Request { id, .. } = out.message.body()
        {
            let failure =
                SendFailure::Network(format!("could not write to the server's stdin: {e}"));
            let _ = events
                .send(TransportEvent::SendFailed {
                    id: id.clone(),
                    failure,
                })
                .await;
        }
    }
    let _ = stdin.shutdown().await;
}

/// Reads stdout line by line; every non-blank line is one frame for the core.
async fn read_stdout(
    stdout: ChildStdout,
    events: mpsc::Sender<TransportEvent>,
    max: usize,
    eof: oneshot::Sender<()>,
) {
    let mut r = BufReader::new(stdout);
    loop {
        match read_line(&mut r, max).await {
            Ok(Some(line)) => {
                let ev = match line.cut_from {
                    // The core fails the request it answered at once, naming both sizes.
                    Some(n) => TransportEvent::Oversized {
                        request: None,
                        size: n,
                        limit: max,
                        head: line.bytes[..line.bytes.len().min(4096)].to_vec(),
                    },
                    None if line.bytes.iter().all(u8::is_ascii_whitespace) => continue,
                    None => match String::from_utf8(line.bytes) {
                        Ok(text) => TransportEvent::Frame(text),
                        Err(e) => TransportEvent::NotUtf8(e.into_bytes()),
                    },
                };
                if events.send(ev).await.is_err() {
                    break;
                }
            }
            Ok(None) => break,
            Err(e) => {
                let _ = events
                    .send(TransportEvent::Notice(format!(
                        "reading the server's stdout failed: {e}"
                    )))
                    .await;
                break;
            }
        }
    }
    let _ = eof.send(());
}

/// Reads stderr line by line into a bounded queue; when the driver falls behind,
/// lines are dropped and counted rather than buffered without limit.
async fn read_stderr(stderr: ChildStderr, out: mpsc::Sender<StderrLine>, max: usize) {
    let mut r = BufReader::new(stderr);
    let mut dropped = 0u64;
    while let Ok(Some(line)) = read_line(&mut r, max).await {
        let mut text = String::from_utf8_lossy(&line.bytes).into_owned();
        if let Some(n) = line.cut_from {
            text.push_str(&format!(" [… cut, {n} bytes]"));
        }
        match out.try_send(StderrLine {
            text,
            dropped_before: dropped,
        }) {
            Ok(()) => dropped = 0,
            Err(TrySendError::Full(_)) => dropped += 1,
            // Nobody listens any more; keep draining so the server never blocks.
            Err(TrySendError::Closed(_)) => {}
        }
    }
}
