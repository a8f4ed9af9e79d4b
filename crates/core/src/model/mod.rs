//! Typed views of the MCP messages a client needs (tools, resources, prompts,
//! completions, logging), named as in the
//! spec's `schema.ts`. Every struct keeps members it does not know in `extra`, so a
//! view re-serializes to what the server sent, and `_meta` is always preserved.

mod annotations;
mod completion;
mod content;
mod elicitation;
mod error;
mod json;
mod lifecycle;
mod logging;
mod prompt;
mod resource;
mod resources;
mod tool;

pub use annotations::Annotations;
pub use completion::{CompleteResult, CompletionReference};
pub use content::{AudioContent, ContentBlock, ImageContent, TextContent};
pub use elicitation::{ElicitationComplete, UrlElicitation, UrlElicitationRequired};
pub use error::{ModelError, ModelErrorKind};
pub use lifecycle::{DiscoverResult, Implementation, InitializeResult};
pub use logging::{LogMessage, LoggingLevel};
pub use prompt::{GetPromptResult, Prompt, PromptArgument, PromptMessage, Role};
pub use resource::{
    BlobResourceContents, EmbeddedResource, ResourceContents, ResourceLink, TextResourceContents,
};
pub use resources::{ReadResourceResult, Resource, ResourceTemplate};
pub use tool::{CallToolResult, ListToolsResult, Tool, ToolAnnotations};

use serde_json::{Map, Value};

/// A JSON object, used for `_meta`, capabilities and unknown members.
pub type JsonObject = Map<String, Value>;

/// `_meta` keys defined by the 2026-07-28 revision.
pub mod meta {
    /// Protocol version carried by every request (required).
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// Client capabilities carried by every request (required).
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// Client name and version carried by every request (should).
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// Server name and version carried by results (should).
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// Per-request log level opt-in.
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    /// The `subscriptions/listen` request a notification or result belongs to.
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}
