//! One channel's bounded event log and its readers.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::watch;

use super::SideEvent;

#[derive(Debug)]
struct Inner {
    /// Sequence number of the next event.
    next: u64,
    /// The kept events, oldest first, with their sequence numbers.
    items: VecDeque<(u64, SideEvent)>,
}

/// One channel: a bounded log plus a wake-up for readers.
#[derive(Debug)]
pub struct Channel {
    inner: Mutex<Inner>,
    capacity: usize,
    created: Instant,
    // The latest sequence number; readers wait for it to change.
    wake: watch::Sender<u64>,
}

impl Channel {
    /// An empty channel keeping at most `capacity` events.
    pub fn new(capacity: usize) -> Channel {
        Channel {
            inner: Mutex::new(Inner {
                next: 0,
                items: VecDeque::new(),
            }),
            capacity: capacity.max(1),
            created: Instant::now(),
            wake: watch::Sender::new(0),
        }
    }

    pub(crate) fn created(&self) -> Instant {
        self.created
    }

    /// Appends an event, dropping the oldest when full.
    pub fn push(&self, ev: SideEvent) {
        let next = {
            let mut g = self.lock();
            let seq = g.next;
            g.next += 1;
            if g.items.len() >= self.capacity {
                g.items.pop_front();
            }
            g.items.push_back((seq, ev));
            g.next
        };
        self.wake.send_replace(next);
    }

    /// A reader starting at sequence number `from` (0: everything still kept).
    pub fn reader(self: &Arc<Self>, from: u64) -> Reader {
        Reader {
            channel: self.clone(),
            cursor: from,
            wake: self.wake.subscribe(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic elsewhere cannot leave the log inconsistent: keep using it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Events at or after `cursor`, with a `dropped` note first when some were lost.
    fn take_from(&self, cursor: &mut u64) -> Vec<(u64, SideEvent)> {
        let g = self.lock();
        let mut out = Vec::new();
        let oldest = g.items.front().map_or(g.next, |(s, _)| *s);
        if *cursor < oldest {
            // The note carries the sequence number just before the first kept event,
            // so a resuming reader never sees it twice.
            out.push((
                oldest.saturating_sub(1),
                SideEvent::Dropped {
                    count: oldest - *cursor,
                },
            ));
            *cursor = oldest;
        }
        for (seq, ev) in g.items.iter().filter(|(s, _)| *s >= *cursor) {
            out.push((*seq, ev.clone()));
        }
        *cursor = g.next;
        out
    }
}

/// Reads a channel in order, waiting for new events.
#[derive(Debug)]
pub struct Reader {
    channel: Arc<Channel>,
    cursor: u64,
    wake: watch::Receiver<u64>,
}

impl Reader {
    /// The next batch of events (with sequence numbers), waiting until there is one.
    pub async fn next_batch(&mut self) -> Vec<(u64, SideEvent)> {
        loop {
            // Mark the current value seen before looking, so a push in between wakes us.
            self.wake.borrow_and_update();
            let batch = self.channel.take_from(&mut self.cursor);
            if !batch.is_empty() {
                return batch;
            }
            if self.wake.changed().await.is_err() {
                // The channel is gone; nothing more will come.
                std::future::pending::<()>().await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(i: usize) -> SideEvent {
        SideEvent::Stderr {
            line: format!("l{i}"),
        }
    }

    #[tokio::test]
    async fn events_before_the_reader_are_kept() {
        let c = Arc::new(Channel::new(8));
        c.push(SideEvent::Spawned {
            server: "s".into(),
            pid: 7,
        });
        c.push(line(1));
        let got = c.reader(0).next_batch().await;
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, 0);
        assert!(matches!(got[0].1, SideEvent::Spawned { pid: 7, .. }));
    }

    #[tokio::test]
    async fn a_flood_drops_the_oldest_and_says_how_many() {
        let c = Arc::new(Channel::new(4));
        for i in 0..10 {
            c.push(line(i));
        }
        let got = c.reader(0).next_batch().await;
        assert_eq!(got[0].1, SideEvent::Dropped { count: 6 });
        let lines: Vec<_> = got[1..].iter().map(|(_, e)| e.clone()).collect();
        assert_eq!(lines, vec![line(6), line(7), line(8), line(9)]);
    }

    #[tokio::test]
    async fn a_reader_wakes_for_later_events_and_resumes_after_an_id() {
        let c = Arc::new(Channel::new(4));
        let c2 = c.clone();
        let waiter = tokio::spawn(async move { c2.reader(0).next_batch().await });
        c.push(line(0));
        let got = waiter.await.unwrap();
        assert_eq!(got, vec![(0, line(0))]);
        c.push(line(1));
        let resumed = c.reader(1).next_batch().await;
        assert_eq!(resumed, vec![(1, line(1))]);
    }
}
