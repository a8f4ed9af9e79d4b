//! The tasks behind a running server: supervisor, stdin writer, stdout and stderr
//! readers. The readers always drain their pipes, so a chatty server never blocks on
//! a full pipe; stdout goes into a byte-bounded queue for the WebSocket, and what does
//! not fit is dropped with a notice (see `queue`).

use std::sync::Arc;
use std::time::Duration;

use mcpg_transport::stdio::{Grace, describe_exit};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::{OwnedSemaphorePermit, mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::timeout;

use super::Out;
use super::cut_answer;
use super::queue::OutQueue;
use super::read_line;
use super::stop::{code_and_signal, end_group, stop};
use crate::events::{Channel, SideEvent};

/// How long to wait for the readers to see end-of-file once the process is gone:
/// a grandchild that inherited the pipes can hold them open forever.
const DRAIN: Duration = Duration::from_secs(2);

/// How a server ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ExitInfo {
    /// Exit code, when it exited.
    pub code: Option<i32>,
    /// Signal number, when a signal ended it.
    pub signal: Option<i32>,
    /// In words: `server exited with status 3`.
    pub text: String,
}

/// The child's three pipes.
pub(crate) struct Pipes {
    pub stdin: ChildStdin,
    pub stdout: ChildStdout,
    pub stderr: ChildStderr,
}

/// Everything the supervisor owns.
pub(crate) struct Job {
    pub child: Child,
    pub pipes: Pipes,
    pub input: mpsc::UnboundedReceiver<(String, OwnedSemaphorePermit)>,
    pub output: OutQueue,
    pub stop: oneshot::Receiver<()>,
    pub channel: Option<Arc<Channel>>,
    pub max_message: usize,
    pub max_stderr_line: usize,
    pub grace: Grace,
    /// Held until the process is reaped: that is what the child limit counts.
    pub slot: OwnedSemaphorePermit,
}

fn emit(channel: &Option<Arc<Channel>>, ev: SideEvent) {
    if let Some(c) = channel {
        c.push(ev);
    }
}

/// Supervises one server until it is gone and reaped, then reports its exit.
pub(crate) async fn run(job: Job) {
    let Job {
        mut child,
        pipes,
        input,
        output,
        stop: mut stop_rx,
        channel,
        max_message,
        max_stderr_line,
        grace,
        slot,
    } = job;
    // Its pid is also its process group's id; read it now, `id()` is gone once reaped.
    let pgid = child.id();
    let mut writer = tokio::spawn(write_lines(pipes.stdin, input));
    let (eof_tx, mut eof_rx) = oneshot::channel();
    let exit = output.exit_sender();
    let mut stdout = tokio::spawn(read_stdout(
        pipes.stdout,
        output,
        channel.clone(),
        max_message,
        eof_tx,
    ));
    let mut stderr = tokio::spawn(read_stderr(pipes.stderr, channel.clone(), max_stderr_line));

    // `None`: we must stop it. `Some`: it ended by itself.
    let mut note = "";
    let ended = tokio::select! {
        // A stop request wins, so a closing WebSocket is never mistaken for a server
        // that closed its stdout.
        biased;
        // Asked to stop, or the WebSocket side went away (sender dropped).
        _ = &mut stop_rx => None,
        status = child.wait() => Some(status),
        _ = &mut eof_rx => {
            // Most servers exit right after closing stdout; give it a moment.
            match timeout(grace.after_stdin, child.wait()).await {
                Ok(status) => Some(status),
                Err(_) => {
                    note = "server closed its stdout; ";
                    None
                }
            }
        }
    };
    let status = match ended {
        Some(status) => {
            writer.abort();
            status
        }
        None => {
            // Closing stdin is the spec's first step. Dropping the writer's end of the
            // pipe is the only way to close it, and nothing queued matters any more.
            writer.abort();
            let _ = (&mut writer).await;
            stop(&mut child, grace).await
        }
    };
    // Grandchildren go with the server; they would also hold its pipes open.
    end_group(pgid, grace.after_term);
    // Deliver everything the server wrote before it went away.
    finish(&mut stdout).await;
    finish(&mut stderr).await;
    let info = match status {
        Ok(s) => {
            let (code, signal) = code_and_signal(&s);
            ExitInfo {
                code,
                signal,
                text: format!("{note}server {}", describe_exit(&s)),
            }
        }
        Err(e) => ExitInfo {
            code: None,
            signal: None,
            text: format!("could not wait for the server process: {e}"),
        },
    };
    emit(
        &channel,
        SideEvent::Exit {
            code: info.code,
            signal: info.signal,
        },
    );
    drop(slot);
    exit.send(Out::Exit(info));
}

