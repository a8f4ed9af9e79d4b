//! Diagnostics: where a peer breaks the spec (or the wire breaks), the core says so,
//! names the rule and the spec section, and keeps going.

use std::fmt;
use std::sync::Arc;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; nothing is wrong.
    Info,
    /// A SHOULD is broken, or something odd happened that the core worked around.
    Warning,
    /// A MUST is broken, or a message could not be used.
    Error,
}

/// The rule a diagnostic is about. The set is closed so the UI can explain each one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The text is not JSON.
    MalformedJson,
    /// JSON, but not a JSON-RPC 2.0 message.
    NotJsonRpc,
    /// A batch (JSON array) where the negotiated revision does not allow one.
    BatchNotAllowed,
    /// A response whose id matches no request in flight.
    UnknownResponseId,
    /// A response to a request that was cancelled or timed out (ignored, as the spec says).
    LateResponse,
    /// The server chose a revision the client did not offer.
    VersionNotOffered,
    /// A result lacks `resultType` under 2026-07-28.
    MissingResultType,
    /// A result does not have the shape its method requires.
    ResultShape,
    /// A tool name breaks the naming guidance (1–128 chars of `A-Za-z0-9_-.`).
    ToolName,
    /// Two tools share a name.
    DuplicateToolName,
    /// `inputSchema` is missing, not an object, or not `type: "object"`.
    InputSchema,
    /// `outputSchema` is not an object schema.
    OutputSchema,
    /// A tool entry could not be read at all.
    ToolShape,
    /// `tools/list` returned a cursor it had already returned.
    RepeatingCursor,
    /// `tools/list` went on for more pages than the client allows.
    TooManyPages,
    /// `CallToolResult.content` is missing.
    MissingContent,
    /// A content block the client cannot read.
    ContentShape,
    /// A field used before the revision that introduced it (e.g. `structuredContent` before 2025-06-18).
    FieldNotInVersion,
    /// `structuredContent` present but no `outputSchema`, or vice versa.
    StructuredContent,
    /// A progress notification for an unknown token, or progress that did not increase.
    Progress,
    /// A server-to-client request for a capability the client did not declare, or an unknown method.
    UnexpectedRequest,
    /// A notification the client does not know or that arrived out of place.
    UnexpectedNotification,
    /// The server sent a request before the `initialize` response (only `ping` may).
    RequestBeforeInitialized,
    /// A request timed out.
    Timeout,
    /// The transport closed or failed.
    Transport,
    /// Generation probing: what was tried and why it fell back.
    Negotiation,
    /// A client message a server cannot accept (server role).
    InvalidRequest,
    /// A tool's `x-mcp-header` annotations are invalid (the tool is left out of the
    /// listing), or an argument could not be mirrored faithfully into its header
    /// (2026-07-28).
    ParamHeader,
    /// An `InputRequiredResult` breaks the MRTR rules, or a retry does not answer
    /// what it asked (2026-07-28).
    InputRequired,
    /// A message larger than the transport's limit was dropped.
    Oversized,
    /// Bytes from the server that are not UTF-8 (read with U+FFFD in their place).
    NotUtf8,
    /// The server uses a capability it did not declare (`resources`, `prompts`,
    /// `completions`, `logging`, `resources.subscribe`, `listChanged`), or the client
    /// is asked to use one the server did not declare.
    CapabilityNotDeclared,
    /// A resource template is not RFC 6570 (level 1–4) syntax.
    UriTemplate,
    /// A blob is not base64.
    BlobNotBase64,
    /// A log level outside the eight RFC 5424 levels, or a log message the client
    /// did not ask for.
    LogLevel,
    /// Two resources, templates or prompts share a URI, template or name in one listing.
    DuplicateEntry,
    /// A resource, template or resource contents entry does not have its shape.
    ResourceShape,
    /// A prompt, prompt argument or prompt message does not have its shape.
    PromptShape,
    /// A completion result breaks its rules (missing, over 100 values, odd total).
    Completion,
    /// A subscription not honoured, or an update nobody subscribed to.
    Subscription,
    /// A URL elicitation that breaks its rules: before 2025-11-25, a `-32042`
    /// error without its `elicitations`, a completion notice for an elicitation the
    /// client never saw.
    Elicitation,
    /// A task (2025-11-25, or the 2026-07-28 Tasks extension): its handle, status,
    /// input requests or lifetime.
    Task,
}

