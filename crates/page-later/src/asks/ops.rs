//! The driver's half of "the server asks": questions in, the learner's answers out.

use mcpg_core::Timestamp;
use mcpg_core::client::OpId;
use mcpg_core::jsonrpc::RequestId;
use mcpg_host::asks::{Reply, Root, input_responses, url_domain, url_elicitations};
use mcpg_page::{AskCommand, AskKey, AskPlace, AskState, AskView, Output, Page, ViewChange};
use serde_json::{Map, Value};

use crate::parts::LoopParts;

impl LoopParts {
    /// A server request the core left for the host to answer.
    pub(crate) fn server_asked(
        &mut self,
        page: &mut Page,
        id: RequestId,
        method: String,
        params: Option<Value>,
        deadline: Timestamp,
    ) {
        page.note(format!(
            "the server asks the host: {method} (the direction has reversed; waiting for you)"
        ));
        let mut view = AskView::new(
            method,
            params.unwrap_or(Value::Null),
            AskKey::Request(id.clone()),
        );
        view.deadline = Some(deadline);
        view.call = self.in_call(|run| run.waiting_call_step());
        self.asks.push(view);
        self.answer_as_recorded(page, &id);
        self.show_asks(page);
    }

    /// A 2026-07-28 `input_required` result for call `op`: one question per entry
    /// of `inputRequests`, in key order.
    pub(crate) fn input_required(&mut self, page: &mut Page, op: OpId, result: &Value) {
        let state = result.get("requestState").cloned();
        let requests = result
            .get("inputRequests")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if requests.is_empty() {
            // Nothing to answer: retry at once, as the spec says a client may.
            page.client.continue_call(page.now, op, Map::new());
            return;
        }
        for (key, req) in requests {
            let method = req
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let params = req.get("params").cloned().unwrap_or(Value::Null);
            let mut view = AskView::new(method, params, AskKey::Input { op, key });
            view.request_state = state.clone();
            view.call = self.in_call(|run| run.call_step(op));
            self.asks.push(view);
        }
        page.note(
            "the server asks the host for input (input_required): answer, and the call is retried",
        );
        self.retry_as_recorded(page, op);
        self.show_asks(page);
    }

    /// A call failed with `-32042`: each URL elicitation it carries is shown like an
    /// `elicitation/create` (opened only on a click); one that cannot be offered is
    /// noted with why.
    pub(crate) fn url_required(
        &mut self,
        page: &mut Page,
        op: OpId,
        error: &mcpg_core::jsonrpc::RpcError,
    ) {
        let call = self.in_call(|run| run.call_step(op));
        for ask in url_elicitations(error) {
            match ask.map(|a| a.raw) {
                Ok(params) => {
                    let mut view =
                        AskView::new("elicitation/create".into(), params, AskKey::Required);
                    view.call = call;
                    self.asks.push(view);
                }
                Err(e) => page.note(format!("a URL elicitation the page will not offer: {e}")),
            }
        }
        page.note("the server refused the call until a URL is visited (-32042): open it, then run the call again");
        self.show_asks(page);
    }

    /// `notifications/elicitation/complete`: the URL elicitation it names is done.
    pub(crate) fn elicitation_complete(&mut self, page: &mut Page, params: Option<&Value>) {
        let id = params
            .and_then(|p| p.get("elicitationId"))
            .and_then(Value::as_str);
        let mut changed = false;
        for a in &mut self.asks.list {
            if a.params.get("elicitationId").and_then(Value::as_str) == id && id.is_some() {
                a.completed = true;
                changed = true;
            }
        }
        if changed {
            self.show_asks(page);
        }
    }

    /// The learner's answer, click or roots.
    pub(crate) fn ask_command(&mut self, page: &mut Page, cmd: AskCommand) {
        match cmd {
            AskCommand::Answer { id, reply } => self.answer_ask(page, id, reply),
            AskCommand::OpenUrl { id } => {
                let url = self
                    .asks
                    .list
                    .iter_mut()
                    .find(|a| a.id == id && a.state == AskState::Waiting)
                    .and_then(|a| {
                        a.opened = true;
                        a.params
                            .get("url")
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                    });
                // The same check that shows the domain (the one URL rule: https, or
                // http to a loopback host, no user name), or never.
                match url.filter(|u| url_domain(u).is_ok()) {
                    Some(url) => {
                        page.note(format!("you opened {url} (the server's URL elicitation)"));
                        page.output(Output::OpenUrl { url });
                        self.show_asks(page);
                    }
                    None => page.notice(format!(
                        "the page does not open that URL: it breaks the URL rule ({})",
                        mcpg_host::asks::URL_RULE
                    )),
                }
            }
            AskCommand::SampleWithModel { id, asked } => self.sample_with_model(page, id, asked),
            AskCommand::SetRoots(roots) => self.set_roots(page, roots),
        }
    }

