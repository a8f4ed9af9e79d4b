//! The checks, in the order the doctor runs them, and what each one concluded.

/// One check of the doctor. The set is closed and each has a stable [`Check::id`],
/// so CI scripts and the page can key on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// The host name resolves to addresses.
    Resolve,
    /// A TCP connection to the host and port opens.
    Tcp,
    /// The TLS handshake (certificate valid, issued for the host name).
    Tls,
    /// A POSTed MCP request: its HTTP status and content type.
    Post,
    /// The same POST with an `Accept` that lacks `text/event-stream` (a 406 there).
    Accept,
    /// A CORS preflight from the page's origin.
    Cors,
    /// A 401: protected-resource metadata (RFC 9728) and authorization-server
    /// metadata (RFC 8414) can be found.
    Auth,
    /// The stdio program is found (on `PATH`, or at its path).
    Program,
    /// The stdio program starts and answers with JSON-RPC on stdout.
    Startup,
    /// The 2026-07-28 handshake, `server/discover`.
    Discover,
    /// The older revisions' handshake, `initialize`.
    Initialize,
    /// The revisions each side speaks and the one a client negotiates.
    Revisions,
    /// Every page of `tools/list`.
    ToolsList,
    /// The tools' `x-mcp-header` annotations (2026-07-28).
    ParamHeaders,
    /// Each tool's name, `inputSchema` and `outputSchema` against the spec.
    ToolSchemas,
    /// The capabilities the server declared against what it answers.
    Capabilities,
}

impl Check {
    /// The checks for a URL, in order.
    pub const URL: [Check; 14] = [
        Check::Resolve,
        Check::Tcp,
        Check::Tls,
        Check::Post,
        Check::Accept,
        Check::Cors,
        Check::Auth,
        Check::Discover,
        Check::Initialize,
        Check::Revisions,
        Check::ToolsList,
        Check::ParamHeaders,
        Check::ToolSchemas,
        Check::Capabilities,
    ];

    /// The checks for a stdio command, in order.
    pub const STDIO: [Check; 9] = [
        Check::Program,
        Check::Startup,
        Check::Discover,
        Check::Initialize,
        Check::Revisions,
        Check::ToolsList,
        Check::ParamHeaders,
        Check::ToolSchemas,
        Check::Capabilities,
    ];

    /// The checks that need a session (a handshake that worked), in order.
    pub const SESSION: [Check; 7] = [
        Check::Discover,
        Check::Initialize,
        Check::Revisions,
        Check::ToolsList,
        Check::ParamHeaders,
        Check::ToolSchemas,
        Check::Capabilities,
    ];

    /// A short stable identifier (`dns`, `tools-list`…), for `--json`.
    pub fn id(self) -> &'static str {
        match self {
            Check::Resolve => "dns",
            Check::Tcp => "tcp",
            Check::Tls => "tls",
            Check::Post => "http-post",
            Check::Accept => "http-accept",
            Check::Cors => "cors",
            Check::Auth => "auth-discovery",
            Check::Program => "program",
            Check::Startup => "startup",
            Check::Discover => "server-discover",
            Check::Initialize => "initialize",
            Check::Revisions => "revisions",
            Check::ToolsList => "tools-list",
            Check::ParamHeaders => "x-mcp-header",
            Check::ToolSchemas => "tool-schemas",
            Check::Capabilities => "capabilities",
        }
    }

    /// What the check looks at, for people.
    pub fn title(self) -> &'static str {
        match self {
            Check::Resolve => "name resolution",
            Check::Tcp => "TCP connection",
            Check::Tls => "TLS",
            Check::Post => "POST of an MCP request",
            Check::Accept => "POST without text/event-stream in Accept",
            Check::Cors => "CORS for the page's origin",
            Check::Auth => "sign-in discovery",
            Check::Program => "program",
            Check::Startup => "start-up",
            Check::Discover => "server/discover (2026-07-28)",
            Check::Initialize => "initialize (2024-11-05 to 2025-11-25)",
            Check::Revisions => "revisions",
            Check::ToolsList => "tools/list",
            Check::ParamHeaders => "x-mcp-header",
            Check::ToolSchemas => "tool schemas",
            Check::Capabilities => "declared capabilities",
        }
    }
}

/// What a check concluded. Ordered from best to worst for [`Verdict::worst`]:
/// a skipped check says nothing about the server, so it ranks below a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Not run: it does not apply, or an earlier check it depends on failed.
    Skip,
    /// Works.
    Pass,
    /// Works, but something will bite some client (or the page).
    Warn,
    /// Broken.
    Fail,
}

impl Verdict {
    /// `pass`, `warn`, `fail` or `skip`, for `--json`.
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Warn => "warn",
            Verdict::Fail => "fail",
            Verdict::Skip => "skip",
        }
    }

    /// The worse of two verdicts.
    pub fn worst(self, other: Verdict) -> Verdict {
        self.max(other)
    }
}

/// One check's conclusion: the verdict, what was seen, and what to do.
///
/// The evidence and the fix may quote the server: a driver escapes them before a
/// terminal or an HTML page sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Which check.
    pub check: Check,
    /// What it concluded.
    pub verdict: Verdict,
    /// What was seen, in one or a few sentences.
    pub evidence: String,
    /// What to do about it (also on a pass, when there is something to know, such
    /// as how to sign in).
    pub fix: Option<String>,
}

impl Finding {
    /// A finding without a fix.
    pub fn new(check: Check, verdict: Verdict, evidence: impl Into<String>) -> Self {
        Finding {
            check,
            verdict,
            evidence: evidence.into(),
            fix: None,
        }
    }

    /// A pass.
    pub fn pass(check: Check, evidence: impl Into<String>) -> Self {
        Finding::new(check, Verdict::Pass, evidence)
    }

    /// A warning with its fix.
    pub fn warn(check: Check, evidence: impl Into<String>, fix: impl Into<String>) -> Self {
        Finding::new(check, Verdict::Warn, evidence).with_fix(fix)
    }

    /// A failure with its fix.
    pub fn fail(check: Check, evidence: impl Into<String>, fix: impl Into<String>) -> Self {
        Finding::new(check, Verdict::Fail, evidence).with_fix(fix)
    }

    /// A skipped check and why.
    pub fn skip(check: Check, why: impl Into<String>) -> Self {
        Finding::new(check, Verdict::Skip, why)
    }

    /// Sets the fix.
    pub fn with_fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = Some(fix.into());
        self
    }
}
