//! The queue between a server's stdout and the page's WebSocket, bounded in bytes.
//!
//! A page that stops reading (a stalled tab, a slow link) must not make the bridge
//! hold a hostile or chatty server's output without bound, and must not block the
//! server either (it would stop answering everyone). So each queued line holds a
//! share of a byte budget until the WebSocket has sent it; a line that does not fit
//! is dropped, counted, and reported on the side channel as
//! [`SideEvent::OutputDropped`] ("dropped N bytes"), at the latest when a line fits
//! again or output ends, and at most once per [`NOTICE_EVERY`] while dropping goes on.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::time::Instant;

use super::Out;
use crate::events::{Channel, SideEvent};

/// What one queued line costs beyond its text: the queue's own bookkeeping, so a
/// flood of empty-ish lines is bounded too.
const LINE_OVERHEAD: usize = 64;
/// How often an ongoing run of drops is reported.
pub(crate) const NOTICE_EVERY: Duration = Duration::from_secs(1);

/// One stdout line on its way to the page; its budget share is returned when dropped.
#[derive(Debug)]
pub(crate) struct Line {
    /// The text, exactly as written (lossy UTF-8).
    pub text: String,
    _held: OwnedSemaphorePermit,
}

/// The page side is gone: nothing more will be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Closed;

/// The sending half, owned by the stdout reader.
#[derive(Debug)]
pub(crate) struct OutQueue {
    tx: mpsc::UnboundedSender<Out>,
    budget: Arc<Semaphore>,
    channel: Option<Arc<Channel>>,
    dropped_bytes: u64,
    dropped_lines: u64,
    last_notice: Option<Instant>,
}

/// A queue holding at most `ceiling` bytes (plus per-line overhead), and its receiver.
pub(crate) fn bounded(
    ceiling: usize,
    channel: Option<Arc<Channel>>,
) -> (OutQueue, mpsc::UnboundedReceiver<Out>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let permits = ceiling.min(Semaphore::MAX_PERMITS);
    let q = OutQueue {
        tx,
        budget: Arc::new(Semaphore::new(permits)),
        channel,
        dropped_bytes: 0,
        dropped_lines: 0,
        last_notice: None,
    };
    (q, rx)
}

impl OutQueue {
    /// Queues `text`, or drops it when the budget is spent. Never waits.
    pub(crate) fn offer(&mut self, text: String) -> Result<(), Closed> {
        let cost = text.len().saturating_add(LINE_OVERHEAD);
        let permit = u32::try_from(cost)
            .ok()
            .and_then(|n| self.budget.clone().try_acquire_many_owned(n).ok());
        let Some(permit) = permit else {
            self.dropped_bytes = self.dropped_bytes.saturating_add(text.len() as u64);
            self.dropped_lines = self.dropped_lines.saturating_add(1);
            let due = self.last_notice.is_none_or(|t| t.elapsed() >= NOTICE_EVERY);
            if due {
                self.report();
            }
            return if self.tx.is_closed() {
                Err(Closed)
            } else {
                Ok(())
            };
        };
        // The run of drops is over: say so before the line that follows it.
        self.report();
        self.tx
            .send(Out::Line(Line {
                text,
                _held: permit,
            }))
            .map_err(|_| Closed)
    }

    /// Reports what was dropped since the last notice, if anything.
    pub(crate) fn report(&mut self) {
        if self.dropped_lines == 0 {
            return;
        }
        if let Some(c) = &self.channel {
            c.push(SideEvent::OutputDropped {
                bytes: self.dropped_bytes,
                lines: self.dropped_lines,
            });
        }
        self.dropped_bytes = 0;
        self.dropped_lines = 0;
        self.last_notice = Some(Instant::now());
    }

    /// A second sender for the exit, which the supervisor sends after the reader.
    pub(crate) fn exit_sender(&self) -> ExitSender {
        ExitSender(self.tx.clone())
    }
}

/// Sends the final [`Out::Exit`].
#[derive(Debug)]
pub(crate) struct ExitSender(mpsc::UnboundedSender<Out>);

impl ExitSender {
    /// Queues the exit (outside the budget: it is last and must arrive).
    pub(crate) fn send(&self, out: Out) {
        let _ = self.0.send(out);
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn over_the_ceiling_lines_are_dropped_counted_and_reported_once() {
        let channel = Arc::new(Channel::new(64));
        let (mut q, mut rx) = bounded(1000, Some(channel.clone()));
        let line = "x".repeat(400);
        // Two lines fit (2 × 464 bytes); the page reads nothing meanwhile.
        q.offer(line.clone()).unwrap();
        q.offer(line.clone()).unwrap();
        for _ in 0..10 {
            q.offer(line.clone()).unwrap();
        }
        // The first drop is reported at once; the rest wait for the run to end.
        let first = channel.reader(0).next_batch().await;
        assert_eq!(
            first.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(),
            [SideEvent::OutputDropped {
                bytes: 400,
                lines: 1
            }]
        );
        // The page catches up: budget comes back, the next line fits and the
        // notice for the rest of the run comes before it.
        let Some(Out::Line(a)) = rx.recv().await else {
            panic!("a line")
        };
        drop(a);
        q.offer("after".into()).unwrap();
        let later = channel.reader(1).next_batch().await;
        assert_eq!(
            later.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(),
            [SideEvent::OutputDropped {
                bytes: 9 * 400,
                lines: 9
            }]
        );
        let Some(Out::Line(b)) = rx.recv().await else {
            panic!("a line")
        };
        assert_eq!(b.text.len(), 400);
        let Some(Out::Line(c)) = rx.recv().await else {
            panic!("a line")
        };
        assert_eq!(c.text, "after");
    }

    #[tokio::test]
    async fn a_gone_page_ends_the_reader() {
        let (mut q, rx) = bounded(1000, None);
        drop(rx);
        assert_eq!(q.offer("x".into()), Err(Closed));
    }
}
