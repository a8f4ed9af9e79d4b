//! What the learner and the shell ask of the driver ([`Command`]), and the names
//! and replies that go with it, apart from [`crate::Input`] so that the later
//! parts' work ([`crate::Later`]) can name them without naming the driver's input.

use mcpg_core::model::JsonObject;
use mcpg_loop_data::{Pitfalls, Provider};
use serde_json::Value;

use crate::settings::{LlmSettings, ModelChoice, Pin};
use crate::view::Source;

/// Names one connection (one `Connect`): inputs of an older one are recognised.
pub type ConnId = u64;

/// Names one run of the tool loop: a model reply for an older loop is recognised.
pub type LoopId = u64;

/// A real model's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelReply {
    /// An HTTP answer: status and body.
    Http {
        /// HTTP status.
        status: u16,
        /// Body text.
        body: String,
    },
    /// No HTTP answer at all.
    Unreachable {
        /// The browser's words.
        detail: String,
        /// The page's origin (for the advice about allowed origins).
        origin: String,
    },
}

/// What the learner asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Connect to `source`, replacing the current connection (and ending a replay).
    Connect(Source),
    /// Step mode: perform the loop's next step (starting a loop if none is running).
    Step,
    /// Run mode: run the loop to its end, paced by [`crate::RUN_PACE`].
    Run,
    /// Leave run mode after the current step.
    Pause,
    /// Forget the loop (a reply for it arriving later is recognised and ignored).
    Reset,
    /// Cancel the call in flight.
    Cancel,
    /// List the tools again (Tools panel).
    ListTools,
    /// The learner plays the model: this call is step 3.
    PlayCall {
        /// Tool name.
        name: String,
        /// Its arguments.
        arguments: JsonObject,
    },
    /// The learner plays the model: these words are its answer (step 3 or 6).
    PlayAnswer(String),
    /// The learner's message changed.
    SetPrompt(String),
    /// The model script changed (already validated by the editor).
    SetScript(Vec<Value>),
    /// The model API format changed.
    SetProvider(Provider),
    /// The host's mistakes changed (none: the careful host). A loop under way keeps
    /// the ones it started with; the next loop takes these.
    SetPitfalls(Pitfalls),
    /// Who answers for the model changed.
    SetModel(ModelChoice),
    /// A real model's base URL and name changed for `provider`.
    SetLlm {
        /// The provider.
        provider: Provider,
        /// The new settings.
        settings: LlmSettings,
    },
    /// The key for `provider` changed: only its masked form (`mask_key`) comes in,
    /// to show in step 3's request; `None` when there is no key.
    SetKeyHint {
        /// The provider.
        provider: Provider,
        /// The masked key.
        masked: Option<String>,
    },
    /// Pin a protocol revision (or go back to auto); reconnects a live connection.
    Pin(Pin),
    /// Replay a shared session (decoded from a link or a file by the shell).
    OpenShared {
        /// The session.
        session: Box<mcpg_recording::Recording>,
        /// "link" or "file", for messages.
        from: String,
    },
    /// Leave the replay and connect for real to the same kind of server.
    RunLive,
    /// Show a notice the shell worked out (e.g. a link it could not decode).
    ShowNotice(String),
    /// Hide the notice.
    DismissNotice,
    /// Empty the wire log.
    ClearLog,
    /// List the tools this many times in a row (the scale test's way to fill the log).
    ListToolsTimes(u32),
    /// Something for the Resources, Prompts or Logs panel.
    Feature(crate::features::command::FeatureCommand),
    /// The learner answers a question from the server (or edits the roots).
    Ask(crate::asks::AskCommand),
    /// Authorization for the HTTP link: resume (the shell has a token) or give up.
    Auth(crate::auth::AuthCommand),
    /// A hosted MCP App's frame said something, or the learner answered it.
    App(crate::apps::AppCommand),
}
