//! The hook that keeps every request beyond the handshake and the tool list apart
//! from the rest of the server.
//!
//! A server made with [`Server::new`] answers everything. A host whose first screen
//! needs only the handshake and the tool list (the page, with its embedded demo)
//! makes the server with [`Server::without_request_handlers`] and hands the
//! handlers in later ([`Server::set_request_handlers`]): the code that calls tools,
//! lists, reads, fills prompts, completes and subscribes is reached only through
//! the function pointers of [`RequestHandlers::ALL`], so it is linked only where that
//! constant is named, and stays out of that host's first download. The capabilities
//! come from the configuration alone, so `initialize` and `server/discover`
//! announce the same features with or without the handlers.

use serde_json::{Value, json};

use super::dispatch::{invalid, not_found, object_param, string_param};
use super::tasks_ext::{request_declares_tasks, tasks_extension_missing};
use super::{Incoming, OpenCall, Server, ServerEvent, logging, paging};
use crate::jsonrpc::{RpcError, code};

/// Answers a request at once, or (`Ok(None)`) hands it to the application.
type Answer = fn(&mut Server, &Incoming<'_>) -> Result<Option<Value>, RpcError>;
/// Whether a URI is a listed resource or matches a template.
type Known = fn(&Server, &str) -> bool;

/// The code behind `tools/call`, `resources/list`, `resources/templates/list`,
/// `resources/read`, `prompts/list`, `prompts/get`, `completion/complete`,
/// `resources/subscribe` / `unsubscribe`, `logging/setLevel`, the `tasks/*`
/// requests (handed on to the application) and the resource
/// subscriptions of `subscriptions/listen` (the stream itself works without it: a
/// 2026-07-28 client opens it at connect, for the tool list's changes); handed to
/// a server made without it.
#[derive(Clone, Copy)]
pub struct RequestHandlers {
    answer: Answer,
    known: Known,
}

impl RequestHandlers {
    /// Every handler: what [`Server::new`] has.
    pub const ALL: RequestHandlers = RequestHandlers {
        answer,
        known: |s, uri| s.locate(uri).is_some(),
    };
}

impl std::fmt::Debug for RequestHandlers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RequestHandlers")
    }
}

/// The JSON-RPC error for a request that needs the handlers before they are in.
pub(super) fn not_loaded(method: &str) -> RpcError {
    RpcError::new(
        code::INTERNAL_ERROR,
        format!("{method}: this server's code for it is not loaded yet: try again in a moment"),
    )
}

fn answer(server: &mut Server, r: &Incoming<'_>) -> Result<Option<Value>, RpcError> {
    let (params, version) = (r.params, r.version);
    Ok(Some(match r.method {
        "resources/list" => server.list_resources(params, version)?,
        "resources/templates/list" => server.list_templates(params, version)?,
        "prompts/list" => server.list_prompts(params, version)?,
        "skills/list" => paging::list(
            &server.skills,
            params,
            server.cfg.page_size,
            version,
            "skills",
        )?,
        "skills/get" => server.get_skill(params)?,
        "resources/directory/read" => server.read_directory(params)?,
        "resources/subscribe" => server.subscribe(params)?,
        "resources/unsubscribe" => server.unsubscribe(params)?,
        "logging/setLevel" => {
            let level = logging::level_param(params.and_then(|p| p.get("level")), "level")?;
            server.log_level = Some(level);
            server.events.push_back(ServerEvent::LogLevelSet(level));
            json!({})
        }
        _ => {
            server.accept(r)?;
            return Ok(None);
        }
    }))
}

impl Server {
    /// Hands in the code for every request beyond the handshake and the tool list
    /// ([`RequestHandlers::ALL`]).
    pub fn set_request_handlers(&mut self, handlers: RequestHandlers) {
        self.handlers = Some(handlers);
    }

    /// Whether this server has its [`RequestHandlers`].
    pub fn has_request_handlers(&self) -> bool {
        self.handlers.is_some()
    }

    /// Sets the resources, templates and prompts (`Resource`, `ResourceTemplate`
    /// and `Prompt` JSON objects) without telling any client: for a host that hands
    /// them in with the [`RequestHandlers`], before which no client could list them.
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

    /// URIs `resources/read` accepts (as [`ServerEvent::ReadResource`] without a
    /// template) though no listing names them: MCP Apps views, which a host finds
    /// through a tool's `_meta.ui.resourceUri`.
    ///
    /// [`ServerEvent::ReadResource`]: super::ServerEvent::ReadResource
    pub fn set_unlisted(&mut self, uris: Vec<String>) {
        self.unlisted = uris;
    }

    /// Sets the skill entries `skills/list` pages through and `skills/get` finds by
    /// URI (`Skill` JSON objects of SEP-2640; their files are resources the
    /// application reads, listed or [`Server::set_unlisted`]).
    pub fn set_skills(&mut self, skills: Vec<Value>) {
        self.skills = skills;
    }

