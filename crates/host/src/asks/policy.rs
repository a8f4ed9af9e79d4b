//! Answering without a person: what the CLI's `--on-elicit` / `--on-sample` /
//! `--root` flags and the conformance client decide, through the same [`Ask`] and
//! [`Reply`] as the page. There is no second filler.

use mcpg_core::model::JsonObject;
use serde_json::Value;

use super::{Ask, ElicitAction, ElicitMode, Reply, Root, Sampled, elicit_defaults, mock_sample};

/// How to answer every ask automatically.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// Elicitations.
    pub elicit: ElicitPolicy,
    /// Sampling requests.
    pub sample: SamplePolicy,
    /// The roots `roots/list` gets.
    pub roots: Vec<Root>,
}

/// How elicitations are answered.
#[derive(Clone, Debug, PartialEq)]
pub enum ElicitPolicy {
    /// Decline every one.
    Decline,
    /// Accept forms with these answers merged over the schema's defaults (an empty
    /// object accepts the defaults); only the schema's own properties are sent.
    /// A URL is never opened without a person, so URL elicitations are declined.
    Answers(JsonObject),
}

/// How sampling requests are answered.
#[derive(Clone, Debug, PartialEq)]
pub enum SamplePolicy {
    /// The deterministic mock ([`mock_sample`]).
    Mock,
    /// Reject each one (the spec's error, code -1).
    Decline,
    /// Answer each one with this text, as model [`super::TYPED_MODEL`].
    Text(String),
}

pub use mcpg_loop_data::client_capabilities;

impl Policy {
    /// The client capabilities this policy answers: [`client_capabilities`].
    pub fn capabilities(&self) -> JsonObject {
        client_capabilities()
    }

    /// The answer to `ask`.
    pub fn answer(&self, ask: &Ask) -> Reply {
        match ask {
            Ask::Roots => Reply::Roots(self.roots.clone()),
            Ask::Sampling(s) => match &self.sample {
                SamplePolicy::Mock => Reply::Sampled(mock_sample(s)),
                SamplePolicy::Decline => Reply::SamplingRejected,
                SamplePolicy::Text(t) => {
                    Reply::Sampled(Sampled::text(t.clone(), super::TYPED_MODEL))
                }
            },
            Ask::Elicit(e) => match (&self.elicit, &e.mode) {
                (ElicitPolicy::Decline, _) | (_, ElicitMode::Url { .. }) => {
                    Reply::Elicited(ElicitAction::Decline)
                }
                (ElicitPolicy::Answers(answers), ElicitMode::Form { requested_schema }) => {
                    let mut content = elicit_defaults(requested_schema);
                    let props = requested_schema
                        .get("properties")
                        .and_then(Value::as_object);
                    for (k, v) in answers {
                        if props.is_none_or(|p| p.contains_key(k)) {
                            content.insert(k.clone(), v.clone());
                        }
                    }
                    Reply::Elicited(ElicitAction::Accept(content))
                }
            },
        }
    }
}
