//! The hook that keeps resources, prompts, completions, subscriptions and the log
//! level apart from the rest of the server.
//!
//! A server made with [`Server::new`] answers all of it. A host whose first screen
//! needs only the handshake and the tool list (the page, with its embedded demo)
//! makes the server with [`Server::without_content_handlers`] and hands the
//! handlers in later ([`Server::set_content_handlers`]): the code that lists,
//! checks and subscribes is reached only through the function pointers of
//! [`ContentHandlers::ALL`], so it is linked only where that constant is named,
//! and stays out of that host's first download. The capabilities come from the
//! configuration alone, so `initialize` and `server/discover` announce the same
//! features with or without the handlers.

use serde_json::{Value, json};

use super::dispatch::not_found;
use super::{Server, ServerEvent, logging};
use crate::jsonrpc::{RequestId, RpcError, code};
use crate::version::ProtocolVersion;

/// Answers a request at once.
type Answer = fn(&mut Server, &str, Option<&Value>, ProtocolVersion) -> Result<Value, RpcError>;
/// Checks a request the application answers and makes its event.
type Check = fn(&Server, &RequestId, &str, Option<&Value>) -> Result<ServerEvent, RpcError>;
/// Whether a URI is a listed resource or matches a template.
type Known = fn(&Server, &str) -> bool;

/// The code behind `resources/list`, `resources/templates/list`, `prompts/list`,
/// `resources/subscribe` / `unsubscribe`, `logging/setLevel`, the resource
/// subscriptions of `subscriptions/listen` (the stream itself works without it:
/// a 2026-07-28 client opens it at connect, for the tool list's changes), and the checks of `resources/read`,
/// `prompts/get` and `completion/complete`; handed to a server made without it.
#[derive(Clone, Copy)]
pub struct ContentHandlers {
    answer: Answer,
    check: Check,
    known: Known,
}

impl ContentHandlers {
    /// Every handler: what [`Server::new`] has.
    pub const ALL: ContentHandlers = ContentHandlers {
        answer,
        check,
        known: |s, uri| s.locate(uri).is_some(),
    };
}

impl std::fmt::Debug for ContentHandlers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ContentHandlers")
    }
}

/// The JSON-RPC error for a request that needs the handlers before they are in.
pub(super) fn not_loaded(method: &str) -> RpcError {
    RpcError::new(
        code::INTERNAL_ERROR,
        format!("{method}: this server's code for it is not loaded yet: try again in a moment"),
    )
}

fn answer(
    server: &mut Server,
    method: &str,
    params: Option<&Value>,
    version: ProtocolVersion,
) -> Result<Value, RpcError> {
    Ok(match method {
        "resources/list" => server.list_resources(params, version)?,
        "resources/templates/list" => server.list_templates(params, version)?,
        "prompts/list" => server.list_prompts(params, version)?,
        "resources/subscribe" => server.subscribe(params)?,
        "resources/unsubscribe" => server.unsubscribe(params)?,
        "logging/setLevel" => {
            let level = logging::level_param(params.and_then(|p| p.get("level")), "level")?;
            server.log_level = Some(level);
            server.events.push_back(ServerEvent::LogLevelSet(level));
            json!({})
        }
        _ => return Err(not_found(method)),
    })
}

fn check(
    server: &Server,
    id: &RequestId,
    method: &str,
    params: Option<&Value>,
) -> Result<ServerEvent, RpcError> {
    match method {
        "resources/read" => server.read(id, params),
        "prompts/get" => server.get_prompt(id, params),
        "completion/complete" => server.completion(id, params),
        _ => Err(not_found(method)),
    }
}

impl Server {
    /// Hands in the code for resources, prompts, completions, subscriptions and
    /// the log level ([`ContentHandlers::ALL`]).
    pub fn set_content_handlers(&mut self, handlers: ContentHandlers) {
        self.content = Some(handlers);
    }

    /// Whether this server has its [`ContentHandlers`].
    pub fn has_content_handlers(&self) -> bool {
        self.content.is_some()
    }

    /// Sets the resources, templates and prompts (`Resource`, `ResourceTemplate`
    /// and `Prompt` JSON objects) without telling any client: for a host that hands
    /// them in with the [`ContentHandlers`], before which no client could list them.
    /// To change them later, use `set_resources` and `set_prompts`.
    pub fn set_catalogue(
        &mut self,
        resources: Vec<Value>,
        templates: Vec<Value>,
        prompts: Vec<Value>,
    ) {
        self.resources = resources;
        self.templates = templates;
        self.prompts = prompts;
    }

    /// Answers one of the requests [`ContentHandlers`] answers at once.
    pub(super) fn answer_content(
        &mut self,
        method: &str,
        params: Option<&Value>,
        version: ProtocolVersion,
    ) -> Result<Value, RpcError> {
        let h = self.content.ok_or_else(|| not_loaded(method))?;
        (h.answer)(self, method, params, version)
    }

    /// Checks one of the requests [`ContentHandlers`] checks for the application.
    pub(super) fn check_content(
        &self,
        id: &RequestId,
        method: &str,
        params: Option<&Value>,
    ) -> Result<ServerEvent, RpcError> {
        let h = self.content.ok_or_else(|| not_loaded(method))?;
        (h.check)(self, id, method, params)
    }

    /// Whether `uri` is one this server has (`None` without the handlers).
    pub(super) fn knows(&self, uri: &str) -> Option<bool> {
        self.content.map(|h| (h.known)(self, uri))
    }
}
