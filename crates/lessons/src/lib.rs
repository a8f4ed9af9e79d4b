//! The lesson track: a static table of lessons the page walks a learner through.
//!
//! The track is data. Each [`Lesson`] names its setup (server, example message,
//! who answers for the model, the model API format), what to notice (a step 1–6
//! and a JSON field of what that step shows), what the learner must make happen
//! ([`Need`]s the page watches for), and a short [`Check`] the learner answers
//! in the page once they have. Adding a lesson is adding an entry to [`LESSONS`] (see
//! `track/`); the tests run every lesson's loop against the embedded demo server
//! and the host, and fail when a pointer names a field the step does not show.
//!
//! Like the core, this crate does no I/O and reads no clock: progress is read
//! from and written to a string the page keeps (see [`progress`]).

mod check;
pub mod hash;
mod need;
mod order;
mod path;
pub mod progress;
mod track;

pub use check::{Check, Choice, Verdict, normalize};
pub use mcpg_auth::Step as AuthStep;
pub use mcpg_core::version::ProtocolVersion;
pub use mcpg_host::provider::Provider;
pub use mcpg_loop_data::Pitfall;
pub use need::{Need, Sign, TransportKind, Watch};
pub use order::shuffled;
pub use path::at;
pub use track::LESSONS;

/// Where the lesson's MCP server comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    /// The demo server embedded in the page (no bridge, no network).
    Demo,
    /// The same demo behind OAuth: a protected resource and its authorization
    /// server, both played inside the page over HTTP (`mcpg_demo_auth`), so the
    /// sign-in runs with no network.
    OAuthDemo,
    /// The same demo over the deprecated HTTP+SSE transport (2024-11-05), played
    /// inside the page (`mcpg_demo_sse`), which also serves it over Streamable HTTP
    /// for the lesson to compare.
    SseDemo,
}

/// Who answers for the model in a lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// The deterministic mock model.
    Mock,
    /// The learner plays the model.
    Play,
}

/// What a lesson sets up in the page when it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The MCP server.
    pub server: Server,
    /// The learner's message (one of the page's example chips, or close to one).
    pub prompt: &'static str,
    /// Who answers for the model.
    pub model: Model,
    /// The model API format the host speaks in steps 2, 3 and 6.
    pub provider: Provider,
    /// The protocol revision the page pins (`None`: Auto, which is 2026-07-28 with
    /// the demo). The lessons on classic server requests pin 2025-11-25.
    pub revision: Option<ProtocolVersion>,
}

/// One thing to notice: a field of what one step shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pointer {
    /// The step, 1 to 6.
    pub step: u8,
    /// A path into the step's JSON: members by name, array items as `[i]`
    /// (`result.isError`, `params._meta.progressToken`, `[20].function.name`).
    pub field: &'static str,
    /// What it shows, in one sentence.
    pub note: &'static str,
    /// A message to run first when it is not the lesson's own (the page offers
    /// it as a button); `None`: the lesson's message.
    pub prompt: Option<&'static str>,
}

/// One lesson of the track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lesson {
    /// Stable name, used in `#lesson=NAME` and in stored progress.
    pub slug: &'static str,
    /// Short title.
    pub title: &'static str,
    /// The goal, in one sentence.
    pub goal: &'static str,
    /// What the page is set to when the lesson opens.
    pub setup: Setup,
    /// What to do, in one or two sentences.
    pub task: &'static str,
    /// What to notice, in order.
    pub notice: &'static [Pointer],
    /// The mistakes the lesson's host switch turns on (empty: no switch). The
    /// lesson breaks the loop with them, then fixes it with the careful host.
    pub pitfalls: &'static [Pitfall],
    /// What the learner makes happen before the question opens: the page watches
    /// for each (see [`Watch`]).
    pub needs: &'static [Need],
    /// The check the learner answers once every need is seen.
    pub check: Check,
}

/// The lesson named `slug`, with its index in [`LESSONS`].
pub fn find(slug: &str) -> Option<(usize, &'static Lesson)> {
    LESSONS
        .iter()
        .copied()
        .enumerate()
        .find(|(_, l)| l.slug == slug)
}
