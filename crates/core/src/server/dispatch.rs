//! Requests: which method goes where, the two generations' negotiation, the
//! capabilities declared, and what 2026-07-28 adds to every result.

use serde_json::{Map, Value, json};

use super::{Incoming, Server, logging, paging};
use crate::jsonrpc::{RequestId, RpcError, code};
use crate::model::{Implementation, JsonObject, Tool, meta};
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

/// `-32601` for a method this server does not answer (under this revision).
pub(super) fn not_found(method: &str) -> RpcError {
    RpcError::new(
        code::METHOD_NOT_FOUND,
        format!("Method not found: {method}"),
    )
}

/// `-32602` with a message.
pub(super) fn invalid(message: impl Into<String>) -> RpcError {
    RpcError::new(code::INVALID_PARAMS, message)
}

/// A required string member of `params`.
pub(super) fn string_param<'a>(
    params: Option<&'a Value>,
    key: &str,
    method: &str,
) -> Result<&'a str, RpcError> {
    params
        .and_then(|p| p.get(key))
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(format!("{method} needs params.{key} (a string)")))
}

/// An optional object member of `params` (`-32602` when it is something else).
pub(super) fn object_param(params: Option<&Value>, key: &str) -> Result<JsonObject, RpcError> {
    match params.and_then(|p| p.get(key)) {
        None | Some(Value::Null) => Ok(JsonObject::new()),
        Some(Value::Object(o)) => Ok(o.clone()),
        Some(_) => Err(invalid(format!("{key} must be an object"))),
    }
}

impl Server {
    /// Handles one request; `Ok(None)` means the application (or a stream) answers later.
    pub(super) fn dispatch(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        method: &str,
        params: Option<&Value>,
    ) -> Result<Option<Value>, RpcError> {
        if method == "initialize" {
            return self.initialize(params).map(Some);
        }
        let version = self.request_version(method, params)?;
        let stateless = version.generation() == Generation::Stateless;
        let log_level = if stateless && self.cfg.logging {
            logging::request_level(params)?
        } else {
            None
        };
        let result = match method {
            "server/discover" => self.discover(),
            "ping" => json!({}),
            "tools/list" => self.list_tools(params, version)?,
            // Open at connect under 2026-07-28 for the tool list's changes, so it
            // works without the handlers (bar resource subscriptions: `listen`).
            "subscriptions/listen" if stateless => {
                self.listen(now, id, params)?;
                return Ok(None);
            }
            _ if self.offers(method, version) => {
                let r = Incoming {
                    id,
                    method,
                    params,
                    version,
                    log_level,
                    now,
                };
                match self.handle(&r)? {
                    Some(result) => result,
                    None => return Ok(None),
                }
            }
            _ => return Err(not_found(method)),
        };
        let cacheable = method.ends_with("/list");
        Ok(Some(self.complete(result, version, cacheable)))
    }

    /// Whether `method` is one the [`super::RequestHandlers`] take and the
    /// configuration offers (under this revision).
    fn offers(&self, method: &str, version: ProtocolVersion) -> bool {
        let res = self.cfg.resources;
        let stateless = version.generation() == Generation::Stateless;
        match method {
            "tools/call" => true,
            "resources/list" | "resources/templates/list" | "resources/read" => res.is_some(),
            "prompts/list" | "prompts/get" => self.cfg.prompts.is_some(),
            "completion/complete" => self.cfg.completions,
            "resources/subscribe" | "resources/unsubscribe" => {
                res.is_some_and(|r| r.subscribe) && !stateless
            }
            "logging/setLevel" => self.cfg.logging && !stateless,
            "skills/list" | "skills/get" => self.cfg.skills && stateless,
            "resources/directory/read" => {
                self.cfg.skills && self.cfg.skills_directory_read && stateless
            }
            "tasks/result" | "tasks/list" => self.has_tasks(version),
            // The extension's methods too (it has no tasks/result, no tasks/list).
            "tasks/get" | "tasks/cancel" => self.has_tasks(version) || self.has_ext_tasks(version),
            "tasks/update" => self.has_ext_tasks(version),
            _ => false,
        }
    }

