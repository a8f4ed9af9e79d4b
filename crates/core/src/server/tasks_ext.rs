//! The server side of the 2026-07-28 Tasks extension (`io.modelcontextprotocol/tasks`,
//! SEP-2663), as far as the core's server goes: the declaration in `server/discover`,
//! which requests may see a tool that runs only as a task, and the `-32021` the
//! extension asks for when a request needs it and does not declare it. The
//! application keeps the tasks, as under 2025-11-25: it reads a call's
//! [`super::CallContext`] to know whether to answer with a task handle, and answers
//! `tasks/get`, `tasks/update` and `tasks/cancel` ([`super::ServerEvent::TaskRequest`]).

use serde_json::{Value, json};

use super::Server;
use crate::client::TASKS_EXTENSION;
use crate::jsonrpc::{RpcError, code};
use crate::model::{JsonObject, Tool, meta};
use crate::version::{Generation, ProtocolVersion};

/// Whether per-request client capabilities declare the extension (an object, as
/// the extension's capability is: `{}` today).
pub fn declares_tasks_extension(caps: &JsonObject) -> bool {
    caps.get("extensions")
        .and_then(|e| e.get(TASKS_EXTENSION))
        .is_some_and(Value::is_object)
}

/// The same, read from a request's `params._meta`.
pub(super) fn request_declares_tasks(params: Option<&Value>) -> bool {
    params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(meta::CLIENT_CAPABILITIES))
        .and_then(Value::as_object)
        .is_some_and(declares_tasks_extension)
}

/// `-32021` naming the extension, as the extension spells it for a request it
/// needs and that did not declare it.
pub(super) fn tasks_extension_missing(what: &str) -> RpcError {
    RpcError {
        code: code::MISSING_CLIENT_CAPABILITY,
        message: format!(
            "Missing required client capability: {what} needs the {TASKS_EXTENSION} extension declared in the request's client capabilities"
        ),
        data: Some(json!({"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})),
    }
}

/// Whether `tool` runs only as a task (`execution.taskSupport` is `"required"`).
pub(super) fn task_only(tool: &Tool) -> bool {
    let support = tool.execution.as_ref().and_then(|e| e.get("taskSupport"));
    support.and_then(Value::as_str) == Some("required")
}

impl Server {
    /// Whether this server speaks the extension under `version`: configured
    /// ([`super::ServerConfig::tasks`]) and of the 2026-07-28 generation, whose
    /// extension it is.
    pub(super) fn has_ext_tasks(&self, version: ProtocolVersion) -> bool {
        self.cfg.tasks && version.generation() == Generation::Stateless
    }

    /// Whether `tool` is listed to a request of `version` whose capabilities do
    /// (`declared`) or do not declare the extension: every tool but one that runs
    /// only as a task always; that one under 2025-11-25 where this server has
    /// tasks, and under 2026-07-28 only to a request that declares the extension
    /// (a client that does not could not call it).
    pub fn lists_tool(&self, tool: &Tool, version: ProtocolVersion, declared: bool) -> bool {
        self.offers_tool(tool, version) || (declared && self.has_ext_tasks(version))
    }

    /// Whether a `tools/call` of `tool` under `version` is one to refuse with
    /// `-32021`: a tool that runs only as a task, called under 2026-07-28 without
    /// the extension declared, from a server that speaks it.
    pub(super) fn needs_tasks_declared(
        &self,
        tool: &Tool,
        version: ProtocolVersion,
        params: Option<&Value>,
    ) -> bool {
        self.has_ext_tasks(version) && task_only(tool) && !request_declares_tasks(params)
    }
}
