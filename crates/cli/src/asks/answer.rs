//! One answering path for every command and the conformance client: the checked
//! flags become an [`Answerer`] over `mcpg_host::asks::Policy`, which answers the
//! classic server requests (as the driver's request handler) and the 2026-07-28
//! `inputRequests` of an `input_required` result alike, printing each ask and
//! answer to stderr.

use std::io::IsTerminal;
use std::sync::Arc;

use mcpg_core::jsonrpc::RpcError;
use mcpg_core::model::JsonObject;
use mcpg_host::asks::{
    self, Ask, ElicitAction, ElicitMode, ElicitPolicy, Policy, Reply, Root, SamplePolicy,
};
use mcpg_transport::RequestHandler;
use serde_json::Value;

use super::flags::{Answering, OnElicit, OnSample};
use super::prompt::{Choice, Prompter};
use super::show;

/// Answers what the server asks, as the flags say.
#[derive(Debug)]
pub struct Answerer {
    policy: Policy,
    /// `--on-elicit ask`: a person answers elicitations at the terminal.
    prompt: bool,
    capabilities: JsonObject,
}

impl Answerer {
    /// The answerer the flags ask for; `None` without any flag (nothing is
    /// declared, so a server asks nothing).
    pub fn new(flags: &Answering) -> Option<Answerer> {
        if flags.is_empty() {
            return None;
        }
        let elicit = match &flags.elicit {
            Some(OnElicit::Answers(a)) => ElicitPolicy::Answers(a.clone()),
            // `ask` goes to the prompt; the policy's answer is never used for it.
            Some(OnElicit::Ask) | Some(OnElicit::Decline) | None => ElicitPolicy::Decline,
        };
        let sample = match &flags.sample {
            Some(OnSample::Mock) => SamplePolicy::Mock,
            Some(OnSample::Text(t)) => SamplePolicy::Text(t.clone()),
            Some(OnSample::Decline) | None => SamplePolicy::Decline,
        };
        let policy = Policy {
            elicit,
            sample,
            roots: flags.roots.iter().map(Root::new).collect(),
        };
        // The policy answers all three; the client declares only what was asked for.
        let wanted = [
            ("elicitation", flags.elicit.is_some()),
            ("sampling", flags.sample.is_some()),
            ("roots", !flags.roots.is_empty()),
        ];
        let capabilities = policy
            .capabilities()
            .into_iter()
            .filter(|(k, _)| wanted.iter().any(|(w, on)| *on && w == k))
            .collect();
        Some(Answerer {
            policy,
            prompt: flags.elicit == Some(OnElicit::Ask),
            capabilities,
        })
    }

    /// The answerer of `mcpg loop` and `mcpg eval`: it declares what the page
    /// declares (sampling, elicitation in both modes, roots), so a run's `--share`
    /// link or saved session replays in the page request for request; what no flag
    /// sets is declined (elicitation, sampling) or an empty list (roots).
    pub fn like_the_page(flags: &Answering) -> Answerer {
        let mut a = Answerer::new(flags).unwrap_or_else(|| Answerer {
            policy: Policy {
                elicit: ElicitPolicy::Decline,
                sample: SamplePolicy::Decline,
                roots: Vec::new(),
            },
            prompt: false,
            capabilities: JsonObject::new(),
        });
        a.capabilities = a.policy.capabilities();
        a
    }

    /// The client capabilities to declare.
    pub fn capabilities(&self) -> &JsonObject {
        &self.capabilities
    }

    /// The answer to one ask: the terminal's for an elicitation under `ask`,
    /// else the policy's. Printed to stderr with the ask.
    pub fn answer(&self, ask: &Ask) -> Reply {
        eprintln!("{}", show::ask(ask));
        let reply = match ask {
            // A person may take a while: the runtime moves its other work off
            // this thread meanwhile (this runs in the driver's loop or a command).
            Ask::Elicit(e) if self.prompt => during_blocking(|| elicit_at_terminal(e)),
            _ => self.policy.answer(ask),
        };
        eprintln!("{}", show::reply(&reply));
        reply
    }

    /// A classic server request's JSON-RPC answer; an unreadable one is `-32602`.
    pub fn respond(&self, method: &str, params: Option<&Value>) -> Result<Value, RpcError> {
        match asks::parse(method, params) {
            Ok(ask) => self.answer(&ask).to_result(),
            Err(e) => {
                eprintln!(
                    "server asks ({}): unreadable, answered -32602: {}",
                    crate::escape::line(method),
                    crate::escape::line(&e.to_string())
                );
                Err(e.to_rpc_error())
            }
        }
    }

    /// The driver's handler for classic server requests.
    pub fn handler(self: &Arc<Self>) -> RequestHandler {
        let me = Arc::clone(self);
        Box::new(move |method, params| me.respond(method, params))
    }

    /// The `inputResponses` for an `input_required` result: every request the
    /// answerer can read, answered; an unreadable one is named and left out.
    pub fn input_responses(&self, input_required: &Value) -> JsonObject {
        let mut replies = Vec::new();
        for (key, ask) in asks::input_requests(input_required) {
            match ask {
                Ok(ask) => replies.push((key, self.answer(&ask))),
                Err(e) => eprintln!(
                    "server asks (input request {}): unreadable, left unanswered: {}",
                    crate::escape::line(&key),
                    crate::escape::line(&e.to_string())
                ),
            }
        }
        asks::input_responses(&replies)
    }
}

/// Runs `f`, which may wait for a person, without starving the runtime.
fn during_blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// `--on-elicit ask`: the dialogue on stdin, written to stderr (stdout is the
/// command's output). A terminal that fails mid-dialogue cancels.
fn elicit_at_terminal(e: &asks::ElicitAsk) -> Reply {
    if !std::io::stdin().is_terminal() {
        return Reply::Elicited(ElicitAction::Cancel);
    }
    let stdin = std::io::stdin();
    let mut prompter = Prompter::new(stdin.lock(), std::io::stderr());
    let choice = match &e.mode {
        ElicitMode::Url { url, domain, .. } => prompter.url(&e.message, url, domain),
        ElicitMode::Form { requested_schema } => {
            let fields = asks::elicit_fields(requested_schema);
            let defaults = asks::elicit_defaults(requested_schema);
            let values = mcpg_host::form::initial_values(&fields, Some(&defaults));
            prompter.form(&e.message, &fields, values, |v| {
                asks::elicit_content(requested_schema, &fields, v)
            })
        }
    };
    Reply::Elicited(match choice {
        Ok(Choice::Accept(content)) => ElicitAction::Accept(content),
        Ok(Choice::Decline) => ElicitAction::Decline,
        Ok(Choice::Cancel) | Err(_) => ElicitAction::Cancel,
    })
}
