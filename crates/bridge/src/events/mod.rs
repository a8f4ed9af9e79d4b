//! The side channel: what happens to a server process (spawned, stderr, exit,
//! errors), kept apart from the MCP stream so the page's core only ever sees MCP.
//!
//! Each channel is a bounded log with sequence numbers. Events emitted before the
//! page subscribes are kept; when a flood overflows the log the oldest go, and a
//! reader that missed some gets a `dropped` note with the count instead.

mod log;
pub(crate) mod sse;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub use log::{Channel, Reader};
pub use mcpg_bridge_api::SideEvent;

/// Most events kept per channel.
pub const CHANNEL_CAPACITY: usize = 512;
/// Most channels kept at once; the oldest unused one is forgotten past this.
const MAX_CHANNELS: usize = 256;

/// All channels, by the id the page chose.
#[derive(Debug, Default)]
pub struct Channels {
    map: Mutex<HashMap<String, Arc<Channel>>>,
}

impl Channels {
    /// The channel `id`, created when new. `None` when every slot is in use.
    pub fn get(&self, id: &str) -> Option<Arc<Channel>> {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = map.get(id) {
            return Some(c.clone());
        }
        if map.len() >= MAX_CHANNELS {
            // Forget the oldest channel nobody holds (its relay and readers are gone).
            let victim = map
                .iter()
                .filter(|(_, c)| Arc::strong_count(c) == 1)
                .min_by_key(|(_, c)| c.created())
                .map(|(k, _)| k.clone())?;
            map.remove(&victim);
        }
        let c = Arc::new(Channel::new(CHANNEL_CAPACITY));
        map.insert(id.to_owned(), c.clone());
        Some(c)
    }
}
