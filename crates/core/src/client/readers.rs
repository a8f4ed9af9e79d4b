//! Who reads the answers to tool calls and to the resource, prompt and completion
//! requests.
//!
//! A client made with [`Client::new`] reads them itself. The page makes its client
//! with [`Client::without_answer_readers`] and hands the readers in later: its first
//! load (before the first tool list) has no code that calls a tool or asks for
//! resources, prompts or completions, sends a raw request, nor answers a server's
//! request, and the readers
//! (with the handling of the server's requests and notifications) and the typed views they build
//! (call results and their checks against the tool's output schema, resources,
//! templates, prompts, prompt messages, completions) would otherwise be in that first
//! load anyway, because the dispatch refers to them. A reader is a plain function
//! pointer, so the code is linked only where [`AnswerReaders::ALL`] is named.

use serde_json::Value;

use super::answers::ListKind;
use super::task_types::TaskStep;
use super::{Ask, Client, Failure, OpError, OpId, Pending};
use crate::jsonrpc::Message;
use crate::model::JsonObject;
use crate::time::Timestamp;

/// A catalog page's reader (`resources/list`, `resources/templates/list`, `prompts/list`).
type CatalogPage = fn(&mut Client, Timestamp, Pending, ListKind, &Message, &Value);
/// A typed answer's reader (`resources/read`, `prompts/get`, `completion/complete`, …).
type AnswerReader = fn(&mut Client, &Pending, &Ask, &Message, &Value);
/// A `tools/call` result's reader (the tool's name for its output schema).
type CallReader = fn(&mut Client, Timestamp, &Pending, &str, &Message, &Value);
/// The reader of what the server sends unasked: its requests and notifications.
type InboundReader = fn(&mut Client, Timestamp, Message);
/// A raw request's result's reader ([`Client::request`]: its input-required
/// `prompts/get` and `resources/read` results are continued as tool calls are).
type RawReader = fn(&mut Client, &Pending, &Message, &Value);
/// A task request's answer (`tasks/get`, `tasks/result`, `tasks/cancel`,
/// `tasks/update`).
type TaskAnswer = fn(&mut Client, Timestamp, &Pending, TaskStep, &Message, &Value);
/// A task request that ended without an answer, or with a JSON-RPC error.
type TaskError = fn(&mut Client, OpId, TaskStep, Option<Message>, OpError);
/// Time passed: tasks to poll, and tasks past their ttl.
type TaskTimers = fn(&mut Client, Timestamp);
/// The connection closed: every task's call fails.
type CloseTasks = fn(&mut Client, &str);
/// Cancels the task behind a call, when there is one (with the host's reason).
type CancelTask = fn(&mut Client, Timestamp, OpId, &str) -> bool;
/// When the next task needs polling (or expires).
type TaskWake = fn(&Client) -> Option<Timestamp>;
/// The host's answers to an extension task's input requests (`tasks/update`):
/// `None` when the call is no such task.
type TaskInput = fn(&mut Client, Timestamp, OpId, &mut JsonObject) -> Option<bool>;

/// The code that follows a task-augmented call (2025-11-25, and the 2026-07-28
/// Tasks extension), reached only through the readers: a task exists only once a
/// call's reader saw its handle, so a client without readers has none, and the
/// page's first load carries none of it. (The extension's declaration is not
/// here: it follows [`super::ClientConfig::tasks_extension`] alone, in `stamp.rs`,
/// so a request's text does not depend on when the readers came.)
#[derive(Clone, Copy)]
pub(super) struct TaskCode {
    pub(super) answer: TaskAnswer,
    pub(super) error: TaskError,
    pub(super) timers: TaskTimers,
    pub(super) close: CloseTasks,
    pub(super) cancel: CancelTask,
    pub(super) wake: TaskWake,
    pub(super) input: TaskInput,
}

/// The readers of tool call, resource, prompt and completion answers, and of the
/// server's own requests and notifications, handed to a client made without them
/// ([`Client::set_answer_readers`]).
#[derive(Clone, Copy)]
pub struct AnswerReaders {
    pub(super) catalog_page: CatalogPage,
    pub(super) answer: AnswerReader,
    pub(super) call: CallReader,
    pub(super) inbound: InboundReader,
    pub(super) raw: RawReader,
    pub(super) tasks: TaskCode,
}

impl AnswerReaders {
    /// Every reader: what [`Client::new`] has.
    pub const ALL: AnswerReaders = AnswerReaders {
        catalog_page: Client::on_catalog_page,
        answer: Client::on_answer,
        call: Client::on_call_result,
        inbound: Client::read_inbound,
        raw: Client::on_raw_result,
        tasks: TaskCode {
            answer: Client::on_task_answer,
            error: Client::on_task_error,
            timers: Client::task_timers,
            close: Client::close_tasks,
            cancel: Client::cancel_task_because,
            wake: Client::task_wake,
            input: Client::answer_task_input,
        },
    };
}

impl std::fmt::Debug for AnswerReaders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AnswerReaders")
    }
}

/// Why an answer went unread: the client was made without its readers.
const NO_READERS: &str = "this client reads no tool call, resource, prompt or \
    completion answers yet (made without its answer readers)";

impl Client {
    /// A new, unconnected client that cannot read tool call, resource, prompt and
    /// completion answers until [`Client::set_answer_readers`]: such an answer ends its
    /// operation as a failure. Everything else works as with [`Client::new`].
    pub fn without_answer_readers(cfg: super::ClientConfig) -> Self {
        Client::new_bare(cfg)
    }

    /// Hands in the readers of tool call, resource, prompt and completion answers and
    /// of the server's requests and notifications; those that came before are read
    /// now, in the order they came, each with the time it came.
    pub fn set_answer_readers(&mut self, readers: AnswerReaders) {
        self.readers = Some(readers);
        for (at, msg) in std::mem::take(&mut self.held) {
            (readers.inbound)(self, at, msg);
        }
    }

    /// A request or notification of the server: read, or held until the readers
    /// are in (a request's deadline counts from when it came).
    pub(super) fn on_inbound(&mut self, now: Timestamp, msg: Message) {
        self.check_request_phase(&msg);
        if let crate::jsonrpc::Body::Notification { method, params } = msg.body()
            && method == "notifications/subscriptions/acknowledged"
        {
            // The listen stream's own bookkeeping, read at once like a response (the
            // embedded demo sends it at connect, before any reader is in); still
            // surfaced as a plain notification, as `read_inbound` does.
            let (method, params) = (method.clone(), params.clone());
            self.on_acknowledged(params.as_ref(), &msg);
            self.events
                .push_back(super::Event::Notification { method, params });
            return;
        }
        match self.readers {
            Some(r) => (r.inbound)(self, now, msg),
            None => self.held.push((now, msg)),
        }
    }

    /// How many requests and notifications of the server wait for the readers.
    pub fn holds_inbound(&self) -> usize {
        self.held.len()
    }

    /// Whether this client reads tool call, resource, prompt and completion answers.
    pub fn has_answer_readers(&self) -> bool {
        self.readers.is_some()
    }

    /// Ends an operation whose answer has no reader, as a failure that says so.
    pub(super) fn unread(&mut self, p: Pending, msg: &Message) {
        let failure = OpError::Failed(Failure::Malformed(NO_READERS.to_owned()));
        self.finish(p.op, &p.what, Some(msg.clone()), Err(failure));
    }
}
