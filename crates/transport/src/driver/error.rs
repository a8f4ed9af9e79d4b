//! What can go wrong for a driver operation, phrased for the person at the terminal.

use std::time::Duration;

use mcpg_core::client::{ConnectError, Failure, OpError};
use mcpg_core::jsonrpc::RpcError;

use super::handshake::Handshake;
use crate::error::TransportError;

/// Why a driver operation did not produce an answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DriverError {
    /// The transport could not be started (program missing, bad URL).
    #[error("{0}")]
    Start(String),
    /// The connection died or could not carry the request.
    #[error("{reason} during {during}{hint}")]
    Transport {
        /// The operation (`connect`, `tools/call`…).
        during: String,
        /// What happened (`server exited with status 3`).
        reason: String,
        /// Extra context (e.g. junk the server wrote), starting with `"; "`, or empty.
        hint: String,
    },
    /// The server refused the request with an HTTP status and no JSON-RPC error in
    /// the body (401: it wants authorization). Reads as the transport failure it is.
    #[error("HTTP {status}: {reason} during {during}{hint}")]
    Refused {
        /// The operation.
        during: String,
        /// The HTTP status.
        status: u16,
        /// The response body, trimmed and shortened (may be empty).
        reason: String,
        /// Extra context (e.g. junk the server wrote), starting with `"; "`, or empty.
        hint: String,
    },
    /// No answer in time.
    #[error("no answer to {during} within {} s{hint}", .after.as_secs_f64())]
    Timeout {
        /// The operation.
        during: String,
        /// The timeout that expired.
        after: Duration,
        /// Extra context (e.g. junk the server wrote), starting with `"; "`, or empty.
        hint: String,
    },
    /// Negotiation failed (its `refused`: the HTTP status the server refused the
    /// handshake with, if that is why), and the handshake it failed at with the
    /// JSON-RPC error the server answered, when the driver saw them.
    #[error("could not connect: {0}")]
    Connect(ConnectError, Option<Box<Handshake>>),
    /// The server answered with a JSON-RPC error.
    #[error("the server answered {during} with an error: {error}")]
    Rpc {
        /// The operation.
        during: String,
        /// The error (boxed: it carries arbitrary `data`).
        error: Box<RpcError>,
    },
    /// The server answered with something unusable.
    #[error("unusable answer to {during}: {reason}")]
    Malformed {
        /// The operation.
        during: String,
        /// Why.
        reason: String,
    },
    /// The operation was cancelled.
    #[error("{during} was cancelled: {reason}")]
    Cancelled {
        /// The operation.
        during: String,
        /// Why.
        reason: String,
    },
    /// The driver has stopped (closed, or its task ended).
    #[error("the connection is closed")]
    Closed,
    /// The caller asked for something that cannot be done (e.g. continuing a call
    /// that is not waiting for input).
    #[error("{0}")]
    Usage(String),
}

impl DriverError {
    /// Whether the server answered with a JSON-RPC error (as opposed to no usable answer).
    pub fn is_rpc(&self) -> bool {
        matches!(self, DriverError::Rpc { .. })
    }

    /// The HTTP status the server refused with, when that is why the operation
    /// failed ([`DriverError::Refused`], or a handshake it refused): 401 means it
    /// wants authorization. Branch on this, not on the words.
    pub fn refused(&self) -> Option<u16> {
        match self {
            DriverError::Refused { status, .. } => Some(*status),
            DriverError::Connect(e, _) => e.refused,
            _ => None,
        }
    }

    /// The error for an operation that ended with `f`.
    pub(crate) fn from_failure(during: &str, f: Failure, hint: &str) -> Self {
        let during = during.to_owned();
        match f {
            Failure::Timeout(after) => DriverError::Timeout {
                during,
                after,
                hint: hint.to_owned(),
            },
            Failure::Cancelled(reason) => DriverError::Cancelled { during, reason },
            Failure::Transport(reason) => DriverError::Transport {
                during,
                reason,
                hint: hint.to_owned(),
            },
            Failure::Refused { status, reason } => DriverError::Refused {
                during,
                status,
                reason,
                hint: hint.to_owned(),
            },
            Failure::NotConnected(e) => DriverError::Connect(
                ConnectError {
                    why: format!("{}{hint}", e.why),
                    refused: e.refused,
                },
                None,
            ),
            Failure::Malformed(reason) => DriverError::Malformed { during, reason },
            Failure::TaskExpired { task_id, ttl } => DriverError::Timeout {
                during,
                after: ttl,
                hint: format!(
                    "; task {task_id} did not end within its ttl, so the client stopped polling it"
                ),
            },
            f @ Failure::TooLarge { .. } => DriverError::Transport {
                during,
                reason: f.to_string(),
                hint: String::new(),
            },
        }
    }

    /// The error for an operation that ended with `e`.
    pub(crate) fn from_op(during: &str, e: OpError, hint: &str) -> Self {
        match e {
            OpError::Rpc(error) => DriverError::Rpc {
                during: during.to_owned(),
                error: Box::new(error),
            },
            OpError::Failed(f) => DriverError::from_failure(during, f, hint),
        }
    }
}

impl From<TransportError> for DriverError {
    fn from(e: TransportError) -> Self {
        DriverError::Start(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal keeps its status, typed, and the words it always had.
    #[test]
    fn a_refusal_keeps_its_status_and_its_words() {
        let f = Failure::Refused {
            status: 401,
            reason: String::new(),
        };
        let e = DriverError::from_failure("tools/list", f, "; hint");
        assert_eq!(e.refused(), Some(401));
        assert_eq!(e.to_string(), "HTTP 401:  during tools/list; hint");
        let before = DriverError::Transport {
            during: "tools/list".into(),
            reason: "HTTP 401: ".into(),
            hint: "; hint".into(),
        };
        assert_eq!(e.to_string(), before.to_string());
        assert_eq!(before.refused(), None, "words that say 401 decide nothing");

        let not = Failure::NotConnected(ConnectError {
            why: "initialize failed: transport failed: HTTP 401: ".into(),
            refused: Some(401),
        });
        let e = DriverError::from_failure("tools/list", not, "");
        assert_eq!(e.refused(), Some(401));
        assert_eq!(
            e.to_string(),
            "could not connect: initialize failed: transport failed: HTTP 401: "
        );
    }
}
