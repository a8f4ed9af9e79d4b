//! What the Resources, Prompts and Logs panels show, as changes the shell applies
//! in the same one place as the loop's ([`crate::ViewChange::Feature`]).

use std::sync::Arc;

use mcpg_core::model::{
    CompleteResult, CompletionReference, GetPromptResult, JsonObject, LoggingLevel, Prompt,
    ReadResourceResult, Resource, ResourceTemplate,
};

/// One page of a paged listing, as received.
#[derive(Clone, Debug, PartialEq)]
pub struct ListPage<T> {
    /// Page number, from 1.
    pub page: u32,
    /// Its items.
    pub items: Vec<T>,
    /// Its cursor for the next page.
    pub next_cursor: Option<String>,
}

/// Where a listing stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ListState {
    /// Not asked yet.
    #[default]
    Idle,
    /// Pages are coming.
    Listing,
    /// Every page arrived.
    Done,
    /// It stopped, with why (the pages received are kept).
    Failed(String),
    /// The server does not declare the capability, so the page does not ask.
    Undeclared(String),
}

/// A paged listing: resources, templates or prompts.
#[derive(Clone, Debug, PartialEq)]
pub struct ListView<T> {
    /// Every page received.
    pub pages: Vec<ListPage<T>>,
    /// Where it stands.
    pub state: ListState,
}

impl<T> Default for ListView<T> {
    fn default() -> Self {
        ListView {
            pages: Vec::new(),
            state: ListState::Idle,
        }
    }
}

/// How a request of these panels ended: its result, or why there is none.
pub type Outcome<T> = Option<Result<T, String>>;

/// One `resources/read` and its exchange.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadView {
    /// The URI read.
    pub uri: String,
    /// Asked from a `resource_link` in a tool result (the **Read it** action).
    pub from_link: bool,
    /// The request as sent.
    pub request: Option<Arc<str>>,
    /// The response as received.
    pub response: Option<Arc<str>>,
    /// `None` while it runs.
    pub outcome: Outcome<ReadResourceResult>,
    /// How many `notifications/resources/updated` for this URI made the page read it
    /// again.
    pub updates: u32,
}

/// The suggestions `completion/complete` gave for one argument.
#[derive(Clone, Debug, PartialEq)]
pub struct CompletionView {
    /// The prompt or template completed.
    pub reference: CompletionReference,
    /// The argument's name.
    pub argument: String,
    /// The value typed so far.
    pub value: String,
    /// `None` while it runs.
    pub outcome: Outcome<CompleteResult>,
}

/// One `prompts/get` and what it returned.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptView {
    /// The prompt's name.
    pub name: String,
    /// The arguments sent.
    pub arguments: JsonObject,
    /// The response as received.
    pub response: Option<Arc<str>>,
    /// `None` while it runs.
    pub outcome: Outcome<GetPromptResult>,
}

/// Whether the page is subscribed to one resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubState {
    /// Sent, not answered yet.
    Pending,
    /// The server accepted it.
    On,
    /// It failed, with why.
    Failed(String),
}

/// One subscription and the updates it brought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubView {
    /// The resource.
    pub uri: String,
    /// Where it stands.
    pub state: SubState,
    /// `notifications/resources/updated` received for it.
    pub updates: u32,
    /// When the latest arrived (ms since the connection started).
    pub last_ms: Option<u64>,
}

/// One `notifications/message`.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    /// Arrival order, from 1 (kept across the bound).
    pub seq: u64,
    /// Milliseconds since the connection started.
    pub at_ms: u64,
    /// Its level.
    pub level: LoggingLevel,
    /// `logger`, if given.
    pub logger: Option<String>,
    /// `data`: a string as it is, anything else as compact JSON (shown as text).
    pub data: String,
}

/// The log level the page asked for, and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelView {
    /// The level chosen (`None`: never set: the server picks).
    pub level: Option<LoggingLevel>,
    /// How it reached the server, in words (a `logging/setLevel` answered, or stamped
    /// on each request's `_meta` under 2026-07-28), or why it did not.
    pub status: String,
}

/// The Skills panel: the server's skills, their files and whether each verified.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkillsView {
    /// Where the listing stands.
    pub state: ListState,
    /// Every entry listed, in order.
    pub skills: Vec<SkillView>,
}

/// One skill entry.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillView {
    /// Its name (the last segment of its path), or the entry's URI when invalid.
    pub name: String,
    /// Its description (frontmatter).
    pub description: String,
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// Why a host must not load it (an invalid entry), if so.
    pub invalid: Option<String>,
    /// Its files (none for an invalid entry, or a `dynamic` one).
    pub files: Vec<SkillFileView>,
    /// Its `SKILL.md`, once read and verified.
    pub instructions: Option<String>,
    /// Whether the next loops tell the model its instructions.
    pub used: bool,
}

/// One file of a skill and its check.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillFileView {
    /// Its path inside the skill (`SKILL.md`, `references/cities.md`).
    pub path: String,
    /// Its resource URI.
    pub uri: String,
    /// Its size in bytes, as listed.
    pub size: u64,
    /// Its SHA-256 as listed, in hex.
    pub digest: String,
    /// Whether it was read and matched.
    pub check: FileCheck,
}

/// Where a skill file's check stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum FileCheck {
    /// Not read yet.
    #[default]
    Unread,
    /// Being read.
    Reading,
    /// Read; its size and digest match.
    Verified,
    /// Read, and not used: why (a wrong size or digest, a failed read).
    Refused(String),
}

/// One change of what the Resources, Prompts and Logs panels show.
#[derive(Clone, Debug, PartialEq)]
pub enum FeatureChange {
    /// `resources/list`.
    Resources(ListView<Resource>),
    /// `resources/templates/list`.
    Templates(ListView<ResourceTemplate>),
    /// `prompts/list`.
    Prompts(ListView<Prompt>),
    /// The latest `resources/read` (`None`: nothing read on this connection).
    Read(Option<Box<ReadView>>),
    /// The latest completion (`None`: none asked).
    Completion(Option<Box<CompletionView>>),
    /// The latest `prompts/get`.
    Prompt(Option<Box<PromptView>>),
    /// Every subscription.
    Subscriptions(Vec<SubView>),
    /// The log level.
    Level(LevelView),
    /// The newest log messages (at most [`crate::features::LOG_MESSAGES`]).
    Logs(Vec<LogEntry>),
    /// Show the Resources panel (the learner clicked **Read it** elsewhere).
    ShowResources,
    /// The Skills panel.
    Skills(Box<SkillsView>),
}
