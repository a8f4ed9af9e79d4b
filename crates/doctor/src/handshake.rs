//! The two generations' handshakes, `server/discover` (2026-07-28) and
//! `initialize` (2024-11-05 to 2025-11-25), and the revisions each side speaks.

use mcpg_core::ProtocolVersion;

use crate::advice::rpc_fix;
use crate::check::{Check, Finding, Verdict};

/// How one handshake went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandshakeSeen {
    /// It worked: the revision agreed and the revisions the server listed
    /// (`server/discover`) or chose (`initialize`).
    Agreed {
        /// The revision agreed.
        version: String,
        /// What the server listed or chose.
        server_versions: Vec<String>,
    },
    /// The server answered with a JSON-RPC error.
    Refused {
        /// Its code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// The server answered, but with nothing this client can use (no shared
    /// revision, an unreadable result), in words.
    Declined(String),
    /// The server wants a sign-in (HTTP 401 or 403).
    SignIn,
    /// No usable answer (the process died, a timeout, a transport failure).
    Failed(String),
}

impl HandshakeSeen {
    /// Whether it worked.
    pub fn agreed(&self) -> bool {
        matches!(self, HandshakeSeen::Agreed { .. })
    }

    /// The revision agreed, if it worked.
    pub fn version(&self) -> Option<&str> {
        match self {
            HandshakeSeen::Agreed { version, .. } => Some(version),
            _ => None,
        }
    }
}

/// Judges `server/discover`; `initialize_ok` says whether the older handshake
/// worked (then not speaking 2026-07-28 is a warning, not a failure).
pub fn discover(seen: &HandshakeSeen, initialize_ok: bool) -> Finding {
    judge(Check::Discover, "server/discover", seen, initialize_ok)
}

/// Judges `initialize`; `discover_ok` says whether `server/discover` worked.
pub fn initialize(seen: &HandshakeSeen, discover_ok: bool) -> Finding {
    judge(Check::Initialize, "initialize", seen, discover_ok)
}

fn judge(check: Check, method: &str, seen: &HandshakeSeen, other_ok: bool) -> Finding {
    let (what_fails, other) = match check {
        Check::Discover => (
            "clients that speak only 2026-07-28 cannot connect",
            "clients fall back to initialize, so this works today",
        ),
        _ => (
            "clients of the older revisions (most hosts today) cannot connect",
            "clients that speak 2026-07-28 connect with server/discover",
        ),
    };
    let problem = |evidence: String, fix: String| {
        if other_ok {
            Finding::warn(check, format!("{evidence}; {other}"), fix)
        } else {
            Finding::fail(check, format!("{evidence}; {what_fails}"), fix)
        }
    };
    match seen {
        HandshakeSeen::Agreed {
            version,
            server_versions,
        } => {
            let listed = if server_versions.len() > 1 {
                format!(" (the server lists {})", server_versions.join(", "))
            } else {
                String::new()
            };
            Finding::pass(check, format!("agreed on {version}{listed}"))
        }
        HandshakeSeen::Refused { code, message } => problem(
            format!("{method} answered error {code}: {message}"),
            rpc_fix(method, *code, message),
        ),
        HandshakeSeen::Declined(why) => problem(
            format!("{method} answered, but {why}"),
            format!("The server's answer to {method} must name a revision this client speaks."),
        ),
        HandshakeSeen::SignIn => Finding::skip(check, "the server wants a sign-in first"),
        // The other handshake worked, so the server is up: this generation is
        // what it does not speak (an HTTP 405 from an HTTP+SSE server, say).
        HandshakeSeen::Failed(why) => problem(
            format!("{method}: {why}"),
            "The server gave no usable answer: read its stderr or logs (`mcpg info --verbose` \
             against the same server shows the exchange)."
                .to_owned(),
        ),
    }
}

/// The older `initialize` revisions worth asking for one by one (the handshake
/// shows only the one the server chose for the newest offered), newest first.
pub fn older_revisions() -> impl Iterator<Item = ProtocolVersion> {
    ProtocolVersion::ALL
        .into_iter()
        .rev()
        .filter(|v| *v < ProtocolVersion::LATEST_WITH_INITIALIZE)
}

