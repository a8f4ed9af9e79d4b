//! Single requests with a typed answer: `resources/read`, `prompts/get`,
//! `completion/complete` and `logging/setLevel`, each ending in
//! [`Event::Answered`]. (Subscriptions are `subscriptions.rs`.)

use serde_json::{Map, Value};

use super::answers::Answer;
use super::mrtr::is_input_required;
use super::{Ask, Client, Event, Failure, OpError, OpId, Pending, What};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;
use crate::model::{
    CompleteResult, CompletionReference, GetPromptResult, JsonObject, LoggingLevel,
    ReadResourceResult,
};
use crate::time::Timestamp;
use crate::validate;
use crate::version::{Generation, ProtocolVersion};

impl Client {
    /// Reads a resource (`resources/read`). Ends in [`Event::Answered`] with
    /// [`Answer::Read`].
    pub fn read_resource(&mut self, now: Timestamp, uri: &str) -> OpId {
        let mut params = Map::new();
        params.insert("uri".into(), Value::from(uri));
        self.ask(now, Ask::Read, "resources/read", params)
    }

    /// Gets a prompt filled in with `arguments` (string values; left out when
    /// empty). Ends in [`Event::Answered`] with [`Answer::Prompt`].
    pub fn get_prompt(&mut self, now: Timestamp, name: &str, arguments: JsonObject) -> OpId {
        let mut params = Map::new();
        params.insert("name".into(), Value::from(name));
        if !arguments.is_empty() {
            params.insert("arguments".into(), Value::Object(arguments));
        }
        self.ask(now, Ask::Prompt, "prompts/get", params)
    }

    /// Asks for completions of `argument` = (name, value so far) of a prompt or a
    /// resource template. `context` holds the values already chosen for the other
    /// arguments (`context.arguments`, 2025-06-18+; left out when empty, and left
    /// out with a diagnostic under older revisions). Ends in [`Event::Answered`]
    /// with [`Answer::Completion`].
    pub fn complete(
        &mut self,
        now: Timestamp,
        reference: CompletionReference,
        argument: (&str, &str),
        context: JsonObject,
    ) -> OpId {
        let mut params = Map::new();
        params.insert("ref".into(), reference.to_json());
        let mut arg = Map::new();
        arg.insert("name".into(), Value::from(argument.0));
        arg.insert("value".into(), Value::from(argument.1));
        params.insert("argument".into(), Value::Object(arg));
        if !context.is_empty() {
            let old = self
                .negotiated
                .as_ref()
                .is_some_and(|n| n.version < ProtocolVersion::V2025_06_18);
            if old {
                self.diag(Diagnostic::new(
                    Rule::FieldNotInVersion,
                    Severity::Info,
                    "completion context is 2025-06-18+; sent without it",
                ));
            } else {
                let mut c = Map::new();
                c.insert("arguments".into(), Value::Object(context));
                params.insert("context".into(), Value::Object(c));
            }
        }
        self.ask(now, Ask::Complete, "completion/complete", params)
    }

    /// Sets the level of the server's log messages. Up to 2025-11-25 this sends
    /// `logging/setLevel` and returns its operation (ending in [`Event::Answered`]
    /// with [`Answer::Done`]). Under 2026-07-28 there is no such request: the level
    /// is stamped on every later request's `_meta`
    /// (`io.modelcontextprotocol/logLevel`) and `None` is returned. Before the
    /// generation is known (auto mode, not connected) the request waits and is
    /// dropped, answered `Done`, if the session turns out stateless.
    pub fn set_log_level(&mut self, now: Timestamp, level: LoggingLevel) -> Option<OpId> {
        if self.generation() == Some(Generation::Stateless) {
            self.log_level = Some(level);
            return None;
        }
        let mut params = Map::new();
        params.insert("level".into(), Value::from(level.as_str()));
        Some(self.ask(now, Ask::SetLevel(level), "logging/setLevel", params))
    }

    /// The generation in use, or the one the configuration pins, if known.
    pub(super) fn generation(&self) -> Option<Generation> {
        match (&self.negotiated, self.cfg.mode) {
            (Some(n), _) => Some(n.generation),
            (None, super::GenerationMode::Initialize) => Some(Generation::Initialize),
            (None, super::GenerationMode::Stateless) => Some(Generation::Stateless),
            (None, super::GenerationMode::Auto) => None,
        }
    }

    pub(super) fn ask(
        &mut self,
        now: Timestamp,
        ask: Ask,
        method: &str,
        params: JsonObject,
    ) -> OpId {
        let op = self.new_op();
        let timeout = self.cfg.request_timeout;
        self.submit(
            now,
            op,
            What::Ask(ask),
            method,
            Some(Value::Object(params)),
            timeout,
        );
        op
    }

    /// Reads the result of a typed request, with its diagnostics.
    pub(super) fn on_answer(&mut self, p: &Pending, ask: &Ask, msg: &Message, result: &Value) {
        let version = self.check_version();
        let raw = msg.raw_shared();
        if matches!(ask, Ask::Read | Ask::Prompt) && is_input_required(result) {
            self.suspend(p, result, msg);
            return self.answered(
                p.op,
                Ok(Answer::InputRequired(result.clone())),
                Some(msg.clone()),
            );
        }
        let mut diags = Vec::new();
        let read = match ask {
            Ask::Read => ReadResourceResult::from_json(result).map(|r| {
                if !matches!(result.get("contents"), Some(Value::Array(_))) {
                    let what = "the resources/read result's \"contents\"";
                    diags.push(validate::wrong_member(
                        Rule::ResourceShape,
                        what,
                        result.get("contents"),
                    ));
                }
                for (i, c) in r.contents.iter().enumerate() {
                    validate::check_contents(i, c, &mut diags);
                }
                Answer::Read(r)
            }),
            Ask::Prompt => GetPromptResult::from_json(result).map(|r| {
                validate::check_prompt_result(&r, version, &mut diags);
                Answer::Prompt(r)
            }),
            Ask::Complete => CompleteResult::from_json(result).map(|r| {
                validate::check_completion(&r, &mut diags);
                Answer::Completion(r)
            }),
            Ask::SetLevel(level) => {
                self.log_level = Some(*level);
                Ok(Answer::Done)
            }
            Ask::Subscribe(uri) => {
                self.subscribed.insert(uri.clone());
                Ok(Answer::Done)
            }
            Ask::Unsubscribe(uri) => {
                self.subscribed.remove(uri);
                Ok(Answer::Done)
            }
        };
        for d in diags {
            self.diag(d.with_raw(raw.clone()));
        }
        let outcome = read.map_err(|e| {
            let rule = match ask {
                Ask::Prompt => Rule::PromptShape,
                Ask::Complete => Rule::Completion,
                _ => Rule::ResourceShape,
            };
            let text = format!("the {} result could not be read: {e}", p.method);
            self.diag(Diagnostic::new(rule, Severity::Error, text.clone()).with_raw(raw.clone()));
            OpError::Failed(Failure::Malformed(text))
        });
        self.answered(p.op, outcome, Some(msg.clone()));
    }

    pub(super) fn answered(
        &mut self,
        op: OpId,
        outcome: Result<Answer, OpError>,
        message: Option<Message>,
    ) {
        self.events.push_back(Event::Answered {
            op,
            outcome,
            message,
        });
    }
}
