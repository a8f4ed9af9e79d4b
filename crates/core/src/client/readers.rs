//! Who reads the answers to the resource, prompt and completion requests.
//!
//! A client made with [`Client::new`] reads them itself. The page makes its client
//! with [`Client::without_feature_readers`] and hands the readers in later: its first
//! load (before the first tool list) has no code that asks for resources, prompts or
//! completions, and the readers and the typed views they build (resources, templates,
//! prompts, prompt messages, completions, with their checks) would otherwise be in
//! that first load anyway, because the dispatch refers to them. A reader is a plain
//! function pointer, so the code is linked only where [`FeatureReaders::ALL`] is named.

use serde_json::Value;

use super::answers::ListKind;
use super::{Ask, Client, Failure, OpError, Pending};
use crate::jsonrpc::Message;
use crate::time::Timestamp;

/// A catalog page's reader (`resources/list`, `resources/templates/list`, `prompts/list`).
type CatalogPage = fn(&mut Client, Timestamp, Pending, ListKind, &Message, &Value);
/// A typed answer's reader (`resources/read`, `prompts/get`, `completion/complete`, …).
type AnswerReader = fn(&mut Client, &Pending, &Ask, &Message, &Value);

/// The readers of the resource, prompt and completion answers, handed to a client
/// made without them ([`Client::set_feature_readers`]).
#[derive(Clone, Copy)]
pub struct FeatureReaders {
    pub(super) catalog_page: CatalogPage,
    pub(super) answer: AnswerReader,
}

impl FeatureReaders {
    /// Every reader: what [`Client::new`] has.
    pub const ALL: FeatureReaders = FeatureReaders {
        catalog_page: Client::on_catalog_page,
        answer: Client::on_answer,
    };
}

impl std::fmt::Debug for FeatureReaders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FeatureReaders")
    }
}

/// Why an answer went unread: the client was made without its readers.
const NO_READERS: &str = "this client reads no resource, prompt or completion answers \
    yet (made without its feature readers)";

impl Client {
    /// A new, unconnected client that cannot read resource, prompt and completion
    /// answers until [`Client::set_feature_readers`]: such an answer ends its
    /// operation as a failure. Everything else works as with [`Client::new`].
    pub fn without_feature_readers(cfg: super::ClientConfig) -> Self {
        Client::new_bare(cfg)
    }

    /// Hands in the readers of resource, prompt and completion answers.
    pub fn set_feature_readers(&mut self, readers: FeatureReaders) {
        self.readers = Some(readers);
    }

    /// Whether this client reads resource, prompt and completion answers.
    pub fn has_feature_readers(&self) -> bool {
        self.readers.is_some()
    }

    /// Ends an operation whose answer has no reader, as a failure that says so.
    pub(super) fn unread(&mut self, p: Pending, msg: &Message) {
        let failure = OpError::Failed(Failure::Malformed(NO_READERS.to_owned()));
        self.finish(p.op, &p.what, Some(msg.clone()), Err(failure));
    }
}