/// Judges the revisions: what this client speaks, what the server listed or
/// chose in each handshake (and `older`: the older revisions it accepted when
/// offered alone, see [`older_revisions`]), and what a client that probes first
/// (the CLI's and the page's default) negotiates.
pub fn revisions(
    discover: &HandshakeSeen,
    initialize: &HandshakeSeen,
    older: &[String],
) -> Finding {
    let ours: Vec<&str> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
    let mut theirs: Vec<String> = older.to_vec();
    for seen in [discover, initialize] {
        if let HandshakeSeen::Agreed {
            server_versions, ..
        } = seen
        {
            for v in server_versions {
                if !theirs.contains(v) {
                    theirs.push(v.clone());
                }
            }
        }
    }
    // The default client probes server/discover first and falls back.
    let negotiated = discover.version().or(initialize.version());
    let Some(negotiated) = negotiated else {
        let signin = [discover, initialize]
            .iter()
            .any(|h| matches!(h, HandshakeSeen::SignIn));
        let verdict = if signin { Verdict::Skip } else { Verdict::Fail };
        return match verdict {
            Verdict::Skip => Finding::skip(Check::Revisions, "the server wants a sign-in first"),
            _ => Finding::fail(
                Check::Revisions,
                format!(
                    "no handshake worked; this client speaks {}",
                    ours.join(", ")
                ),
                "Make the server speak one of these revisions.",
            ),
        };
    };
    theirs.sort();
    theirs.dedup();
    Finding::pass(
        Check::Revisions,
        format!(
            "this client speaks {}; the server {}; a client that probes first negotiates {negotiated}",
            ours.join(", "),
            if theirs.is_empty() {
                "said none".to_owned()
            } else {
                format!("speaks {}", theirs.join(", "))
            }
        ),
    )
}

/// The JSON-RPC error the server answered `method` with, found in a wire log
/// (`(sent_by_client, text)` per frame, in order): the last request of that
/// method the client sent, and an error response with its id (or a null id, after
/// it). A driver's typed
/// error may say only that negotiation failed; the wire keeps the code.
pub fn error_reply<'a>(
    wire: impl IntoIterator<Item = (bool, &'a str)>,
    method: &str,
) -> Option<(i64, String)> {
    use serde_json::Value;
    let mut id: Option<Value> = None;
    let mut found = None;
    for (sent, text) in wire {
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        if sent {
            if v.get("method").and_then(Value::as_str) == Some(method) {
                id = v.get("id").cloned();
                found = None;
            }
            continue;
        }
        // An error with a null id is the server saying it could not read the
        // request's id (a refusal at the door, often with an HTTP 400).
        let ours = v.get("id") == id.as_ref() || v.get("id").is_some_and(Value::is_null);
        if id.is_some()
            && ours
            && let Some(e) = v.get("error")
        {
            let code = e.get("code").and_then(Value::as_i64).unwrap_or(0);
            let message = e
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            found = Some((code, message));
        }
    }
    found
}

/// What a failed handshake (`method`) was, from what the driver has: the HTTP
/// status the server refused it with (`refused`), the driver's words (`why`) and
/// the frames of its connection (`(sent_by_client, text)`): a sign-in wanted, a
/// JSON-RPC error (read from the wire, where its code is kept), an answer of no
/// use, or no answer.
pub fn failed(
    refused: Option<u16>,
    why: &str,
    wire: &[(bool, String)],
    method: &str,
) -> HandshakeSeen {
    if matches!(refused, Some(401 | 403)) {
        return HandshakeSeen::SignIn;
    }
    let frames = wire.iter().map(|(s, t)| (*s, t.as_str()));
    if let Some((code, message)) = error_reply(frames, method) {
        return HandshakeSeen::Refused { code, message };
    }
    // One line: the driver's words may quote a server's multi-line text.
    let why = why.split_whitespace().collect::<Vec<_>>().join(" ");
    if wire.iter().any(|(sent, _)| !sent) {
        HandshakeSeen::Declined(why)
    } else {
        HandshakeSeen::Failed(why)
    }
}
