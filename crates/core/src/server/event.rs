//! What the server session reports to the application.

use serde_json::Value;

use super::AskOutcome;
use crate::client::WireEntry;
use crate::diag::Diagnostic;
use crate::jsonrpc::RequestId;
use crate::model::LoggingLevel;
use crate::model::{Implementation, JsonObject};
use crate::version::ProtocolVersion;

/// Everything the server session reports to the application.
///
/// The requests the application answers (`CallTool`, `ReadResource`, `GetPrompt`,
/// `Complete`) arrive already checked: the tool, resource, prompt or template exists
/// and the required arguments are there. Answer each with the matching `respond_*`
/// method of [`super::Server`] (or [`super::Server::respond_error`]), now or later.
#[derive(Clone, Debug, PartialEq)]
pub enum ServerEvent {
    /// A frame crossed the wire.
    Wire(WireEntry),
    /// A client finished the `initialize` handshake.
    Initialized {
        /// The agreed revision.
        version: ProtocolVersion,
        /// Who the client is.
        client_info: Implementation,
    },
    /// A client asked to run a tool; answer with [`super::Server::respond`] or
    /// [`super::Server::respond_error`].
    CallTool {
        /// Request id to answer.
        id: RequestId,
        /// Tool name (known to exist).
        name: String,
        /// Arguments (empty when none were sent).
        arguments: JsonObject,
        /// Progress token, when the client asked for progress.
        progress_token: Option<Value>,
        /// `params.task` (2025-11-25, when the configuration declares tasks): run
        /// the call as a task and answer at once with a `CreateTaskResult`
        /// ([`super::Server::respond_result`]). The server has checked it against the
        /// tool's `execution.taskSupport`; elsewhere it is ignored, so `None`.
        task: Option<JsonObject>,
    },
    /// A client asked to read a listed resource, or a URI one of the templates
    /// matches; answer with [`super::Server::respond_read`] (or a `-32002` error when
    /// a templated URI names nothing).
    ReadResource {
        /// Request id to answer.
        id: RequestId,
        /// The URI asked for.
        uri: String,
        /// The `uriTemplate` that matched, when the URI is not a listed resource.
        template: Option<String>,
        /// The template's variables, percent-decoded (empty for a listed resource).
        variables: JsonObject,
    },
    /// A client asked for a prompt; answer with [`super::Server::respond_prompt`].
    GetPrompt {
        /// Request id to answer.
        id: RequestId,
        /// Prompt name (known to exist).
        name: String,
        /// Arguments (every required one is present).
        arguments: JsonObject,
    },
    /// A client asked for completions; answer with [`super::Server::respond_completion`].
    Complete {
        /// Request id to answer.
        id: RequestId,
        /// What is being completed.
        reference: CompletionTarget,
        /// The argument (or template variable) name.
        argument: String,
        /// What the user has typed so far.
        value: String,
        /// Arguments already filled in (`context.arguments`).
        context: JsonObject,
    },
    /// A request about a task (when the configuration declares tasks): under
    /// 2025-11-25 `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel`; under
    /// 2026-07-28, from a request that declares the Tasks extension, `tasks/get`,
    /// `tasks/update` or `tasks/cancel`; as sent. The
    /// application keeps the tasks, so it answers, with
    /// [`super::Server::respond_result`] or [`super::Server::respond_error`]
    /// (`tasks/result` when the task has ended).
    TaskRequest {
        /// Request id to answer.
        id: RequestId,
        /// The method.
        method: String,
        /// Its params (empty when none were sent).
        params: JsonObject,
    },
    /// The client chose a log level with `logging/setLevel`.
    LogLevelSet(LoggingLevel),
    /// The client cancelled a request in flight; the application should stop it.
    Cancelled {
        /// The request's id.
        id: RequestId,
        /// The client's reason.
        reason: Option<String>,
    },
    /// The client answered a request the server sent with [`super::Server::ask`]
    /// (or it timed out).
    Answered {
        /// The id [`super::Server::ask`] returned.
        id: RequestId,
        /// The method asked.
        method: String,
        /// The client's result or error.
        outcome: AskOutcome,
    },
    /// A notification the session does not handle itself.
    Notification {
        /// Its method.
        method: String,
        /// Its params.
        params: Option<Value>,
    },
    /// A finding about what the client sent.
    Diagnostic(Diagnostic),
}

/// The `ref` of a `completion/complete` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompletionTarget {
    /// `ref/prompt`: an argument of this prompt.
    Prompt(String),
    /// `ref/resource`: a variable of this URI template.
    Template(String),
}