    /// `skills/get`: the entry whose `uri` is `params.uri`; `-32602` for a URI that
    /// names no skill this server serves, as the extension says.
    fn get_skill(&self, params: Option<&Value>) -> Result<Value, RpcError> {
        let uri = string_param(params, "uri", "skills/get")?;
        let skill = self
            .skills
            .iter()
            .find(|s| s.get("uri").and_then(Value::as_str) == Some(uri))
            .ok_or_else(|| invalid(format!("no skill at {uri}")))?;
        Ok(json!({"skill": skill, "ttlMs": 0, "cacheScope": "public"}))
    }

    /// Answers, or hands to the application, a request the handlers take.
    pub(super) fn handle(&mut self, r: &Incoming<'_>) -> Result<Option<Value>, RpcError> {
        let h = self.handlers.ok_or_else(|| not_loaded(r.method))?;
        (h.answer)(self, r)
    }

    /// Whether `uri` is one this server has (`None` without the handlers).
    pub(super) fn knows(&self, uri: &str) -> Option<bool> {
        self.handlers.map(|h| (h.known)(self, uri))
    }

    /// `tools/call`: an unknown tool (or one not offered under this revision) is
    /// `-32602`; under 2026-07-28 a tool that runs only as a task, called without
    /// the Tasks extension declared, is `-32021` (the application decides whether a
    /// call that declares it becomes a task, from its [`super::CallContext`]). Where this server has tasks, a call is checked against its tool's
    /// `execution.taskSupport` as 2025-11-25 says: a `"required"` tool called
    /// without `params.task` is `-32601` (MUST), and so is a task asked of a tool
    /// that does not support one (SHOULD); elsewhere `params.task` is ignored, as a
    /// receiver that does not declare tasks must.
    fn call(&self, r: &Incoming<'_>) -> Result<ServerEvent, RpcError> {
        let (id, params) = (r.id, r.params);
        let name = string_param(params, "name", "tools/call")?;
        let tool = self
            .tools
            .iter()
            .find(|t| t.name == name && self.lists_tool(t, r.version, true))
            .ok_or_else(|| invalid(format!("Unknown tool: {name}")))?;
        if self.needs_tasks_declared(tool, r.version, params) {
            return Err(tasks_extension_missing(&format!("tools/call {name}")));
        }
        let arguments = object_param(params, "arguments")?;
        let progress_token = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
            .cloned();
        let task = if self.has_tasks(r.version) {
            let task = match params.and_then(|p| p.get("task")) {
                None | Some(Value::Null) => None,
                Some(Value::Object(o)) => Some(o.clone()),
                Some(_) => return Err(invalid("task must be an object")),
            };
            let support = tool
                .execution
                .as_ref()
                .and_then(|e| e.get("taskSupport"))
                .and_then(Value::as_str)
                .unwrap_or("forbidden");
            let wrong = match (support, task.is_some()) {
                ("required", false) => Some(format!(
                    "tool {name} runs only as a task (its execution.taskSupport is \"required\"): send params.task"
                )),
                ("optional" | "required", _) | (_, false) => None,
                (_, true) => Some(format!(
                    "tool {name} does not run as a task (its execution.taskSupport is \"{support}\"): leave out params.task"
                )),
            };
            if let Some(why) = wrong {
                return Err(RpcError::new(code::METHOD_NOT_FOUND, why));
            }
            task
        } else {
            None
        };
        Ok(ServerEvent::CallTool {
            id: id.clone(),
            name: name.to_owned(),
            arguments,
            progress_token,
            task,
        })
    }

    /// Checks a request the application answers, keeps it open and hands it over.
    fn accept(&mut self, r: &Incoming<'_>) -> Result<(), RpcError> {
        if self.open.contains_key(r.id) {
            return Err(RpcError::new(
                code::INVALID_REQUEST,
                format!("request id {} is already in use", r.id),
            ));
        }
        let (id, params) = (r.id, r.params);
        let event = match r.method {
            "tools/call" => self.call(r),
            // Offered only where this server has tasks (`offers`); under 2026-07-28
            // only to a request that declares the extension, as it says.
            "tasks/get" | "tasks/update" | "tasks/cancel"
                if self.has_ext_tasks(r.version) && !request_declares_tasks(params) =>
            {
                Err(tasks_extension_missing(r.method))
            }
            "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel" | "tasks/update" => {
                Ok(ServerEvent::TaskRequest {
                    id: id.clone(),
                    method: r.method.to_owned(),
                    params: params
                        .and_then(Value::as_object)
                        .cloned()
                        .unwrap_or_default(),
                })
            }
            // "Not found" in this revision's words (SEP-2164).
            "resources/read" => self
                .read(id, params)
                .map_err(|e| super::respond::for_revision(e, r.version)),
            "prompts/get" => self.get_prompt(id, params),
            "completion/complete" => self.completion(id, params),
            _ => Err(not_found(r.method)),
        }?;
        let mut ctx = self.call_context_of(r.version, params)?;
        let retryable = super::mrtr::retryable(r.method, r.version);
        let binding = match &self.sealer {
            Some(s) if retryable => Some((s.binding)(r.method, params)),
            _ => None,
        };
        self.open_state(r.now, binding.as_ref(), &mut ctx)?;
        let call = OpenCall {
            ctx,
            cacheable: r.method == "resources/read",
            log_level: r.log_level,
            retryable,
            binding,
        };
        self.open.insert(id.clone(), call);
        self.events.push_back(event);
        Ok(())
    }
}
