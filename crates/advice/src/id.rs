//! The rows' names.

/// Which known refusal matched: one per row of the table, with a stable
/// kebab-case name ([`AdviceId::as_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AdviceId {
    /// Under 2026-07-28 a tool asked the client the classic way (a server-to-client
    /// `roots/list`, `sampling/createMessage` or `elicitation/create`) and the
    /// server's SDK refused to send it (the Python SDK's `-32600` "no back-channel").
    NoBackChannel,
    /// `-32020`: the HTTP headers disagree with the request's body (2026-07-28).
    HeaderMismatch,
    /// `-32021`: the request needs a client capability the client did not declare.
    MissingClientCapability,
    /// `-32022`: the server does not speak the revision the request carried.
    UnsupportedProtocolVersion,
    /// `initialize` refused by a server that speaks only 2026-07-28.
    StatelessOnlyServer,
    /// `server/discover` refused by a server that speaks only the `initialize`
    /// generation, while the client was told to speak 2026-07-28 only.
    InitializeOnlyServer,
    /// HTTP 406: the POST's `Accept` lacked `application/json` or `text/event-stream`.
    NotAcceptable,
    /// HTTP 415: the POST's `Content-Type` was not `application/json`.
    UnsupportedMediaType,
}

impl AdviceId {
    /// Every row, in the order [`crate::advise`] tries them.
    pub const ALL: [AdviceId; 8] = [
        AdviceId::NotAcceptable,
        AdviceId::UnsupportedMediaType,
        AdviceId::NoBackChannel,
        AdviceId::HeaderMismatch,
        AdviceId::MissingClientCapability,
        AdviceId::StatelessOnlyServer,
        AdviceId::InitializeOnlyServer,
        AdviceId::UnsupportedProtocolVersion,
    ];

    /// The stable kebab-case name (`no-back-channel`, `header-mismatch`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            AdviceId::NoBackChannel => "no-back-channel",
            AdviceId::HeaderMismatch => "header-mismatch",
            AdviceId::MissingClientCapability => "missing-client-capability",
            AdviceId::UnsupportedProtocolVersion => "unsupported-protocol-version",
            AdviceId::StatelessOnlyServer => "stateless-only-server",
            AdviceId::InitializeOnlyServer => "initialize-only-server",
            AdviceId::NotAcceptable => "not-acceptable",
            AdviceId::UnsupportedMediaType => "unsupported-media-type",
        }
    }

    /// The row named `s` ([`AdviceId::as_str`]'s inverse).
    pub fn parse(s: &str) -> Option<AdviceId> {
        AdviceId::ALL.into_iter().find(|id| id.as_str() == s)
    }
}
