//! MCP Apps in the loop: a called tool that links a view (`_meta.ui.resourceUri`)
//! gets it hosted next to its result. When step 4 sends the call the host reads
//! the view's `ui://` resource (over MCP, so the wire log shows it); once both the
//! read and the call are answered the page opens a sandboxed frame, and one
//! `mcpg_apps::AppSession` per view keeps the dialogue's rules. The view reaches
//! the server only through the host: its `tools/call` and `resources/read` are
//! checked by the session, then sent as the host's own requests and answered back.

mod hosted;
mod summary;

use std::collections::BTreeMap;

use mcpg_apps::{AppSession, HostSetup, ServerAsk, Ticket, ToolUi, UiResource};
use mcpg_core::Timestamp;
use mcpg_core::client::{CallOutcome, OpError, OpId};
use mcpg_core::jsonrpc::{Message, RequestId, RpcError};
use mcpg_core::model::{JsonObject, Tool};
use mcpg_page::{AppCommand, AppLifeline, AppView, Output, Page, ViewChange};
use serde_json::{Value, json};

use hosted::Hosted;

/// A call whose tool links a view, waiting for the view's resource and the result.
#[derive(Debug)]
struct Pending {
    tool: Tool,
    uri: String,
    arguments: Value,
    server_tools: Vec<Tool>,
    resource: Option<Result<UiResource, String>>,
    /// The call's raw result, or why there is none.
    result: Option<Result<Value, String>>,
    call_id: Option<RequestId>,
    /// The index in the loop's steps of the call's step 5, once it ended.
    step: Option<usize>,
}

/// The views of this page, and what they wait for.
#[derive(Debug, Default)]
pub(crate) struct Apps {
    views: Vec<Hosted>,
    next_id: u64,
    /// Calls of the loop whose tool links a view, by the call's op.
    calls: BTreeMap<OpId, Pending>,
    /// Reads of a view's resource in flight: the call they serve.
    reads: BTreeMap<OpId, OpId>,
    /// A view's requests sent on to the server: whose, its ticket, and the tool
    /// it calls (none for a read).
    asks: BTreeMap<OpId, (u64, Ticket, Option<String>)>,
    /// How many views the page was last told of.
    shown: usize,
}

/// What the host tells every view about itself.
fn host_setup() -> HostSetup {
    HostSetup {
        name: "MCP Playground".to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        theme: "light",
        locale: "en".to_owned(),
        width: 640,
        max_height: 640,
    }
}

impl Apps {
    /// Step 4 sent `op`, a call of `tool`: if it links a view, read it now.
    pub(crate) fn call_sent(
        &mut self,
        page: &mut Page,
        op: OpId,
        tool: &Tool,
        arguments: &JsonObject,
        server_tools: &[Tool],
    ) {
        let Some(uri) = ToolUi::of(tool).resource_uri else {
            return;
        };
        // A connection that did not declare the extension hosts no view (a replay
        // of a session recorded without it, such as `mcpg loop --share`'s).
        let declared = page
            .client
            .config()
            .capabilities
            .get("extensions")
            .and_then(|e| e.get(mcpg_apps::EXTENSION))
            .is_some();
        if !declared {
            return;
        }
        page.note(format!(
            "{} links a view ({uri}): the host reads it, to show it with the result",
            tool.name
        ));
        let read = page
            .client
            .request(page.now, "resources/read", Some(json!({ "uri": uri })));
        self.reads.insert(read, op);
        self.calls.insert(
            op,
            Pending {
                tool: tool.clone(),
                uri,
                arguments: Value::Object(arguments.clone()),
                server_tools: server_tools.to_vec(),
                resource: None,
                result: None,
                call_id: None,
                step: None,
            },
        );
    }