    fn initialize(&mut self, params: Option<&Value>) -> Result<Value, RpcError> {
        let requested = params
            .and_then(|p| p.get("protocolVersion"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        // Echo the client's revision when we speak it, else offer our newest with initialize.
        let chosen = ProtocolVersion::parse(requested)
            .filter(|v| v.generation() == Generation::Initialize && self.cfg.versions.contains(v))
            .or_else(|| {
                self.cfg
                    .versions
                    .iter()
                    .copied()
                    .filter(|v| v.generation() == Generation::Initialize)
                    .max()
            })
            .ok_or_else(|| unsupported(requested, &self.cfg.versions))?;
        self.session = Some(chosen);
        self.initialized = false;
        self.log_level = None;
        self.subscribed.clear();
        self.client_caps = params
            .and_then(|p| p.get("capabilities"))
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        self.asked.clear();
        self.client_info = params
            .and_then(|p| p.get("clientInfo"))
            .and_then(|c| Implementation::from_json(c).ok());
        let mut r = json!({
            "protocolVersion": chosen.as_str(),
            "capabilities": self.capabilities(chosen),
            "serverInfo": self.cfg.info,
        });
        if let (Some(i), Value::Object(o)) = (&self.cfg.instructions, &mut r) {
            o.insert("instructions".into(), Value::from(i.as_str()));
        }
        Ok(r)
    }

    /// The revision a request runs under: its own `_meta` version (stateless), or the session's.
    fn request_version(
        &self,
        method: &str,
        params: Option<&Value>,
    ) -> Result<ProtocolVersion, RpcError> {
        let stamped = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta::PROTOCOL_VERSION))
            .and_then(Value::as_str);
        match (stamped, self.session) {
            (Some(s), _) => ProtocolVersion::parse(s)
                .filter(|v| {
                    v.generation() == Generation::Stateless && self.cfg.versions.contains(v)
                })
                .ok_or_else(|| unsupported(s, &self.cfg.versions)),
            (None, Some(v)) => Ok(v),
            // `ping` was allowed before initialization in the old generation.
            (None, None) if method == "ping" => Ok(ProtocolVersion::LATEST_WITH_INITIALIZE),
            (None, None) => Err(RpcError::new(
                code::INVALID_REQUEST,
                format!(
                    "{method} before initialize: send initialize first, or stamp the request with _meta \"{}\"",
                    meta::PROTOCOL_VERSION
                ),
            )),
        }
    }

