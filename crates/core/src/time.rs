//! Time as the caller sees it. The core never reads a clock: every entry point that
//! depends on time takes a [`Timestamp`] supplied by the driver (a tokio `Instant`
//! natively, `performance.now()` in the browser, a virtual clock in tests).

use std::time::Duration;

/// A point in time, in milliseconds since an epoch chosen by the driver.
///
/// Only differences between timestamps matter, so any monotonic source works.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// The driver's epoch.
    pub const ZERO: Timestamp = Timestamp(0);

    /// Builds a timestamp from milliseconds since the driver's epoch.
    pub fn from_millis(ms: u64) -> Self {
        Timestamp(ms)
    }

    /// Milliseconds since the driver's epoch.
    pub fn as_millis(self) -> u64 {
        self.0
    }

    /// The time `d` after `self`, saturating instead of overflowing.
    pub fn after(self, d: Duration) -> Self {
        let ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        Timestamp(self.0.saturating_add(ms))
    }

    /// Time elapsed from `earlier` to `self` (zero if `earlier` is later).
    pub fn since(self, earlier: Timestamp) -> Duration {
        Duration::from_millis(self.0.saturating_sub(earlier.0))
    }
}
