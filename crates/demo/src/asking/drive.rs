//! The asking tools on the server session: classic asks and their answers, the URL
//! step's completion notice, and 2026-07-28 `input_required` rounds.

use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{RequestId, RpcError, code};
use mcpg_core::model::{CallToolResult, JsonObject};
use mcpg_core::server::{AskOutcome, CallContext, CannotAsk, declares};
use mcpg_core::version::{Generation, ProtocolVersion};
use serde_json::Value;

use super::{Finish, Kind, finish, linked, missing_capability, params, state};
use crate::DemoServer;

/// How long the pretend site takes before the server hears it is done (virtual time).
pub const LINK_DELAY: Duration = Duration::from_millis(1500);

/// A question the server sent and is waiting on (up to 2025-11-25).
#[derive(Debug)]
pub struct PendingAsk {
    ask: RequestId,
    call: RequestId,
    kind: Kind,
    name: String,
    args: JsonObject,
    link: String,
}

/// A URL step the learner accepted: done at `at`.
#[derive(Debug)]
pub struct LinkJob {
    call: RequestId,
    name: String,
    elicitation_id: String,
    /// When the pretend site reports back.
    pub at: Timestamp,
}

impl DemoServer {
    /// Starts an asking tool: a question on the wire, `input_required`, or (on a
    /// 2026-07-28 retry) the answer.
    pub(crate) fn ask(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        kind: Kind,
        name: &str,
        args: &JsonObject,
    ) {
        let Some(ctx) = self.server.call_context(id).cloned() else {
            return;
        };
        // Only URL steps use an elicitation id: numbered among themselves.
        if kind == Kind::Link {
            self.next_link += 1;
        }
        let link = format!("link-{}", self.next_link);
        if ctx.version.generation() == Generation::Stateless {
            return self.ask_mrtr(now, id, (kind, name, args), &ctx, &link);
        }
        match self
            .server
            .ask(now, kind.method(), params(kind, args, ctx.version, &link))
        {
            Ok(ask) => self.asks.push(PendingAsk {
                ask,
                call: id.clone(),
                kind,
                name: name.to_owned(),
                args: args.clone(),
                link,
            }),
            Err(e) => self.answer(now, id, name, missing_capability(kind, &e.to_string())),
        }
    }

    /// One 2026-07-28 round: ask with `input_required`, or read the retry's answer
    /// once its `requestState` verifies.
    fn ask_mrtr(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        (kind, name, args): (Kind, &str, &JsonObject),
        ctx: &CallContext,
        link: &str,
    ) {
        if !declares(&ctx.client_capabilities, kind.capability()) {
            let why = "its _meta clientCapabilities lack it";
            return self.answer(now, id, name, missing_capability(kind, why));
        }
        let key = kind.key();
        let reply = ctx.input_responses.as_ref().and_then(|r| r.get(key));
        match (&ctx.request_state, reply) {
            (Some(s), _) if !state::verify(s, name, key, args) => {
                let e = RpcError::new(
                    code::INVALID_PARAMS,
                    "requestState does not match this call (changed, or another call's)",
                );
                self.server.respond_error(now, id, e);
            }
            (Some(_), Some(v)) => {
                let r = match finish(kind, args, &as_outcome(v), false) {
                    Finish::Done(r) => *r,
                    Finish::AwaitCompletion => CallToolResult::text(linked()),
                };
                self.answer(now, id, name, r);
            }
            // A retry (it carries our state) without this answer: the host left it
            // out, as it does a rejected sampling request, which has no result form.
            // Asking again could go on for ever, so the tool stops and says why.
            (Some(_), None) => {
                let r = CallToolResult::tool_error(format!(
                    "The retry has no answer to \"{key}\" (a host leaves out what it rejected): the server stops."
                ));
                self.answer(now, id, name, r);
            }
            // The first round: ask.
            (None, _) => {
                let mut request = JsonObject::new();
                request.insert("method".into(), Value::from(kind.method()));
                request.insert("params".into(), params(kind, args, ctx.version, link));
                let mut requests = JsonObject::new();
                requests.insert(key.into(), Value::Object(request));
                let state = state::encode(name, key, args);
                self.server
                    .respond_input_required(now, id, requests, Some(&state));
            }
        }
    }

    /// Asks whether a task's count should go on ([`Kind::GoOn`]; `progress` is
    /// "counted 3 of 5"), the question tied to the task by `meta` (its
    /// `io.modelcontextprotocol/related-task`). `call` is the `tools/call` that
    /// made the task: the answer comes back to it through [`DemoServer::answered`].
    pub(crate) fn ask_go_on(
        &mut self,
        now: Timestamp,
        call: &RequestId,
        progress: &str,
        meta: Value,
    ) -> Result<(), CannotAsk> {
        let kind = Kind::GoOn;
        let mut p = params(
            kind,
            &JsonObject::new(),
            ProtocolVersion::V2025_11_25,
            progress,
        );
        if let Value::Object(o) = &mut p {
            o.insert("_meta".into(), meta);
        }
        let ask = self.server.ask(now, kind.method(), p)?;
        self.asks.push(PendingAsk {
            ask,
            call: call.clone(),
            kind,
            name: crate::catalogue::TASK.to_owned(),
            args: JsonObject::new(),
            link: String::new(),
        });
        Ok(())
    }

    /// The client answered (or did not) a question the server sent.
    pub(crate) fn answered(&mut self, now: Timestamp, ask: &RequestId, outcome: &AskOutcome) {
        let Some(i) = self.asks.iter().position(|p| &p.ask == ask) else {
            return;
        };
        let p = self.asks.remove(i);
        if p.kind == Kind::GoOn {
            return self.task_answered(now, &p.call, outcome);
        }
        match finish(p.kind, &p.args, outcome, true) {
            Finish::Done(r) => self.answer(now, &p.call, &p.name, *r),
            Finish::AwaitCompletion => self.links.push(LinkJob {
                call: p.call,
                name: p.name,
                elicitation_id: p.link,
                at: now.after(LINK_DELAY),
            }),
        }
    }

    /// Forgets what a cancelled call was waiting for.
    pub(crate) fn drop_asks(&mut self, call: &RequestId) {
        self.asks.retain(|p| &p.call != call);
        self.links.retain(|l| &l.call != call);
    }

    /// Finishes the URL steps whose pretend site reported back by `now`: the
    /// completion notice first, then the call's result.
    pub(crate) fn complete_links(&mut self, now: Timestamp) {
        let (due, waiting) = std::mem::take(&mut self.links)
            .into_iter()
            .partition(|l| l.at <= now);
        self.links = waiting;
        for l in due {
            self.server.elicitation_complete(l.at, &l.elicitation_id);
            let r = CallToolResult::text(linked());
            self.answer(l.at, &l.call, &l.name, r);
        }
    }
}

/// An `inputResponses` entry as an outcome: a result, or an error object where the
/// client refused (a rejected sampling request has no result shape of its own).
fn as_outcome(v: &Value) -> AskOutcome {
    let e = v.get("error").unwrap_or(v);
    match (
        e.get("code").and_then(Value::as_i64),
        e.get("message").and_then(Value::as_str),
    ) {
        (Some(c), Some(m)) => AskOutcome::Error(RpcError::new(c, m)),
        _ => AskOutcome::Result(v.clone()),
    }
}