impl Rule {
    /// A short stable identifier (`tool-name`, `unknown-response-id`…).
    pub fn id(self) -> &'static str {
        match self {
            Rule::MalformedJson => "malformed-json",
            Rule::NotJsonRpc => "not-json-rpc",
            Rule::BatchNotAllowed => "batch-not-allowed",
            Rule::UnknownResponseId => "unknown-response-id",
            Rule::LateResponse => "late-response",
            Rule::VersionNotOffered => "version-not-offered",
            Rule::MissingResultType => "missing-result-type",
            Rule::ResultShape => "result-shape",
            Rule::ToolName => "tool-name",
            Rule::DuplicateToolName => "duplicate-tool-name",
            Rule::InputSchema => "input-schema",
            Rule::OutputSchema => "output-schema",
            Rule::ToolShape => "tool-shape",
            Rule::RepeatingCursor => "repeating-cursor",
            Rule::TooManyPages => "too-many-pages",
            Rule::MissingContent => "missing-content",
            Rule::ContentShape => "content-shape",
            Rule::FieldNotInVersion => "field-not-in-version",
            Rule::StructuredContent => "structured-content",
            Rule::Progress => "progress",
            Rule::UnexpectedRequest => "unexpected-request",
            Rule::UnexpectedNotification => "unexpected-notification",
            Rule::RequestBeforeInitialized => "request-before-initialized",
            Rule::Timeout => "timeout",
            Rule::Transport => "transport",
            Rule::Negotiation => "negotiation",
            Rule::InvalidRequest => "invalid-request",
            Rule::ParamHeader => "param-header",
            Rule::InputRequired => "input-required",
            Rule::Oversized => "oversized",
            Rule::NotUtf8 => "not-utf8",
            Rule::CapabilityNotDeclared => "capability-not-declared",
            Rule::UriTemplate => "uri-template",
            Rule::BlobNotBase64 => "blob-not-base64",
            Rule::LogLevel => "log-level",
            Rule::DuplicateEntry => "duplicate-entry",
            Rule::ResourceShape => "resource-shape",
            Rule::PromptShape => "prompt-shape",
            Rule::Completion => "completion",
            Rule::Subscription => "subscription",
            Rule::Elicitation => "elicitation",
            Rule::Task => "task",
        }
    }

    /// Where the rule lives in the specification (path under `docs/specification/<version>/`).
    pub fn section(self) -> &'static str {
        match self {
            Rule::MalformedJson
            | Rule::NotJsonRpc
            | Rule::UnknownResponseId
            | Rule::InvalidRequest => "basic/index (JSON-RPC messages)",
            Rule::BatchNotAllowed => "basic/index (batching: 2025-03-26 only)",
            Rule::LateResponse => "basic/utilities/cancellation",
            Rule::VersionNotOffered | Rule::RequestBeforeInitialized => {
                "basic/lifecycle (initialization)"
            }
            Rule::Negotiation => "basic/lifecycle; 2026-07-28 basic/versioning",
            Rule::MissingResultType => "2026-07-28 basic/index (resultType)",
            Rule::ResultShape | Rule::ToolShape => "server/tools (data types)",
            Rule::ToolName | Rule::DuplicateToolName => "server/tools#tool-names",
            Rule::InputSchema | Rule::OutputSchema => {
                "server/tools#tool (inputSchema, outputSchema)"
            }
            Rule::RepeatingCursor | Rule::TooManyPages => "server/utilities/pagination",
            Rule::MissingContent | Rule::ContentShape => "server/tools#tool-result",
            Rule::FieldNotInVersion => "changelog of the negotiated revision",
            Rule::StructuredContent => "server/tools#structured-content",
            Rule::Progress => "basic/utilities/progress",
            Rule::UnexpectedRequest => "client/roots, client/sampling, client/elicitation",
            Rule::UnexpectedNotification => "basic/index (notifications)",
            Rule::Timeout => "basic/lifecycle#timeouts",
            Rule::Transport => "basic/transports",
            Rule::ParamHeader => {
                "2026-07-28 basic/transports/streamable-http#custom-headers-from-tool-parameters"
            }
            Rule::InputRequired => "2026-07-28 basic/patterns/mrtr",
            Rule::Oversized => "basic/transports (message framing)",
            Rule::NotUtf8 => "basic/transports (messages MUST be UTF-8 encoded)",
            Rule::CapabilityNotDeclared => "basic/lifecycle#capability-negotiation",
            Rule::UriTemplate => "server/resources#resource-templates (RFC 6570)",
            Rule::BlobNotBase64 => "server/resources#binary-content",
            Rule::LogLevel => "server/utilities/logging#log-levels",
            Rule::DuplicateEntry => {
                "server/resources#listing-resources, server/prompts#listing-prompts"
            }
            Rule::ResourceShape => "server/resources#data-types",
            Rule::PromptShape => "server/prompts#data-types",
            Rule::Completion => "server/utilities/completion",
            Rule::Subscription => {
                "server/resources#subscriptions; 2026-07-28 basic/utilities/subscriptions"
            }
            Rule::Elicitation => "2025-11-25 client/elicitation#url-mode-elicitation-requests",
            Rule::Task => {
                "2025-11-25 basic/utilities/tasks; 2026-07-28 extension io.modelcontextprotocol/tasks"
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One finding about the conversation with the peer.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Which rule.
    pub rule: Rule,
    /// How serious.
    pub severity: Severity,
    /// What happened, in one sentence a person can act on.
    pub message: String,
    /// The wire text the finding is about, when there is one.
    pub raw: Option<Arc<str>>,
}

impl Diagnostic {
    /// A new diagnostic.
    pub fn new(rule: Rule, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity,
            message: message.into(),
            raw: None,
        }
    }

    /// Attaches the wire text concerned.
    pub fn with_raw(mut self, raw: Arc<str>) -> Self {
        self.raw = Some(raw);
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(
            f,
            "{sev}[{}]: {} (spec: {})",
            self.rule.id(),
            self.message,
            self.rule.section()
        )
    }
}
