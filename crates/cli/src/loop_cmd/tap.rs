//! The wire as the driver saw it: an observer records every frame, so the loop can
//! be fed its events in wire order and the run kept as a session.

use std::sync::{Arc, Mutex, PoisonError};

use mcpg_core::client::WireEntry;
use mcpg_transport::{Observed, Observer};

/// Every frame the driver saw, in order.
#[derive(Clone, Default)]
pub struct Tap {
    wire: Arc<Mutex<Vec<WireEntry>>>,
}

impl Tap {
    /// An observer that records into this tap.
    pub fn observer(&self) -> Observer {
        let wire = self.wire.clone();
        Arc::new(move |o: &Observed| {
            if let Observed::Wire(w) = o {
                wire.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(w.clone());
            }
        })
    }

    /// Every frame so far.
    pub fn frames(&self) -> Vec<WireEntry> {
        self.wire
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(super) fn since(&self, from: usize) -> Vec<WireEntry> {
        self.frames().get(from..).unwrap_or_default().to_vec()
    }

    pub(super) fn len(&self) -> usize {
        self.wire
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}
