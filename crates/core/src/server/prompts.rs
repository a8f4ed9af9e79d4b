//! Prompts (`prompts/list`, `prompts/get`) and `completion/complete`, checked
//! against the prompts' arguments and the templates' variables before the
//! application sees them.

use serde_json::Value;

use super::dispatch::{invalid, object_param, string_param};
use super::{CompletionTarget, Server, ServerEvent, paging};
use crate::jsonrpc::{RequestId, RpcError};
use crate::time::Timestamp;
use crate::version::ProtocolVersion;

/// The names of a prompt's arguments, with whether each is required.
fn arguments(prompt: &Value) -> impl Iterator<Item = (&str, bool)> {
    prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| {
            let name = a.get("name")?.as_str()?;
            Some((
                name,
                a.get("required").and_then(Value::as_bool) == Some(true),
            ))
        })
}

impl Server {
    /// The prompts offered.
    pub fn prompts(&self) -> &[Value] {
        &self.prompts
    }

    /// Replaces the prompts; tells clients that asked when the server declared
    /// `prompts.listChanged`.
    pub fn set_prompts(&mut self, now: Timestamp, prompts: Vec<Value>) {
        self.prompts = prompts;
        if self.cfg.prompts.is_some_and(|p| p.list_changed) {
            self.announce(now, "notifications/prompts/list_changed", |l| l.prompts);
        }
    }

    fn prompt(&self, name: &str) -> Option<&Value> {
        self.prompts
            .iter()
            .find(|p| p.get("name").and_then(Value::as_str) == Some(name))
    }

    pub(super) fn list_prompts(
        &self,
        params: Option<&Value>,
        version: ProtocolVersion,
    ) -> Result<Value, RpcError> {
        paging::list(
            &self.prompts,
            params,
            self.cfg.page_size,
            version,
            "prompts",
        )
    }

    /// `prompts/get`: an unknown prompt, a missing required argument or a value that
    /// is not a string is `-32602` (the spec's error for invalid prompt arguments).
    pub(super) fn get_prompt(
        &self,
        id: &RequestId,
        params: Option<&Value>,
    ) -> Result<ServerEvent, RpcError> {
        let name = string_param(params, "name", "prompts/get")?;
        let prompt = self
            .prompt(name)
            .ok_or_else(|| invalid(format!("Unknown prompt: {name}")))?;
        let args = object_param(params, "arguments")?;
        if let Some((k, _)) = args.iter().find(|(_, v)| !v.is_string()) {
            return Err(invalid(format!("prompt argument {k:?} must be a string")));
        }
        if let Some((missing, _)) =
            arguments(prompt).find(|(a, req)| *req && !args.contains_key(*a))
        {
            return Err(invalid(format!(
                "prompt {name} needs the argument {missing:?}"
            )));
        }
        Ok(ServerEvent::GetPrompt {
            id: id.clone(),
            name: name.to_owned(),
            arguments: args,
        })
    }

    /// `completion/complete`: the reference must name a prompt or template this server
    /// has, and the argument one of its arguments or variables.
    pub(super) fn completion(
        &self,
        id: &RequestId,
        params: Option<&Value>,
    ) -> Result<ServerEvent, RpcError> {
        let reference = params.and_then(|p| p.get("ref"));
        let kind = reference
            .and_then(|r| r.get("type"))
            .and_then(Value::as_str);
        let argument = params.and_then(|p| p.get("argument"));
        let arg_name = string_param(argument, "name", "completion/complete argument")?;
        let value = string_param(argument, "value", "completion/complete argument")?;
        let target = match kind {
            Some("ref/prompt") => {
                let name = string_param(reference, "name", "ref/prompt")?;
                let prompt = self
                    .prompt(name)
                    .ok_or_else(|| invalid(format!("Unknown prompt: {name}")))?;
                if !arguments(prompt).any(|(a, _)| a == arg_name) {
                    return Err(invalid(format!(
                        "prompt {name} has no argument {arg_name:?}"
                    )));
                }
                CompletionTarget::Prompt(name.to_owned())
            }
            Some("ref/resource") => {
                let uri = string_param(reference, "uri", "ref/resource")?;
                let known = self
                    .templates
                    .iter()
                    .any(|t| t.get("uriTemplate").and_then(Value::as_str) == Some(uri));
                let vars = crate::validate::template_variables(uri).unwrap_or_default();
                if !known || !vars.iter().any(|v| v == arg_name) {
                    return Err(invalid(format!(
                        "no resource template {uri:?} with a variable {arg_name:?}"
                    )));
                }
                CompletionTarget::Template(uri.to_owned())
            }
            _ => return Err(invalid("ref.type must be ref/prompt or ref/resource")),
        };
        let context = match params.and_then(|p| p.get("context")) {
            Some(c) => object_param(Some(c), "arguments")?,
            None => Default::default(),
        };
        Ok(ServerEvent::Complete {
            id: id.clone(),
            reference: target,
            argument: arg_name.to_owned(),
            value: value.to_owned(),
            context,
        })
    }
}