    /// A raw request ended: whether it was one of ours (then it is handled).
    pub(crate) fn on_response(
        &mut self,
        page: &mut Page,
        op: OpId,
        outcome: &Result<Value, OpError>,
    ) -> bool {
        if let Some(call) = self.reads.remove(&op) {
            if let Some(p) = self.calls.get_mut(&call) {
                p.resource = Some(match outcome {
                    Ok(v) => UiResource::from_read(&p.uri, v).map_err(|e| e.to_string()),
                    Err(e) => Err(format!("resources/read failed: {e}")),
                });
            }
            self.try_open(page, call);
            return true;
        }
        let Some((view, ticket, tool)) = self.asks.remove(&op) else {
            return false;
        };
        let answer = match outcome {
            Ok(v) => Ok(v.clone()),
            Err(OpError::Rpc(e)) => Err(e.clone()),
            Err(e) => Err(RpcError::new(
                mcpg_core::jsonrpc::code::INTERNAL_ERROR,
                format!("the host got no answer from the server: {e}"),
            )),
        };
        if let Some(h) = self.find(view) {
            // The picture draws a view's call once its result is back (an error
            // answer draws nothing it could not name truly). Dirty, though the card
            // is the same: the page re-reads the lifelines when told of the views.
            if let (Some(name), Ok(_)) = (tool, &answer) {
                h.calls.push(name);
                h.dirty = true;
            }
            if let Some(s) = h.session.as_mut() {
                s.server_answered(ticket, answer);
            }
        }
        self.drain(page);
        self.show(page);
        true
    }

    /// A call of the loop ended (a round that asks for input is not the end);
    /// `step` is the index of its step 5 in the loop's steps.
    pub(crate) fn call_finished(
        &mut self,
        page: &mut Page,
        op: OpId,
        outcome: &CallOutcome,
        message: Option<&Message>,
        step: Option<usize>,
    ) {
        let Some(p) = self.calls.get_mut(&op) else {
            return;
        };
        p.result = match outcome {
            CallOutcome::InputRequired(_) => return,
            CallOutcome::Success(_) | CallOutcome::ToolError(_) => Some(Ok(message
                .and_then(Message::result)
                .cloned()
                .unwrap_or(Value::Null))),
            CallOutcome::ProtocolError(e) => Some(Err(format!(
                "the server answered error {}: {}",
                e.code, e.message
            ))),
            CallOutcome::Failed(f) => Some(Err(f.to_string())),
        };
        p.call_id = message.and_then(Message::id).cloned();
        p.step = step;
        self.try_open(page, op);
    }

    /// Hosts the view of call `op` once its resource and result are both in.
    fn try_open(&mut self, page: &mut Page, op: OpId) {
        let ready = self
            .calls
            .get(&op)
            .is_some_and(|p| p.resource.is_some() && p.result.is_some());
        if !ready {
            return;
        }
        let Some(p) = self.calls.remove(&op) else {
            return;
        };
        self.next_id += 1;
        let id = self.next_id;
        let hosted = match p.resource {
            Some(Ok(res)) => {
                let mut session = AppSession::new(
                    page.now,
                    host_setup(),
                    p.tool.clone(),
                    p.call_id,
                    &res.csp,
                    &p.server_tools,
                );
                session.tool_input(&p.arguments);
                match &p.result {
                    Some(Ok(r)) => session.tool_result(r),
                    Some(Err(why)) => session.tool_cancelled(why),
                    None => {}
                }
                Hosted::new(id, &p.tool.name, p.step, res, Some(session))
            }
            Some(Err(why)) => {
                page.note(format!(
                    "the view of {} cannot be hosted: {why}",
                    p.tool.name
                ));
                Hosted::failed(id, &p.tool.name, p.step, &p.uri, why)
            }
            None => return,
        };
        self.views.push(hosted);
        self.drain(page);
        self.show(page);
    }

    /// What the shell or the learner sent about a view.
    pub(crate) fn command(&mut self, page: &mut Page, c: AppCommand) {
        match c {
            AppCommand::FromView { view, raw } => {
                let now = page.now;
                match self.find(view).and_then(|h| h.session.as_mut()) {
                    Some(s) => s.handle_view(now, &raw),
                    None => page.note("ignored: a message of a view that is gone"),
                }
            }
            AppCommand::Link { view, ticket, open } => {
                let Some(h) = self.find(view) else { return };
                let Some(i) = h.view.links.iter().position(|l| l.ticket == ticket) else {
                    return;
                };
                let link = h.view.links.remove(i);
                h.dirty = true;
                if let Some(s) = &mut h.session {
                    s.link_decided(Ticket(ticket), open);
                }
                if open {
                    page.output(Output::OpenUrl { url: link.url });
                }
            }
        }
        self.drain(page);
        self.show(page);
    }

