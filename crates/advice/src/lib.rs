//! Advice on known refusals, sans-IO.
//!
//! A table of the error shapes real MCP SDKs answer with when a client and a server
//! do not fit (the Python SDK's "no back-channel" refusal under 2026-07-28, the
//! 2026-07-28 error codes `-32020`, `-32021` and `-32022`, a server of one
//! generation asked for the other, HTTP 406 and 415), each mapped to a sentence
//! saying what happened and why, and the fix on each surface: the `mcpg` flag and
//! the page's setting.
//!
//! One call: build a [`Situation`] from what the core reported and ask [`advise`].
//! Rows match on structure (codes, `data` members, HTTP statuses, the method and
//! the revision); the one row that reads a peer's words does so because the words
//! are the peer's only signal, and says so ([`AdviceId::NoBackChannel`]). No advice
//! repeats a server's text: every sentence is built from this crate's own words and
//! values parsed into closed types, so a caller may show it as it is (the CLI still
//! escapes it, the page inserts it as text).

mod capability;
mod id;
mod situation;
mod table;

pub use id::AdviceId;
pub use situation::Situation;

/// What to tell the person whose request failed, and how to get past it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    /// Which row matched (stable: tests, the doctor and `data-` hooks name it).
    pub id: AdviceId,
    /// What happened and why, in one or two sentences.
    pub why: String,
    /// The way out in `mcpg`: flags to add or drop (e.g. `--protocol-version
    /// 2025-11-25`); `None` when no flag of the client fixes it.
    pub cli: Option<String>,
    /// The way out in the page: the setting to change and its name as shown (e.g.
    /// the Server panel's **Protocol revision**); `None` when the page has none.
    pub page: Option<String>,
}

/// The advice for what happened, or `None` when no row knows this shape.
pub fn advise(s: &Situation) -> Option<Advice> {
    // In the table's order: HTTP statuses first (an SDK may put a JSON-RPC error
    // of its own in a 406's body), the general -32022 last.
    AdviceId::ALL.into_iter().find_map(|id| table::row(id, s))
}
