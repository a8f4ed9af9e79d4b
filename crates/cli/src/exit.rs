//! Exit statuses and the one line printed when something fails.

use mcpg_advice::Situation;
use mcpg_transport::DriverError;

/// The tool ran and returned `isError: true`.
pub const TOOL_ERROR: u8 = 1;
/// A check found a problem (`apps check`; a skill that fails verification): the
/// status of a tool error, the command ran and what it checked did not hold.
pub const PROBLEM: u8 = TOOL_ERROR;
/// The command line was wrong (clap uses 2 as well).
pub const USAGE: u8 = 2;
/// The server answered with a JSON-RPC error.
pub const RPC_ERROR: u8 = 3;
/// No usable answer: the server would not start, died, timed out or sent garbage.
pub const TRANSPORT: u8 = 4;

/// Why a command failed: an exit status and one line for stderr, and what callers
/// act on typed (never by reading the line).
#[derive(Debug)]
pub struct Failure {
    /// The exit status.
    pub code: u8,
    /// What happened, in one line (without the `mcpg: ` prefix).
    pub message: String,
    /// The HTTP status the server refused with, when that is why the command failed
    /// (401: it wants authorization; see [`DriverError::refused`]).
    pub refused: Option<u16>,
    /// Whether `message` already says to run `mcpg auth login` (then
    /// [`crate::auth::explain`] adds no hint of its own).
    pub names_login: bool,
    /// What the server answered, typed, for the advice table's `hint:` line
    /// ([`crate::advice`]); `None` when the failure is not the server's answer.
    pub situation: Option<Box<Situation>>,
}

impl Failure {
    /// A failure with exit status `code`, refused by nobody.
    pub fn new(code: u8, message: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
            refused: None,
            names_login: false,
            situation: None,
        }
    }

    /// The same failure, with what the server answered.
    pub fn answered(self, situation: Situation) -> Self {
        Failure {
            situation: Some(Box::new(situation)),
            ..self
        }
    }

    /// A usage error.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure::new(USAGE, message)
    }

    /// A transport-level failure.
    pub fn transport(message: impl Into<String>) -> Self {
        Failure::new(TRANSPORT, message)
    }
}

impl From<DriverError> for Failure {
    fn from(e: DriverError) -> Self {
        let code = if e.is_rpc() { RPC_ERROR } else { TRANSPORT };
        // One line, always: servers put newlines in error messages.
        let message = e
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Failure {
            refused: e.refused(),
            situation: situation(&e).map(Box::new),
            ..Failure::new(code, message)
        }
    }
}

/// What the server answered, typed, when `e` is its answer.
fn situation(e: &DriverError) -> Option<Situation> {
    match e {
        DriverError::Rpc { during, error } => Some(Situation::rpc(during, error)),
        DriverError::Refused { during, status, .. } => Some(Situation::http(during, *status)),
        // Negotiation failed at a handshake: what the server answered it with.
        DriverError::Connect(c, Some(h)) => {
            let s = match &h.error {
                Some(error) => Situation::rpc(h.method, error),
                None => Situation::http(h.method, c.refused?),
            };
            Some(Situation {
                status: c.refused,
                ..s
            })
        }
        _ => None,
    }
}