    /// Time passed: views that never finished their handshake, or their teardown.
    pub(crate) fn timer(&mut self, page: &mut Page) {
        let now = page.now;
        let mut any = false;
        for s in self.views.iter_mut().filter_map(|h| h.session.as_mut()) {
            if s.poll_timeout().is_some_and(|t| t <= now) {
                s.handle_timeout(now);
                any = true;
            }
        }
        if any {
            self.drain(page);
            self.show(page);
        }
    }

    /// The views' next deadline.
    pub(crate) fn poll_timeout(&self) -> Option<Timestamp> {
        self.views
            .iter()
            .filter_map(|h| h.session.as_ref()?.poll_timeout())
            .min()
    }

    /// Every view goes (reset, a new loop, a new connection): each is asked to
    /// tear down first, and calls still waiting for their view are forgotten.
    pub(crate) fn teardown(&mut self, page: &mut Page, reason: &str) {
        self.calls.clear();
        self.reads.clear();
        if self.views.is_empty() {
            return;
        }
        let now = page.now;
        for h in &mut self.views {
            // What a view said goes with it: the loop it spoke into is over.
            h.said.clear();
            h.context = None;
            match &mut h.session {
                Some(s) => s.teardown(now, reason),
                // A card without a frame just goes.
                None => h.gone = true,
            }
        }
        self.drain(page);
        self.show(page);
    }

    /// The oldest user message a view added (`ui/message`) and not yet taken, as
    /// the user turn the model gets: its text, then what that view last set for
    /// the model to see (`ui/update-model-context`), which goes with it once.
    /// Also the tool whose view it is.
    pub(crate) fn take_message(&mut self) -> Option<(String, String)> {
        let h = self.views.iter_mut().find(|h| !h.said.is_empty())?;
        let said = h.said.remove(0);
        let text = match h.context.take() {
            // Worded without the tool's name: the model should read what the
            // user sees, not be steered back to the tool that drew it.
            Some(ctx) => format!("{said}\n\n(Context from the app the user sees: {ctx})"),
            None => said,
        };
        Some((h.view.tool.clone(), text))
    }

    /// Where each view belongs in the loop, for the picture (a view whose call's
    /// step 5 is unknown has none).
    pub(crate) fn lifelines(&self) -> Vec<AppLifeline> {
        self.views
            .iter()
            .filter_map(|h| {
                Some(AppLifeline {
                    view: h.view.id,
                    step: h.step?,
                    calls: h.calls.clone(),
                })
            })
            .collect()
    }

    fn find(&mut self, view: u64) -> Option<&mut Hosted> {
        self.views.iter_mut().find(|h| h.view.id == view)
    }

    /// Moves every view's messages and events to the page, until none moves.
    fn drain(&mut self, page: &mut Page) {
        for h in &mut self.views {
            while let Some(text) = h.session.as_mut().and_then(AppSession::poll_to_view) {
                page.output(Output::AppPost {
                    view: h.view.id,
                    text,
                });
            }
            for ask in h.events(page) {
                let (method, params, tool) = match ask.1 {
                    ServerAsk::CallTool { name, arguments } => (
                        "tools/call",
                        json!({"name": name, "arguments": arguments}),
                        Some(name),
                    ),
                    ServerAsk::ReadResource { uri } => {
                        ("resources/read", json!({"uri": uri}), None)
                    }
                };
                let op = page.client.request(page.now, method, Some(params));
                self.asks.insert(op, (h.view.id, ask.0, tool));
            }
        }
        // A view that went changes the count `show` compares.
        self.views.retain(|h| !h.gone);
    }

    /// Tells the page the views as they are now (only when that changed).
    fn show(&mut self, page: &mut Page) {
        if self.shown == self.views.len() && !self.views.iter().any(|h| h.dirty) {
            return;
        }
        for h in &mut self.views {
            h.dirty = false;
        }
        self.shown = self.views.len();
        let views: Vec<AppView> = self.views.iter().map(|h| h.view.clone()).collect();
        page.emit(ViewChange::Apps(views));
    }
}
