//! "The server asks": requests the server sends the host while a call waits
//! (`sampling/createMessage`, `elicitation/create`, `roots/list`) and the
//! 2026-07-28 `inputRequests` of an `input_required` result, held until the
//! learner answers each one. These are the types the view and the commands name;
//! the later parts (`mcpg-page-later`) keep the questions and read them with
//! `mcpg_host::asks`, so none of that code is in the first load.
//!
//! Nothing here opens a URL or calls a model by itself: a URL goes out as
//! [`crate::Output::OpenUrl`] only on [`AskCommand::OpenUrl`], the learner's click.

use mcpg_core::Timestamp;
use mcpg_core::client::OpId;
use mcpg_core::jsonrpc::RequestId;
use mcpg_loop_data::{Reply, Root, Sampled};
use serde_json::Value;

/// Where an answer goes back.
#[derive(Clone, Debug, PartialEq)]
pub enum AskKey {
    /// A JSON-RPC request from the server (2025-11-25 and earlier): a response.
    Request(RequestId),
    /// One entry of an `InputRequiredResult`'s `inputRequests` (2026-07-28): an
    /// entry of `inputResponses` when the call is retried.
    Input {
        /// The call that asked.
        op: OpId,
        /// The key in `inputRequests`.
        key: String,
    },
    /// One URL of a `-32042` "URL elicitation required" error: nothing goes back;
    /// the learner opens it, then runs the call again.
    Required,
}

/// Where one question stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AskState {
    /// Waiting for the learner.
    Waiting,
    /// Answered (the JSON sent, pretty).
    Answered(String),
    /// Answered with an error (sampling rejected), its message.
    Refused(String),
    /// The core answered with an error at its deadline: the learner was too slow.
    TimedOut,
    /// The call it belonged to ended, or the connection closed, first.
    Gone,
}

/// Where the page shows a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskPlace {
    /// Asked outside any call of the loop (e.g. `roots/list` right after
    /// connecting, or during a call from the Tools panel): in the questions section.
    Connection,
    /// Asked while the current loop's call waited: nested in that step 4, whose
    /// index in the loop's steps this is; it stays there after the call ends.
    Step(usize),
    /// Asked during an earlier loop's call: its steps are gone, and so is it.
    Earlier,
}

/// One question from the server, as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct AskView {
    /// The page's own number for it (commands name it).
    pub id: u64,
    /// `sampling/createMessage`, `elicitation/create` or `roots/list`.
    pub method: String,
    /// The params exactly as sent (`Null` when there were none).
    pub params: Value,
    /// A request (classic) or an input request (MRTR), with its key.
    pub key: AskKey,
    /// Where it stands.
    pub state: AskState,
    /// When the core answers for the host (classic requests only).
    pub deadline: Option<Timestamp>,
    /// The learner opened its URL (URL elicitation).
    pub opened: bool,
    /// The server said the URL elicitation is complete
    /// (`notifications/elicitation/complete`).
    pub completed: bool,
    /// The `requestState` the call is retried with (MRTR), as sent by the server.
    pub request_state: Option<Value>,
    /// The request sent to a real model for this sampling request (URL and body,
    /// no key), once the learner asked for it.
    pub model_request: Option<String>,
    /// A real model's reply, waiting for the learner's approval (or why there is none).
    pub draft: Option<Result<Sampled, String>>,
    /// A real model is writing the reply.
    pub model_busy: bool,
    /// Where the page shows it (set by the driver each time it shows the list).
    pub place: AskPlace,
    /// The loop (its `LoopId`) and the index of its step 4 whose call it interrupted.
    pub call: Option<(u64, usize)>,
}

impl AskView {
    /// A question just asked, waiting (the driver numbers it).
    pub fn new(method: String, params: Value, key: AskKey) -> AskView {
        AskView {
            id: 0,
            method,
            params,
            key,
            state: AskState::Waiting,
            deadline: None,
            opened: false,
            completed: false,
            request_state: None,
            model_request: None,
            draft: None,
            model_busy: false,
            place: AskPlace::Connection,
            call: None,
        }
    }
}

/// What the learner does with a question.
#[derive(Clone, Debug, PartialEq)]
pub enum AskCommand {
    /// Send this answer ([`Reply::to_result`]: the exact result, or the spec's
    /// error for a rejected sampling request, code -1). For an MRTR question it is
    /// kept until every question of the call is answered, then the call is retried
    /// with them (`mcpg_host::asks::input_responses`: a rejection is left out).
    Answer {
        /// Which question.
        id: u64,
        /// The learner's answer.
        reply: Reply,
    },
    /// Open the URL of a URL elicitation: the shell opens it in a new tab.
    OpenUrl {
        /// Which question.
        id: u64,
    },
    /// Ask the real model chosen for the loop (provider and settings) to write the
    /// reply to sampling request `id`; its reply comes back as a draft to approve.
    SampleWithModel {
        /// Which question.
        id: u64,
        /// The request's params as the learner edited them
        /// (`mcpg_host::asks::edited_params`; `None`: as the server sent them).
        /// The model is asked the edited request; the server's is kept as sent.
        asked: Option<Value>,
    },
    /// The learner's roots changed: the server is told (`notifications/roots/list_changed`).
    SetRoots(Vec<Root>),
}