    /// Exactly what this server answers, from its configuration, as `version`
    /// spells it (`completions` is declared from 2025-03-26, which introduced it;
    /// 2024-11-05 answered `completion/complete` with no capability).
    fn capabilities(&self, version: ProtocolVersion) -> Value {
        let mut caps = self.cfg.capabilities.clone();
        if self.cfg.completions && version >= ProtocolVersion::V2025_03_26 {
            caps.insert("completions".into(), json!({}));
        }
        if self.cfg.logging {
            caps.insert("logging".into(), json!({}));
        }
        if let Some(p) = self.cfg.prompts {
            caps.insert("prompts".into(), json!({ "listChanged": p.list_changed }));
        }
        if let Some(r) = self.cfg.resources {
            caps.insert(
                "resources".into(),
                json!({ "subscribe": r.subscribe, "listChanged": r.list_changed }),
            );
        }
        caps.insert(
            "tools".into(),
            json!({ "listChanged": self.cfg.tools_list_changed }),
        );
        if self.has_tasks(version) {
            let tasks = json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}});
            caps.insert("tasks".into(), tasks);
        }
        // An extension of 2026-07-28's (`extensions` is that revision's).
        if self.cfg.skills
            && version.generation() == Generation::Stateless
            && let Value::Object(e) = caps
                .entry("extensions")
                .or_insert_with(|| Value::Object(Map::new()))
        {
            let settings = if self.cfg.skills_directory_read {
                json!({"directoryRead": true})
            } else {
                json!({})
            };
            e.insert(super::SKILLS_EXTENSION.into(), settings);
        }
        if self.has_ext_tasks(version)
            && let Value::Object(e) = caps
                .entry("extensions")
                .or_insert_with(|| Value::Object(Map::new()))
        {
            e.insert(crate::client::TASKS_EXTENSION.into(), json!({}));
        }
        Value::Object(caps)
    }

    fn discover(&self) -> Value {
        let supported: Vec<&str> = self.cfg.versions.iter().map(|v| v.as_str()).collect();
        let mut r = json!({
            "supportedVersions": supported,
            "capabilities": self.capabilities(ProtocolVersion::LATEST),
            "ttlMs": 0,
            "cacheScope": "public",
        });
        if let (Some(i), Value::Object(o)) = (&self.cfg.instructions, &mut r) {
            o.insert("instructions".into(), Value::from(i.as_str()));
        }
        r
    }

    fn list_tools(
        &self,
        params: Option<&Value>,
        version: ProtocolVersion,
    ) -> Result<Value, RpcError> {
        let declared = super::tasks_ext::request_declares_tasks(params);
        let tools: Vec<&Tool> = self
            .tools
            .iter()
            .filter(|t| self.lists_tool(t, version, declared))
            .collect();
        let p = paging::page(params, tools.len(), self.cfg.page_size)?;
        let items = json!(tools.get(p.start..p.end).unwrap_or_default());
        Ok(paging::result("tools", items, p.next))
    }

    /// Whether this server has tasks under `version`: configured
    /// ([`super::ServerConfig::tasks`]) and 2025-11-25, the one revision with tasks
    /// in its core (2026-07-28 moved them to an extension).
    pub(super) fn has_tasks(&self, version: ProtocolVersion) -> bool {
        self.cfg.tasks && version == ProtocolVersion::V2025_11_25
    }

    /// Whether `tool` is listed, and can be called, under `version` by a request
    /// that does not declare the 2026-07-28 Tasks extension: a tool whose
    /// `execution.taskSupport` is `"required"` only where this server has
    /// 2025-11-25 tasks (nowhere else could such a client call it); every other
    /// tool always. [`Server::lists_tool`] adds the extension's case.
    pub fn offers_tool(&self, tool: &Tool, version: ProtocolVersion) -> bool {
        !super::tasks_ext::task_only(tool) || self.has_tasks(version)
    }

    /// Adds what 2026-07-28 requires on every result (`resultType`, `_meta` server
    /// info, and `ttlMs` / `cacheScope` on the cacheable ones: lists and reads).
    pub(super) fn complete(
        &self,
        mut result: Value,
        version: ProtocolVersion,
        cacheable: bool,
    ) -> Value {
        if version.generation() != Generation::Stateless {
            return result;
        }
        if let Value::Object(o) = &mut result {
            o.entry("resultType")
                .or_insert_with(|| Value::from("complete"));
            if cacheable {
                o.entry("ttlMs").or_insert_with(|| Value::from(0));
                o.entry("cacheScope")
                    .or_insert_with(|| Value::from("public"));
            }
            let m = o
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = m {
                m.insert(meta::SERVER_INFO.into(), self.cfg.info.to_json());
            }
        }
        result
    }
}

/// `-32022` naming the revisions this server speaks.
fn unsupported(requested: &str, versions: &[ProtocolVersion]) -> RpcError {
    let supported: Vec<&str> = versions.iter().map(|v| v.as_str()).collect();
    RpcError {
        code: code::UNSUPPORTED_PROTOCOL_VERSION,
        message: format!("Unsupported protocol version: {requested:?}"),
        data: Some(json!({ "supported": supported, "requested": requested })),
    }
}
