//! The naive host's mistakes ([`Pitfall`]) and the careful host's choices, at the
//! steps they concern. The loop takes its [`Pitfalls`] when it starts and keeps
//! them: a lesson switches the host between two loops, never in the middle of one,
//! so every card of a loop was made by one host. Each choice is recorded on its
//! step ([`HostChoice`]) only where the pitfall mattered (pages to follow, names to
//! rewrite, an `isError` result…), in both modes.

use mcpg_core::client::{CallOutcome, Event};
use mcpg_core::jsonrpc::Message;
use mcpg_core::model::Tool;
use mcpg_loop_data::{HostChoice, Pitfall, Pitfalls};
use serde_json::{Value, json};

use super::{BlockKind, JsonBlock, Phase, Step, StepStatus, ToolLoop, explain};
use crate::provider::{
    self, NameMap, Provider, Rejection, ResultView, ToolOutput, Turn, name_rules,
};

impl ToolLoop {
    /// The same loop, made by a host with these mistakes (none: the careful host).
    #[must_use]
    pub fn with_pitfalls(mut self, pitfalls: Pitfalls) -> Self {
        self.pitfalls = pitfalls;
        self
    }

    /// The mistakes this loop's host makes.
    pub fn pitfalls(&self) -> Pitfalls {
        self.pitfalls
    }

    pub(super) fn naive(&self, p: Pitfall) -> bool {
        self.pitfalls.has(p)
    }

    /// Whether the model was offered a tool of this name: the server listed it and
    /// its MCP Apps visibility does not leave the model out.
    pub(super) fn listed(&self, name: &str) -> bool {
        self.tools
            .iter()
            .any(|t| t.name == name && mcpg_apps::Visibility::of(t).model)
    }

    /// The careful host refuses the next queued call, whose tool the server never
    /// listed: no `tools/call` is sent; step 4 shows what would have been, and the
    /// model is told, in step 6, that no such tool exists.
    pub fn refuse_call(&mut self) {
        if self.phase != Phase::ToCall || self.queue.is_empty() {
            return;
        }
        let call = self.queue.remove(0);
        let would = json!({
            "jsonrpc": "2.0",
            "method": "tools/call",
            "params": {"name": call.name, "arguments": Value::Object(call.arguments.clone())}
        });
        let why = if self.withheld().contains(&call.name.as_str()) {
            explain::refused_app_only(&call.name)
        } else {
            explain::refused(&call.name, self.tools.len())
        };
        let mut s4 = Step::new(4, StepStatus::Failed, why);
        s4.blocks.push(JsonBlock::value(
            BlockKind::Built,
            "not sent: the tools/call the host refused to send",
            &would,
        ));
        s4.choices.push(HostChoice::careful(
            Pitfall::AcceptInventedTool,
            format!(
                "refused to call {:?}: the server never listed it, so no tools/call was sent",
                call.name
            ),
        ));
        self.steps.push(s4);
        self.steps.push(Step::new(
            5,
            StepStatus::Skipped,
            "No tools/call was sent, so the server returned nothing: there is no CallToolResult and no JSON-RPC error.",
        ));
        self.current = Some(call.clone());
        self.call_op = None;
        self.progress = None;
        self.outcome = None;
        let result = ResultView::Failed(format!(
            "there is no tool named {:?} (the server never listed it), so the host did not call it",
            call.name
        ));
        self.outputs.push(ToolOutput { call, result });
        self.end_call();
    }

    /// The call's output is in: the round's results go to the model (step 6) once no
    /// call is left, as this host feeds them.
    pub(super) fn end_call(&mut self) {
        if !self.queue.is_empty() {
            self.phase = Phase::ToCall;
            return;
        }
        let outputs = std::mem::take(&mut self.outputs);
        self.fed_choices = self.feeding_choices(&outputs);
        let fed = outputs.into_iter().map(|o| self.as_fed(o)).collect();
        self.turns.push(Turn::Results(fed));
        self.phase = Phase::Returned;
    }

