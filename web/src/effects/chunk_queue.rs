//! The order-keeping queue in front of a split chunk, apart from the browser so its
//! rules are tested natively: jobs wait while the chunk loads and run in the order
//! they came, jobs that come while the queue drains go behind it, and a failed fetch
//! hands every waiting job back and lets the next one fetch again.

use std::collections::VecDeque;

/// Where a chunk is, with the jobs waiting for it (`T`: what the chunk hands back).
#[derive(Debug)]
pub enum Chunk<T, J> {
    /// Never fetched, or the last fetch failed.
    Idle,
    /// Being fetched, or its queue being drained: jobs wait here, in order.
    Loading(VecDeque<J>),
    /// In: jobs run at once.
    Ready(T),
}

/// What to do with a job that was submitted.
#[derive(Debug, PartialEq)]
pub enum Submitted<T, J> {
    /// Run it now with the chunk's code.
    Run(T, J),
    /// It waits; `fetch`: the chunk must be fetched now (nothing was on its way).
    Queued {
        /// Whether to start the fetch.
        fetch: bool,
    },
}

impl<T: Copy, J> Chunk<T, J> {
    /// Submits `job`; when this starts a fetch, what `first` gives (jobs kept aside
    /// while nothing was fetched) goes before it.
    pub fn submit(&mut self, job: J, first: impl FnOnce() -> VecDeque<J>) -> Submitted<T, J> {
        match self {
            Chunk::Ready(t) => Submitted::Run(*t, job),
            Chunk::Loading(queue) => {
                queue.push_back(job);
                Submitted::Queued { fetch: false }
            }
            Chunk::Idle => {
                let mut queue = first();
                queue.push_back(job);
                *self = Chunk::Loading(queue);
                Submitted::Queued { fetch: true }
            }
        }
    }

    /// Starts a fetch with what `first` gives queued, if nothing is in or on its way
    /// (`true`).
    pub fn prefetch(&mut self, first: impl FnOnce() -> VecDeque<J>) -> bool {
        if !matches!(self, Chunk::Idle) {
            return false;
        }
        *self = Chunk::Loading(first());
        true
    }

    /// The chunk `t` is in: the next job to run, or `None` once the queue is empty
    /// (the chunk is then ready). Call until `None`, running each job between calls.
    pub fn next_after_load(&mut self, t: T) -> Option<J> {
        let next = match self {
            Chunk::Loading(queue) => queue.pop_front(),
            _ => None,
        };
        if next.is_none() {
            *self = Chunk::Ready(t);
        }
        next
    }

    /// The fetch failed: every waiting job, in order; the next submit fetches again.
    /// (A chunk that is in stays in.)
    pub fn failed(&mut self) -> VecDeque<J> {
        match self {
            Chunk::Loading(queue) => {
                let queue = std::mem::take(queue);
                *self = Chunk::Idle;
                queue
            }
            _ => VecDeque::new(),
        }
    }

    /// Whether nothing was fetched (or the last fetch failed).
    pub fn is_idle(&self) -> bool {
        matches!(self, Chunk::Idle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Q = Chunk<u8, &'static str>;

    fn none() -> VecDeque<&'static str> {
        VecDeque::new()
    }

    fn never() -> VecDeque<&'static str> {
        unreachable!("only a submit that starts the fetch takes the kept jobs")
    }

    #[test]
    fn jobs_wait_in_order_and_the_first_starts_the_fetch() {
        let mut q = Q::Idle;
        assert_eq!(q.submit("open", none), Submitted::Queued { fetch: true });
        assert_eq!(q.submit("post", never), Submitted::Queued { fetch: false });
        assert_eq!(q.next_after_load(7), Some("open"));
        // Caused by running "open": goes behind what already waited.
        assert_eq!(q.submit("frame", never), Submitted::Queued { fetch: false });
        assert_eq!(q.next_after_load(7), Some("post"));
        assert_eq!(q.next_after_load(7), Some("frame"));
        assert_eq!(q.next_after_load(7), None);
        assert_eq!(q.submit("later", never), Submitted::Run(7, "later"));
    }

    #[test]
    fn kept_jobs_go_first() {
        let mut q = Q::Idle;
        let kept = || VecDeque::from(["list"]);
        assert_eq!(q.submit("open", kept), Submitted::Queued { fetch: true });
        assert_eq!(q.next_after_load(1), Some("list"));
        assert_eq!(q.next_after_load(1), Some("open"));
        assert_eq!(q.next_after_load(1), None);
        assert!(!q.prefetch(never), "in: nothing to fetch");
    }

    #[test]
    fn a_failed_fetch_hands_back_every_job_and_the_next_fetches_again() {
        let mut q = Q::Idle;
        assert!(q.prefetch(none));
        assert!(!q.prefetch(never), "one fetch at a time");
        assert_eq!(q.submit("open", never), Submitted::Queued { fetch: false });
        assert_eq!(q.submit("model", never), Submitted::Queued { fetch: false });
        assert_eq!(Vec::from(q.failed()), vec!["open", "model"]);
        assert!(q.is_idle());
        assert_eq!(
            q.submit("open again", none),
            Submitted::Queued { fetch: true }
        );
    }

    #[test]
    fn a_ready_chunk_is_never_fetched_again() {
        let mut q = Q::Ready(3);
        assert!(!q.prefetch(never));
        assert!(q.failed().is_empty());
        assert_eq!(q.submit("open", never), Submitted::Run(3, "open"));
    }
}
