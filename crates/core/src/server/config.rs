//! Server configuration.

use crate::model::{Implementation, JsonObject};
use crate::version::ProtocolVersion;

/// What a [`crate::server::Server`] announces and how it pages.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// `serverInfo`.
    pub info: Implementation,
    /// Instructions for the model.
    pub instructions: Option<String>,
    /// Capabilities besides `tools` (which the server fills in itself).
    pub capabilities: JsonObject,
    /// Whether to declare `tools.listChanged` and send the notification.
    pub tools_list_changed: bool,
    /// Revisions spoken (both generations by default).
    pub versions: Vec<ProtocolVersion>,
    /// Tools per `tools/list` page.
    pub page_size: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            info: Implementation::new("mcpg-server", env!("CARGO_PKG_VERSION")),
            instructions: None,
            capabilities: JsonObject::new(),
            tools_list_changed: true,
            versions: ProtocolVersion::ALL.to_vec(),
            page_size: 50,
        }
    }
}