    /// One output as this host hands it to the model: the naive host drops the
    /// error flag and `structuredContent` when those pitfalls are on.
    fn as_fed(&self, mut o: ToolOutput) -> ToolOutput {
        if let ResultView::Result(r) = &mut o.result {
            if self.naive(Pitfall::ErrorAsSuccess) && r.failed() {
                r.is_error = None;
            }
            if self.naive(Pitfall::DropStructured) {
                r.structured_content = None;
            }
        }
        o
    }

    /// Step 6's choices for these outputs (before [`ToolLoop::as_fed`]).
    fn feeding_choices(&self, outputs: &[ToolOutput]) -> Vec<HostChoice> {
        let mut out = Vec::new();
        let marker = error_marker(self.provider);
        let failed: Vec<&str> = outputs
            .iter()
            .filter(|o| matches!(&o.result, ResultView::Result(r) if r.failed()))
            .map(|o| o.call.name.as_str())
            .collect();
        if !failed.is_empty() {
            let names = failed.join(", ");
            out.push(if self.naive(Pitfall::ErrorAsSuccess) {
                HostChoice::naive(
                    Pitfall::ErrorAsSuccess,
                    format!(
                        "fed the isError result of {names} back as a success ({marker} left out): the model reads the error text as if it were the answer"
                    ),
                )
            } else {
                HostChoice::careful(
                    Pitfall::ErrorAsSuccess,
                    format!(
                        "fed the isError result of {names} back as a failure ({marker}), so the model knows the tool failed"
                    ),
                )
            });
        }
        for o in outputs {
            let ResultView::Result(r) = &o.result else {
                continue;
            };
            if r.structured_content.is_none() {
                continue;
            }
            let unmirrored = provider::structured_unmirrored(&o.result);
            let name = &o.call.name;
            out.push(match (self.naive(Pitfall::DropStructured), unmirrored) {
                (true, true) => HostChoice::naive(
                    Pitfall::DropStructured,
                    format!(
                        "dropped the structuredContent of {name} and passed only content, which does not carry it: the model never sees that data"
                    ),
                ),
                (true, false) => HostChoice::naive(
                    Pitfall::DropStructured,
                    format!(
                        "dropped the structuredContent of {name} and passed only content (its text mirrors the data, so nothing was lost this time)"
                    ),
                ),
                (false, true) => HostChoice::careful(
                    Pitfall::DropStructured,
                    format!(
                        "passed the structuredContent of {name} to the model too, since no text block of content carries it"
                    ),
                ),
                (false, false) => HostChoice::careful(
                    Pitfall::DropStructured,
                    format!(
                        "kept the structuredContent of {name}: its text block already mirrors it, so the model sees the data once"
                    ),
                ),
            });
        }
        let refused: Vec<&str> = outputs
            .iter()
            .filter(|o| !self.listed(&o.call.name))
            .map(|o| o.call.name.as_str())
            .collect();
        if !refused.is_empty() && !self.naive(Pitfall::AcceptInventedTool) {
            out.push(HostChoice::careful(
                Pitfall::AcceptInventedTool,
                format!(
                    "told the model that no tool named {} exists, as an error tool result ({marker})",
                    refused.join(", ")
                ),
            ));
        }
        out
    }

    /// How step 6 says the host fed the results, when this host's way differs from
    /// the usual sentence ([`explain::fed_back`]).
    pub(super) fn fed_how(&self) -> Option<String> {
        let Some(Turn::Results(outputs)) = self.turns.last() else {
            return None;
        };
        let refused = outputs.iter().any(|o| !self.listed(&o.call.name));
        if refused && !self.naive(Pitfall::AcceptInventedTool) {
            return Some(format!(
                "The host never sent the call, so it tells the model itself that the tool does not exist, as a failed tool result ({}).",
                error_marker(self.provider)
            ));
        }
        let flag_dropped = self.naive(Pitfall::ErrorAsSuccess)
            && matches!(self.outcome, Some(CallOutcome::ToolError(_)));
        flag_dropped.then(|| {
            format!(
                "The naive host appended the result as if it had succeeded ({} left out), so the model cannot tell that the tool failed.",
                error_marker(self.provider)
            )
        })
    }