    fn answer_ask(&mut self, page: &mut Page, id: u64, reply: Reply) {
        let result = reply.to_result();
        let now = page.now;
        let Some(a) = self
            .asks
            .list
            .iter_mut()
            .find(|a| a.id == id && a.state == AskState::Waiting)
        else {
            page.notice("that question is no longer waiting for an answer");
            return;
        };
        a.state = match &result {
            Ok(v) => AskState::Answered(serde_json::to_string_pretty(v).unwrap_or_default()),
            Err(e) => AskState::Refused(format!("{}: {}", e.code, e.message)),
        };
        let key = a.key.clone();
        match key {
            AskKey::Request(rid) => {
                // The core no longer holds it: its deadline passed first.
                if !page.client.answer(now, &rid, result)
                    && let Some(a) = self.asks.list.iter_mut().find(|a| a.id == id)
                {
                    a.state = AskState::TimedOut;
                }
            }
            // Nothing goes back for a -32042 URL: the learner only says it is done.
            AskKey::Required => {
                if let Some(a) = self.asks.list.iter_mut().find(|a| a.id == id) {
                    a.state = AskState::Answered(
                        "(nothing is sent for a -32042 URL: run the call again)".to_owned(),
                    );
                }
            }
            AskKey::Input { op, key } => {
                // A rejection has no result form in MRTR: `input_responses` leaves it out.
                self.asks.responses.push((op, key, reply));
                self.retry_when_answered(page, op);
            }
        }
        self.show_asks(page);
    }

    /// Retries call `op` once every question it asked has an answer.
    fn retry_when_answered(&mut self, page: &mut Page, op: OpId) {
        let waiting = self.asks.list.iter().any(|a| {
            a.state == AskState::Waiting
                && matches!(&a.key, AskKey::Input { op: o, .. } if *o == op)
        });
        if waiting {
            return;
        }
        let mut replies = Vec::new();
        self.asks.responses.retain(|(o, key, reply)| {
            let mine = *o == op;
            if mine {
                replies.push((key.clone(), reply.clone()));
            }
            !mine
        });
        let responses = input_responses(&replies);
        if !page.client.continue_call(page.now, op, responses) {
            page.note("the call is no longer waiting for input: the answers were not sent");
        }
    }

    fn set_roots(&mut self, page: &mut Page, roots: Vec<Root>) {
        if roots == self.asks.roots {
            return;
        }
        self.asks.roots = roots;
        page.emit(ViewChange::Roots(self.asks.roots.clone()));
        if page.client.negotiated().is_some() {
            page.client
                .notify(page.now, "notifications/roots/list_changed", None);
        }
    }

    /// Questions whose deadline passed were answered by the core with an error.
    pub(crate) fn expire_asks(&mut self, page: &mut Page) {
        let now = page.now;
        let mut changed = false;
        for a in &mut self.asks.list {
            if a.state == AskState::Waiting && a.deadline.is_some_and(|d| d <= now) {
                a.state = AskState::TimedOut;
                changed = true;
            }
        }
        if changed {
            self.show_asks(page);
        }
    }

    /// The connection is gone or replaced: no question can be answered any more.
    pub(crate) fn forget_asks(&mut self, page: &mut Page) {
        self.asks.responses.clear();
        let mut changed = false;
        for a in &mut self.asks.list {
            if a.state == AskState::Waiting {
                a.state = AskState::Gone;
                changed = true;
            }
        }
        if changed {
            self.show_asks(page);
        }
    }

    /// The current loop and the index of the step 4 that `step` picks from it.
    fn in_call(
        &self,
        step: impl FnOnce(&mcpg_host::tool_loop::ToolLoop) -> Option<usize>,
    ) -> Option<(u64, usize)> {
        let index = self.run.as_ref().and_then(step)?;
        Some((self.loop_id, index))
    }

    pub(crate) fn show_asks(&mut self, page: &mut Page) {
        let current = self.loop_id;
        for a in &mut self.asks.list {
            a.place = match a.call {
                None => AskPlace::Connection,
                Some((l, i)) if l == current => AskPlace::Step(i),
                Some(_) => AskPlace::Earlier,
            };
        }
        page.emit(ViewChange::Asks(self.asks.list.clone()));
    }
}
