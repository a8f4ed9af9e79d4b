//! The typed payloads of the resource, prompt, completion and logging events:
//! which list a page belongs to, its items, and how a single request was answered.

use serde_json::Value;

use crate::model::{CompleteResult, GetPromptResult, Prompt, ReadResourceResult};
use crate::model::{Resource, ResourceTemplate};

/// Which paged list an [`crate::client::Event::ListPage`] belongs to. (`tools/list`
/// keeps its own events, `ToolsPage` and friends.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// `resources/list`.
    Resources,
    /// `resources/templates/list`.
    Templates,
    /// `prompts/list`.
    Prompts,
}

impl ListKind {
    /// The JSON-RPC method.
    pub fn method(self) -> &'static str {
        match self {
            ListKind::Resources => "resources/list",
            ListKind::Templates => "resources/templates/list",
            ListKind::Prompts => "prompts/list",
        }
    }

    /// The result member that holds the page's items.
    pub fn member(self) -> &'static str {
        match self {
            ListKind::Resources => "resources",
            ListKind::Templates => "resourceTemplates",
            ListKind::Prompts => "prompts",
        }
    }
}

/// The readable items of one page, in the server's order.
#[derive(Clone, Debug, PartialEq)]
pub enum ListItems {
    /// A `resources/list` page.
    Resources(Vec<Resource>),
    /// A `resources/templates/list` page.
    Templates(Vec<ResourceTemplate>),
    /// A `prompts/list` page.
    Prompts(Vec<Prompt>),
}

impl ListItems {
    /// How many items.
    pub fn len(&self) -> usize {
        match self {
            ListItems::Resources(v) => v.len(),
            ListItems::Templates(v) => v.len(),
            ListItems::Prompts(v) => v.len(),
        }
    }

    /// Whether the page had no readable item.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A successful answer to `resources/read`, `prompts/get`, `completion/complete`,
/// `resources/subscribe` / `unsubscribe` or `logging/setLevel`.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// `resources/read`.
    Read(ReadResourceResult),
    /// `prompts/get`.
    Prompt(GetPromptResult),
    /// `completion/complete`.
    Completion(CompleteResult),
    /// A request whose result carries nothing (subscribe, unsubscribe, setLevel),
    /// or, under 2026-07-28, a subscription change the server acknowledged.
    Done,
    /// 2026-07-28 `InputRequiredResult` to `resources/read` or `prompts/get` (the
    /// raw result): continue with [`crate::client::Client::continue_call`]; the
    /// same operation then ends in another `Answered`.
    InputRequired(Value),
}
