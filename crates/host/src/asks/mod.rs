//! What the server asks of the host, and the host's answers: `sampling/createMessage`,
//! `elicitation/create` (form or URL), `roots/list`, and the same three inside a
//! 2026-07-28 `InputRequiredResult` (MRTR).
//!
//! Pure, like the rest of the crate: the page, the CLI and the conformance client
//! read an ask with [`parse`], decide (a person, or a [`Policy`]), and send
//! [`Reply::to_result`] back through `Client::answer` (or, for MRTR,
//! [`input_responses`] through `Client::continue_call`). Nothing here opens a URL or
//! calls a model: [`sampling_request`] only builds the provider's body, and the
//! module never holds an API key.

mod edit;
mod elicit;
mod form;
mod formats;
mod model;
mod mrtr;
mod policy;
mod sampling;

pub use edit::edited_params;
pub use elicit::{Domain, ElicitAsk, ElicitMode, url_domain, url_elicitations};
pub use form::{check_content, elicit_content, elicit_defaults, elicit_fields};
pub use mcpg_loop_data::Root;
pub use mcpg_loop_data::{ElicitAction, Reply, SAMPLING_REJECTED, Sampled};
/// The one URL rule a URL elicitation must pass to be offered, in words.
pub use mcpg_safe_url::RULE as URL_RULE;
pub use model::{SampleError, sampled_from_reply, sampling_request};
pub use mrtr::{input_requests, input_responses};
pub use policy::{ElicitPolicy, Policy, SamplePolicy, client_capabilities};
pub use sampling::{MOCK_MODEL, SamplingAsk, SamplingMessage, TYPED_MODEL, mock_sample};

use serde_json::Value;

/// The three methods a server may send the client (besides `ping`, which the core answers).
pub const METHODS: [&str; 3] = ["sampling/createMessage", "elicitation/create", "roots/list"];

/// What the server asked, typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// `sampling/createMessage`: let the host's model write a message.
    Sampling(SamplingAsk),
    /// `elicitation/create`: ask the user, with a form or a URL.
    Elicit(ElicitAsk),
    /// `roots/list`: which folders the server may see.
    Roots,
}

impl Ask {
    /// The method this ask came as.
    pub fn method(&self) -> &'static str {
        match self {
            Ask::Sampling(_) => METHODS[0],
            Ask::Elicit(_) => METHODS[1],
            Ask::Roots => METHODS[2],
        }
    }
}

/// Why a server request cannot be read as an [`Ask`]. The host answers such a
/// request with `-32602` (see [`AskError::to_rpc_error`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AskError {
    /// Not one of [`METHODS`].
    #[error(
        "{0:?} is not a request the host answers (sampling/createMessage, elicitation/create, roots/list)"
    )]
    UnknownMethod(String),
    /// A required field is absent.
    #[error("the request has no {0}")]
    Missing(String),
    /// A field has the wrong shape.
    #[error("{field} is not {expected}")]
    Invalid {
        /// Where (`params.messages[1].role`).
        field: String,
        /// What it should be, in words.
        expected: &'static str,
    },
    /// A URL elicitation whose URL must never be opened: it breaks the one URL
    /// rule ([`mcpg_safe_url::RULE`]).
    #[error("the URL {url:?} cannot be offered: {reason} (rule: {})", reason.rule())]
    BadUrl {
        /// The URL as sent.
        url: String,
        /// Which part of the rule it broke.
        reason: mcpg_safe_url::Refusal,
    },
}

impl AskError {
    /// The JSON-RPC error a host answers an unreadable request with (`-32602`).
    pub fn to_rpc_error(&self) -> mcpg_core::jsonrpc::RpcError {
        mcpg_core::jsonrpc::RpcError::new(
            mcpg_core::jsonrpc::code::INVALID_PARAMS,
            self.to_string(),
        )
    }
}

/// Reads a server request (its method and params) as an [`Ask`].
pub fn parse(method: &str, params: Option<&Value>) -> Result<Ask, AskError> {
    match method {
        "sampling/createMessage" => sampling::parse(params).map(Ask::Sampling),
        "elicitation/create" => elicit::parse(params).map(Ask::Elicit),
        "roots/list" => Ok(Ask::Roots),
        other => Err(AskError::UnknownMethod(other.to_owned())),
    }
}

/// The params as an object, or why not.
fn params_object(params: Option<&Value>) -> Result<&serde_json::Map<String, Value>, AskError> {
    match params {
        None | Some(Value::Null) => Err(AskError::Missing("params".into())),
        Some(Value::Object(o)) => Ok(o),
        Some(_) => Err(AskError::Invalid {
            field: "params".into(),
            expected: "an object",
        }),
    }
}

/// An optional string member.
fn opt_str(o: &serde_json::Map<String, Value>, key: &str) -> Result<Option<String>, AskError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(AskError::Invalid {
            field: format!("params.{key}"),
            expected: "a string",
        }),
    }
}

/// A required string member.
fn req_str(o: &serde_json::Map<String, Value>, key: &str) -> Result<String, AskError> {
    opt_str(o, key)?.ok_or_else(|| AskError::Missing(format!("params.{key}")))
}
