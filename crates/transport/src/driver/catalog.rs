//! What the resource, prompt, completion and logging operations return: paged
//! listings, typed answers with their raw response, and the server's updates.

use mcpg_core::client::{Answer, ListItems};
use mcpg_core::jsonrpc::Message;
use mcpg_core::model::{LogMessage, Prompt, Resource, ResourceTemplate};

/// Every item of a listing (`tools/list`, `resources/list`,
/// `resources/templates/list`, `prompts/list`), page by page.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing<T> {
    /// The items of each page, in order (page boundaries as the server chose them).
    pub pages: Vec<Vec<T>>,
    /// The raw response of each page.
    pub responses: Vec<Message>,
}

impl<T> Default for Listing<T> {
    fn default() -> Self {
        Listing {
            pages: Vec::new(),
            responses: Vec::new(),
        }
    }
}

impl<T> Listing<T> {
    /// All items, in order.
    pub fn items(&self) -> impl Iterator<Item = &T> {
        self.pages.iter().flatten()
    }

    /// How many items in all.
    pub fn len(&self) -> usize {
        self.pages.iter().map(Vec::len).sum()
    }

    /// Whether the server listed nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The pages of one listing as the loop collects them, before they are typed.
#[derive(Default)]
pub(crate) struct Pages {
    pub items: Vec<ListItems>,
    pub responses: Vec<Message>,
}

impl Pages {
    /// The pages whose items `pick` recognises (the loop only files pages of the
    /// kind it asked for, so nothing is dropped in practice).
    pub fn typed<T>(self, pick: impl Fn(ListItems) -> Option<Vec<T>>) -> Listing<T> {
        Listing {
            pages: self.items.into_iter().filter_map(pick).collect(),
            responses: self.responses,
        }
    }
}

/// Picks `resources/list` pages.
pub(crate) fn resources(items: ListItems) -> Option<Vec<Resource>> {
    match items {
        ListItems::Resources(v) => Some(v),
        _ => None,
    }
}

/// Picks `resources/templates/list` pages.
pub(crate) fn templates(items: ListItems) -> Option<Vec<ResourceTemplate>> {
    match items {
        ListItems::Templates(v) => Some(v),
        _ => None,
    }
}

/// Picks `prompts/list` pages.
pub(crate) fn prompts(items: ListItems) -> Option<Vec<Prompt>> {
    match items {
        ListItems::Prompts(v) => Some(v),
        _ => None,
    }
}

/// How a read, a prompt, a completion, a subscription change or a level change
/// was answered.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerReport {
    /// The typed answer (`Answer::InputRequired` when a 2026-07-28 server asks
    /// for input first).
    pub answer: Answer,
    /// The response message as received (none for a level that is only stamped
    /// on later requests, or a subscription acknowledged by notification).
    pub response: Option<Message>,
}

/// Something the server told the client on its own, for [`crate::Driver::updates`].
#[derive(Clone, Debug, PartialEq)]
pub enum Update {
    /// `notifications/resources/updated`: a subscribed resource changed.
    ResourceUpdated {
        /// The resource.
        uri: String,
    },
    /// `notifications/resources/list_changed`.
    ResourcesListChanged,
    /// `notifications/prompts/list_changed`.
    PromptsListChanged,
    /// `notifications/message`: a log message (boxed: it is much larger than the rest).
    Log(Box<LogMessage>),
}