    /// Step 4 as the naive host sends a call the server never listed.
    pub(super) fn invented_choice(&self, name: &str) -> Option<HostChoice> {
        (self.naive(Pitfall::AcceptInventedTool) && !self.listed(name)).then(|| {
            HostChoice::naive(
                Pitfall::AcceptInventedTool,
                format!(
                    "sent tools/call for {name:?}, which the server never listed: only the server can refuse it now (step 5)"
                ),
            )
        })
    }

    /// Step 2's choice about names, when a name breaks the provider's rules.
    pub(super) fn names_choice(&self, names: &NameMap) -> Option<HostChoice> {
        let label = self.provider.label();
        if self.naive(Pitfall::RawNames) {
            let careful = NameMap::build(
                self.tools.iter().map(|t| t.name.as_str()),
                name_rules(self.provider),
            );
            let first = careful.changes().first()?;
            let n = careful.changes().len();
            let fate = if self.provider == Provider::Ollama {
                "Ollama does not check names, so the request still goes through"
            } else {
                "the API will refuse the whole request"
            };
            return Some(HostChoice::naive(
                Pitfall::RawNames,
                format!(
                    "sent the MCP tool names unchanged, although {n} break the {label} API's rule {} (e.g. {:?}): {fate}",
                    name_rules(self.provider).pattern(),
                    first.mcp
                ),
            ));
        }
        let changes = names.changes();
        let first = changes.first()?;
        Some(HostChoice::careful(
            Pitfall::RawNames,
            format!(
                "rewrote {} tool name(s) to fit the {label} API's rules ({} → {}) and maps them back when the model calls one",
                changes.len(),
                first.mcp,
                first.provider
            ),
        ))
    }

    /// The naive host's request, with tool names the provider refuses: the answer the
    /// API would give, instead of the mock's turn.
    pub(super) fn provider_refusal(&self) -> Option<Rejection> {
        if !self.naive(Pitfall::RawNames) {
            return None;
        }
        provider::refused_names(self.provider, &self.for_model())
    }

    /// Records the provider's refusal of the naive host's request as a failed step 3
    /// (or 6) and ends the loop: no model ever read it.
    pub(super) fn provider_refused(&mut self, r: &Rejection) {
        let number = if self.phase == Phase::Reshaped { 3 } else { 6 };
        let label = self.provider.label();
        let fixed = NameMap::build([r.name.as_str()], name_rules(self.provider));
        let fix = fixed.to_provider(&r.name).unwrap_or(&r.name).to_owned();
        let mut s = Step::new(
            number,
            StepStatus::Failed,
            explain::names_refused(label, r.status, &r.name, &fix),
        );
        s.blocks.push(JsonBlock::value(
            BlockKind::Sent,
            format!("→ request to the model ({label})"),
            &self.model_request(),
        ));
        s.blocks.push(JsonBlock::value(
            BlockKind::Received,
            format!(
                "← the {label} API's reply (HTTP {}), as it answers such a request",
                r.status
            ),
            &r.body,
        ));
        s.choices.push(HostChoice::naive(
            Pitfall::RawNames,
            format!(
                "sent {:?} as it is; the {label} API answered HTTP {} and no model saw the request",
                r.name, r.status
            ),
        ));
        self.steps.push(s);
        self.answer = None;
        self.phase = Phase::Done;
    }

