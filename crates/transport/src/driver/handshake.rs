//! Which handshake a failed negotiation failed at, and the JSON-RPC error the
//! server answered it with, read off the wire: the core says it in words
//! (`ConnectError::why`), and the advice table (`mcpg-advice`) wants it typed.
//! Kept here, natively, so the page's first load (which runs the same core) pays
//! nothing for it.

use mcpg_core::client::{Direction, WireEntry};
use mcpg_core::jsonrpc::{Body, Message, RequestId, RpcError};

/// The handshake request a negotiation failed at, and what the server answered.
#[derive(Clone, Debug, PartialEq)]
pub struct Handshake {
    /// `"server/discover"` or `"initialize"`: the last handshake request sent.
    pub method: &'static str,
    /// The JSON-RPC error the server answered it with, if it did on the wire (an
    /// HTTP refusal's status is [`super::DriverError::refused`]).
    pub error: Option<RpcError>,
}

/// The handshake requests seen on the wire.
#[derive(Default)]
pub(crate) struct Handshakes {
    /// Ids of the handshake requests sent, with their method.
    sent: Vec<(RequestId, &'static str)>,
    /// The latest: the one a failure is about.
    last: Option<Handshake>,
    /// Negotiation is over: nothing more to read.
    done: bool,
}

impl Handshakes {
    /// Notes a handshake request sent, or an error answering one.
    pub(crate) fn observe(&mut self, w: &WireEntry) {
        // Only until negotiation is over, and only what a handshake or its error
        // can be: a few small messages, each decoded once more.
        if self.done || w.raw.len() > 64 << 10 {
            return;
        }
        let Ok(m) = Message::decode(&w.raw) else {
            return;
        };
        match (w.direction, m.body()) {
            (Direction::Sent, Body::Request { id, method, .. }) => {
                let method = match method.as_str() {
                    "server/discover" => "server/discover",
                    "initialize" => "initialize",
                    _ => return,
                };
                self.sent.push((id.clone(), method));
                self.last = Some(Handshake {
                    method,
                    error: None,
                });
            }
            (
                Direction::Received,
                Body::Error {
                    id: Some(id),
                    error,
                },
            ) => {
                if let Some((_, method)) = self.sent.iter().find(|(sent, _)| sent == id) {
                    self.last = Some(Handshake {
                        method,
                        error: Some(error.clone()),
                    });
                }
            }
            _ => {}
        }
    }

    /// Negotiation succeeded: stop reading the wire.
    pub(crate) fn connected(&mut self) {
        self.done = true;
        self.sent.clear();
    }

    /// The handshake the failure is about, if one was sent.
    pub(crate) fn last(&self) -> Option<Box<Handshake>> {
        self.last.clone().map(Box::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpg_core::Timestamp;

    fn wire(direction: Direction, raw: &str) -> WireEntry {
        WireEntry {
            direction,
            at: Timestamp::ZERO,
            raw: raw.into(),
            message: mcpg_core::jsonrpc::Message::decode(raw).ok(),
        }
    }

    /// The probe answered -32601, then `initialize` refused with -32022: the
    /// failure is about `initialize` and its error; nothing else is a handshake.
    #[test]
    fn the_last_handshake_and_its_error_are_named() {
        let mut h = Handshakes::default();
        assert_eq!(h.last(), None);
        for (d, raw) in [
            (
                Direction::Sent,
                r#"{"jsonrpc":"2.0","id":0,"method":"server/discover"}"#,
            ),
            (
                Direction::Received,
                r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}"#,
            ),
        ] {
            h.observe(&wire(d, raw));
        }
        let probe = h.last().unwrap();
        assert_eq!(probe.method, "server/discover");
        assert_eq!(probe.error.map(|e| e.code), Some(-32601));
        for (d, raw) in [
            (
                Direction::Sent,
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
            ),
            (
                Direction::Sent,
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            ),
            (
                Direction::Received,
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"x"}}"#,
            ),
        ] {
            h.observe(&wire(d, raw));
        }
        assert_eq!(
            h.last().map(|l| (l.method, l.error)),
            Some(("initialize", None)),
            "an error to another request is not the handshake's"
        );
        h.observe(&wire(
            Direction::Received,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"no","data":{"supported":["2026-07-28"]}}}"#,
        ));
        assert_eq!(h.last().and_then(|l| l.error).map(|e| e.code), Some(-32022));
        // Once connected, the wire is no longer read.
        h.connected();
        h.observe(&wire(
            Direction::Sent,
            r#"{"jsonrpc":"2.0","id":9,"method":"initialize"}"#,
        ));
        assert_eq!(h.last().map(|l| l.method), Some("initialize"));
        assert_eq!(h.sent.len(), 0);
    }
}
