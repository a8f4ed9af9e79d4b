//! What happened, as the core and the HTTP machine report it.

use mcpg_core::client::GenerationMode;
use mcpg_core::jsonrpc::RpcError;
use mcpg_core::version::ProtocolVersion;

/// A failed request, described by what the client saw: the request, the revision,
/// what the client was told to speak, and the server's answer (a JSON-RPC error, an
/// HTTP status, or both when a refusal's body held an error).
#[derive(Clone, Debug, PartialEq)]
pub struct Situation {
    /// The request that failed (`tools/call`, `initialize`, `server/discover`…).
    pub method: Option<String>,
    /// The revision the request was sent under (the negotiated one), when known.
    pub revision: Option<ProtocolVersion>,
    /// Which generations the client was allowed (`--protocol`, a pinned revision, the
    /// page's revision picker); [`GenerationMode::Auto`] when nothing was pinned.
    pub mode: GenerationMode,
    /// The JSON-RPC error the server answered with.
    pub error: Option<RpcError>,
    /// The HTTP status the server refused the request with (not 2xx).
    pub status: Option<u16>,
    /// The refusal's `Content-Type`, when the caller saw it (the doctor does).
    pub content_type: Option<String>,
}

impl Situation {
    /// Nothing known yet about `method`'s failure.
    fn of(method: &str) -> Self {
        Situation {
            method: Some(method.to_owned()),
            revision: None,
            mode: GenerationMode::Auto,
            error: None,
            status: None,
            content_type: None,
        }
    }

    /// `method` was answered with the JSON-RPC error `error`.
    pub fn rpc(method: &str, error: &RpcError) -> Self {
        Situation {
            error: Some(error.clone()),
            ..Situation::of(method)
        }
    }

    /// `method` was refused with HTTP `status`.
    pub fn http(method: &str, status: u16) -> Self {
        Situation {
            status: Some(status),
            ..Situation::of(method)
        }
    }

    /// The same, sent under `revision`.
    pub fn under(self, revision: Option<ProtocolVersion>) -> Self {
        Situation { revision, ..self }
    }

    /// The same, with the client allowed only `mode`.
    pub fn allowing(self, mode: GenerationMode) -> Self {
        Situation { mode, ..self }
    }

    /// The same, with the refusal's `Content-Type`.
    pub fn typed(self, content_type: &str) -> Self {
        Situation {
            content_type: Some(content_type.to_owned()),
            ..self
        }
    }

    /// Whether the request was sent as `method`.
    pub(crate) fn is(&self, method: &str) -> bool {
        self.method.as_deref() == Some(method)
    }

    /// The JSON-RPC error, when its code is `code`.
    pub(crate) fn coded(&self, code: i64) -> Option<&RpcError> {
        self.error.as_ref().filter(|e| e.code == code)
    }
}