    /// Step 1, the naive way: one `tools/list` request, no cursor followed. The
    /// driver sent it as a plain request (`Client::request`), so its end arrives as
    /// [`Event::Response`].
    pub(super) fn on_first_page(&mut self, outcome: &Result<Value, mcpg_core::client::OpError>) {
        let raw = self.first_page_raw.take();
        let result = match outcome {
            Ok(v) => v,
            Err(e) => {
                if let Some(s) = self.step_mut(1) {
                    s.status = StepStatus::Failed;
                    s.explanation = explain::list_failed(0, e);
                }
                self.phase = Phase::Done;
                return;
            }
        };
        let tools: Vec<Tool> = result
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|t| Tool::from_json(t).ok())
            .collect();
        let cursor = result
            .get("nextCursor")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let message = raw.and_then(|r| Message::decode(&r).ok());
        match &message {
            Some(m) => self.on_page(1, &tools, cursor.clone(), m),
            None => {
                self.tools.extend(tools.iter().cloned());
                self.pages.push(mcpg_loop_data::PageRecord {
                    page: 1,
                    tools: tools.as_slice().into(),
                    next_cursor: cursor.clone(),
                });
            }
        }
        let count = self.tools.len();
        if let Some(s) = self.step_mut(1) {
            s.status = StepStatus::Done;
            s.explanation = explain::first_page_only(count, cursor.as_deref());
            if let Some(c) = &cursor {
                s.choices.push(HostChoice::naive(
                    Pitfall::FirstPageOnly,
                    format!(
                        "read page 1 only ({count} tools) and ignored its nextCursor {c:?}: the model never sees a tool from a later page"
                    ),
                ));
            }
        }
        self.phase = Phase::Listed;
    }

    /// The naive listing's response, kept to show on step 1 (the [`Event::Response`]
    /// that follows carries only the result).
    pub(super) fn keep_first_page(&mut self, msg: &Message, raw: &str) {
        if self.phase != Phase::Listing || !self.naive(Pitfall::FirstPageOnly) {
            return;
        }
        if msg.method().is_none() && msg.id().is_some() && msg.id() == self.list_request.as_ref() {
            self.first_page_raw = Some(raw.to_owned());
        }
    }

    /// Step 1's careful choice, once every page is in.
    pub(super) fn listed_choice(&mut self, pages: u32, tools: usize) {
        if pages <= 1 {
            return;
        }
        if let Some(s) = self.step_mut(1) {
            s.choices.push(HostChoice::careful(
                Pitfall::FirstPageOnly,
                format!("followed nextCursor through {pages} pages and got all {tools} tools"),
            ));
        }
    }

    /// `notifications/tools/list_changed` arrived: the host lists again (the page
    /// does it) or, naive, ignores it. Noted on the step under way.
    pub(super) fn on_list_changed(&mut self) {
        let choice = if self.naive(Pitfall::IgnoreListChanged) {
            HostChoice::naive(
                Pitfall::IgnoreListChanged,
                "ignored notifications/tools/list_changed and sent no tools/list: its tool list is now stale (the Tools panel still shows the old one)",
            )
        } else {
            HostChoice::careful(
                Pitfall::IgnoreListChanged,
                "sent tools/list again after notifications/tools/list_changed, so its tool list is current (the Tools panel shows the new one)",
            )
        };
        if let Some(s) = self.steps.last_mut()
            && !s.choices.contains(&choice)
        {
            s.choices.push(choice);
        }
    }

    /// Reads the events only the pitfalls care about; whether `event` was one.
    pub(super) fn on_pitfall_event(&mut self, event: &Event) -> bool {
        match event {
            Event::Response { op, outcome }
                if Some(*op) == self.list_op && self.phase == Phase::Listing =>
            {
                self.on_first_page(outcome);
                true
            }
            Event::ToolsListChanged if !self.steps.is_empty() && !self.is_done() => {
                self.on_list_changed();
                true
            }
            _ => false,
        }
    }
}

/// How `provider`'s tool results say that a call failed.
pub fn error_marker(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "is_error: true on the tool_result block",
        Provider::OpenAiChat => {
            "an \"Error: \" prefix in the tool message; Chat Completions has no error flag"
        }
        Provider::OpenAiResponses => "an \"Error: \" prefix in the function_call_output",
        Provider::Gemini => "functionResponse.response.error instead of .output",
        Provider::Ollama => "an \"Error: \" prefix in the tool message; Ollama has no error flag",
    }
}