async fn finish(task: &mut JoinHandle<()>) {
    if timeout(DRAIN, &mut *task).await.is_err() {
        task.abort();
    }
}

/// Writes each queued text as one line. A raw newline inside a frame would split it
/// into two messages, so newlines become spaces (JSON never needs a raw one).
async fn write_lines(
    mut stdin: ChildStdin,
    mut rx: mpsc::UnboundedReceiver<(String, OwnedSemaphorePermit)>,
) {
    while let Some((text, _permit)) = rx.recv().await {
        let mut line = text.replace(['\n', '\r'], " ");
        line.push('\n');
        let ok = match stdin.write_all(line.as_bytes()).await {
            Ok(()) => stdin.flush().await.is_ok(),
            Err(_) => false,
        };
        if !ok {
            // The server closed its stdin; its exit will be reported by the supervisor.
            break;
        }
    }
    let _ = stdin.shutdown().await;
}

/// Counts stdout lines that are not JSON, and says so on the side channel at the
/// 1st, 10th, 100th… so a flood of junk does not also flood the side channel.
struct JunkCounter(u64);

impl JunkCounter {
    fn see(&mut self, line: &str) -> Option<String> {
        let first = line.trim_start().as_bytes().first();
        if matches!(first, Some(b'{') | Some(b'[')) {
            return None;
        }
        self.0 += 1;
        let n = self.0;
        if n == 1 {
            let preview: String = line.chars().take(60).collect();
            return Some(format!(
                "server wrote a line that is not JSON on stdout (relayed as is): {preview:?}"
            ));
        }
        let mut p = 10;
        while p < n {
            p = p.saturating_mul(10);
        }
        (p == n).then(|| format!("server has written {n} lines that are not JSON on stdout"))
    }
}

/// Reads stdout line by line into the output queue.
async fn read_stdout(
    stdout: ChildStdout,
    mut out: OutQueue,
    channel: Option<Arc<Channel>>,
    max: usize,
    eof: oneshot::Sender<()>,
) {
    let mut r = BufReader::new(stdout);
    let mut junk = JunkCounter(0);
    loop {
        match read_line(&mut r, max).await {
            Ok(Some(line)) => {
                if let Some(n) = line.cut_from {
                    emit(
                        &channel,
                        SideEvent::Error {
                            message: format!(
                                "dropped a stdout line of {n} bytes: over the limit of {max} bytes \
                                 (limits.max_message_bytes in the bridge's config)"
                            ),
                        },
                    );
                    // The request it answered is answered now, not at its timeout.
                    if let Some(id) = cut_answer::response_id(&line.bytes)
                        && out.offer(cut_answer::dropped_error(&id, n, max)).is_err()
                    {
                        break;
                    }
                    continue;
                }
                if line.bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let text = String::from_utf8_lossy(&line.bytes).into_owned();
                if let Some(message) = junk.see(&text) {
                    emit(&channel, SideEvent::Error { message });
                }
                if out.offer(text).is_err() {
                    break;
                }
            }
            Ok(None) => break,
            Err(e) => {
                emit(
                    &channel,
                    SideEvent::Error {
                        message: format!("reading the server's stdout failed: {e}"),
                    },
                );
                break;
            }
        }
    }
    out.report();
    let _ = eof.send(());
}

/// Reads stderr into the side channel; never waits on anyone.
async fn read_stderr(stderr: ChildStderr, channel: Option<Arc<Channel>>, max: usize) {
    let mut r = BufReader::new(stderr);
    while let Ok(Some(line)) = read_line(&mut r, max).await {
        let mut text = String::from_utf8_lossy(&line.bytes).into_owned();
        if let Some(n) = line.cut_from {
            text.push_str(&format!(" [… cut, {n} bytes]"));
        }
        emit(&channel, SideEvent::Stderr { line: text });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junk_is_reported_first_then_at_powers_of_ten() {
        let mut j = JunkCounter(0);
        assert_eq!(j.see(r#"{"jsonrpc":"2.0"}"#), None);
        assert!(j.see("hello").unwrap().contains("\"hello\""));
        let said: Vec<u64> = (2..=1000).filter_map(|i| j.see("x").map(|_| i)).collect();
        assert_eq!(said, vec![10, 100, 1000]);
    }
}
