//! What the driver and the shell say about authorization (issue 15): the view of a
//! server that wants it, and the shell's answer. Types only (the driver's half is
//! `auth_hold.rs`), so the view and the input need not import the driver.

use crate::links::HttpTarget;

/// The server refused the connection's requests for want of authorization; they
/// wait until the learner signs in (or gives up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthNeeded {
    /// The endpoint (where the shell keeps its token; the relay's remote by name).
    pub target: HttpTarget,
    /// 401, or 403 for `insufficient_scope` (a step-up).
    pub status: u16,
    /// The `WWW-Authenticate` header, as the server sent it (no secret: a challenge).
    pub www_authenticate: Option<String>,
}

/// What the learner (or the shell's OAuth flow) decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthCommand {
    /// The shell has a token for the link now: re-send what waits, in order.
    Resume,
    /// No token: what waits fails with this reason.
    GiveUp(String),
}
