//! The panels' commands turned into the core's requests, each only when the server
//! declared the capability it needs (a host must not use what was not offered).

use mcpg_core::model::{CompletionReference, JsonObject, LoggingLevel};
use mcpg_host::tool_loop::prompt_turns;
use serde_json::Value;

use super::FeatureCtx;
use super::Tracked;
use super::view::{
    CompletionView, FeatureChange, LevelView, ListState, ListView, PromptView, ReadView, SubState,
    SubView,
};
use mcpg_page::FeatureCommand;

/// A capability the server must declare, and what it enables, for the refusal.
fn capability(name: &str) -> &'static str {
    match name {
        "resources" => "resources (resources/list, resources/read)",
        "prompts" => "prompts (prompts/list, prompts/get)",
        "completions" => "completions (completion/complete)",
        "logging" => "logging (logging/setLevel, notifications/message)",
        _ => "resources.subscribe (resources/subscribe)",
    }
}

fn starts_listing<T>(t: &mut Tracked<T>, state: ListState) {
    t.wanted = true;
    t.op = None;
    t.view = ListView {
        pages: Vec::new(),
        state,
    };
}

impl FeatureCtx<'_> {
    /// `Ok` when the server declared `name` (`subscribe`: `resources.subscribe`),
    /// else why the page does not ask.
    pub(crate) fn declared(&self, name: &str) -> Result<(), String> {
        let Some(n) = self.page.client.negotiated() else {
            return Err("not connected yet".to_owned());
        };
        let caps = &n.capabilities;
        let ok = match name {
            "subscribe" => caps
                .get("resources")
                .and_then(|r| r.get("subscribe"))
                .and_then(Value::as_bool)
                .unwrap_or(false),
            _ => caps.get(name).is_some_and(Value::is_object),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "the server does not declare the {} capability, so a host does not ask",
                capability(name)
            ))
        }
    }

    pub(crate) fn feature_command(&mut self, c: FeatureCommand) {
        match c {
            FeatureCommand::ListResources => self.list_resources(),
            FeatureCommand::ListPrompts => self.list_prompts(),
            FeatureCommand::Read { uri, from_link } => self.read(uri, from_link, 0),
            FeatureCommand::Complete {
                reference,
                argument,
                value,
                context,
            } => self.complete(reference, argument, value, context),
            FeatureCommand::Subscribe { uri, on } => self.subscribe(uri, on),
            FeatureCommand::GetPrompt { name, arguments } => self.get_prompt(name, arguments),
            FeatureCommand::UsePrompt => self.use_prompt(),
            FeatureCommand::SetLogLevel(level) => self.set_log_level(level),
            // The Skills panel's own code takes these (`panel_ops.rs`).
            FeatureCommand::ListSkills
            | FeatureCommand::ReadSkill(_)
            | FeatureCommand::UseSkill { .. } => {}
            FeatureCommand::ClearLogs => {
                self.features.logs.clear();
                self.show_logs();
            }
        }
    }

    /// `resources/list` and `resources/templates/list`, every page.
    pub(crate) fn list_resources(&mut self) {
        let declared = self.declared("resources");
        let f = &mut self.features;
        match declared {
            Err(why) => {
                starts_listing(&mut f.resources, ListState::Undeclared(why.clone()));
                starts_listing(&mut f.templates, ListState::Undeclared(why));
            }
            Ok(()) => {
                starts_listing(&mut f.resources, ListState::Listing);
                starts_listing(&mut f.templates, ListState::Listing);
                f.resources.op = Some(self.page.client.list_resources(self.page.now));
                f.templates.op = Some(self.page.client.list_resource_templates(self.page.now));
            }
        }
        let (r, t) = (
            self.features.resources.view.clone(),
            self.features.templates.view.clone(),
        );
        self.emit_feature(FeatureChange::Resources(r));
        self.emit_feature(FeatureChange::Templates(t));
    }

    /// `prompts/list`, every page.
    pub(crate) fn list_prompts(&mut self) {
        match self.declared("prompts") {
            Err(why) => starts_listing(&mut self.features.prompts, ListState::Undeclared(why)),
            Ok(()) => {
                starts_listing(&mut self.features.prompts, ListState::Listing);
                self.features.prompts.op = Some(self.page.client.list_prompts(self.page.now));
            }
        }
        let p = self.features.prompts.view.clone();
        self.emit_feature(FeatureChange::Prompts(p));
    }

    /// `resources/read` of `uri`; `updates` counts the updates that made the page
    /// read it again.
    pub(crate) fn read(&mut self, uri: String, from_link: bool, updates: u32) {
        let mut view = ReadView {
            uri,
            from_link,
            request: None,
            response: None,
            outcome: None,
            updates,
        };
        self.features.read_op = None;
        match self.declared("resources") {
            Err(why) => view.outcome = Some(Err(why)),
            Ok(()) => {
                self.features.read_op =
                    Some(self.page.client.read_resource(self.page.now, &view.uri))
            }
        }
        self.features.read = Some(view);
        self.show_read();
        if from_link && updates == 0 {
            self.emit_feature(FeatureChange::ShowResources);
        }
    }

    fn complete(
        &mut self,
        reference: CompletionReference,
        argument: String,
        value: String,
        context: JsonObject,
    ) {
        let mut view = CompletionView {
            reference,
            argument,
            value,
            outcome: None,
        };
        // Only the latest question counts: an older answer arriving late is ignored.
        self.features.completion_op = None;
        match self.declared("completions") {
            Err(why) => view.outcome = Some(Err(why)),
            Ok(()) => {
                let op = self.page.client.complete(
                    self.page.now,
                    view.reference.clone(),
                    (&view.argument, &view.value),
                    context,
                );
                self.features.completion_op = Some(op);
            }
        }
        self.features.completion = Some(view);
        self.show_completion();
    }

    fn subscribe(&mut self, uri: String, on: bool) {
        let state = match self.declared("subscribe") {
            Err(why) => SubState::Failed(why),
            Ok(()) => {
                let op = if on {
                    self.page.client.subscribe_resource(self.page.now, &uri)
                } else {
                    self.page.client.unsubscribe_resource(self.page.now, &uri)
                };
                self.features.sub_ops.push((op, uri.clone(), on));
                SubState::Pending
            }
        };
        let subs = &mut self.features.subs;
        match subs.iter_mut().find(|s| s.uri == uri) {
            Some(s) => s.state = state,
            None => subs.push(SubView {
                uri,
                state,
                updates: 0,
                last_ms: None,
            }),
        }
        self.show_subs();
    }

    fn get_prompt(&mut self, name: String, arguments: JsonObject) {
        let mut view = PromptView {
            name,
            arguments,
            response: None,
            outcome: None,
        };
        self.features.prompt_op = None;
        match self.declared("prompts") {
            Err(why) => view.outcome = Some(Err(why)),
            Ok(()) => {
                let op =
                    self.page
                        .client
                        .get_prompt(self.page.now, &view.name, view.arguments.clone());
                self.features.prompt_op = Some(op);
            }
        }
        self.features.prompt = Some(view);
        self.show_prompt();
    }

    /// **Use in the loop**: the latest prompt's messages seed a new loop, run to its
    /// end like Run.
    fn use_prompt(&mut self) {
        let messages = match self.features.prompt.as_ref().map(|p| &p.outcome) {
            Some(Some(Ok(r))) => r.messages.clone(),
            _ => {
                self.notice("Get a prompt first: its messages are what the loop starts from.");
                return;
            }
        };
        self.seed = Some(prompt_turns(&messages));
    }

    fn set_log_level(&mut self, level: LoggingLevel) {
        self.features.level_op = None;
        let status = match self.declared("logging") {
            Err(why) => why,
            Ok(()) => match self.page.client.set_log_level(self.page.now, level) {
                Some(op) => {
                    self.features.level_op = Some(op);
                    format!("logging/setLevel {} sent", level.as_str())
                }
                None => format!(
                    "{}: under 2026-07-28 there is no logging/setLevel; the level is stamped on every later request's _meta (io.modelcontextprotocol/logLevel)",
                    level.as_str()
                ),
            },
        };
        self.features.level = LevelView {
            level: Some(level),
            status,
        };
        self.show_level();
    }
}
