//! The bridge's side channel (`/api/events`): what the server process did, kept apart
//! from the MCP stream. The events are `mcpg_bridge_api::SideEvent`, the type the bridge
//! writes; text the page cannot read as one is kept, verbatim, as `Unreadable`.

use mcpg_bridge_api::SideEvent;

/// One side-channel event, as the driver receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BridgeEvent {
    /// An event the bridge sent.
    Side(SideEvent),
    /// Text that is not a side-channel event (shown verbatim, never dropped).
    Unreadable(String),
}

/// Reads one side-channel `data` text.
pub fn parse_bridge_event(text: &str) -> BridgeEvent {
    match SideEvent::parse(text) {
        Ok(e) => BridgeEvent::Side(e),
        Err(_) => BridgeEvent::Unreadable(text.to_owned()),
    }
}

impl BridgeEvent {
    /// The event in words, for the wire log (`None` for stderr, shown as its line).
    pub fn describe(&self) -> Option<String> {
        match self {
            BridgeEvent::Side(SideEvent::Stderr { .. }) => None,
            BridgeEvent::Side(e) => Some(e.to_string()),
            BridgeEvent::Unreadable(text) => Some(format!("bridge event: {text}")),
        }
    }
}
