//! The driver's half of a sampling request answered by a real model: one request,
//! only on the learner's click, without the key; its reply becomes a draft that the
//! learner still approves, edits or rejects.

use mcpg_page::{AskState, ModelReply, ModelRequest, Output, Page};

use crate::model_http::{sampled, sampling_http};
use crate::parts::LoopParts;

impl LoopParts {
    /// Asks the loop's real model (provider and settings) to answer question `id`,
    /// with the request as the learner edited it (`asked`) if they did.
    pub(crate) fn sample_with_model(
        &mut self,
        page: &mut Page,
        id: u64,
        asked: Option<serde_json::Value>,
    ) {
        let (provider, settings) = self.llm_settings(page);
        let Some(a) = self
            .asks
            .list
            .iter_mut()
            .find(|a| a.id == id && a.state == AskState::Waiting && !a.model_busy)
        else {
            return;
        };
        let params = asked.unwrap_or_else(|| a.params.clone());
        match sampling_http(provider, &settings, &params) {
            Ok(asked) => {
                a.model_busy = true;
                a.draft = None;
                a.model_request = Some(format!("POST {}\n\n{}", asked.url, pretty(&asked.body)));
                page.output(Output::ModelRequest(ModelRequest {
                    loop_id: self.loop_id,
                    ask: Some(id),
                    provider,
                    url: asked.url,
                    headers: asked.headers,
                    key_header: asked.key_header,
                    body: asked.body,
                }));
            }
            Err(why) => a.draft = Some(Err(why)),
        }
        self.show_asks(page);
    }

    /// The real model's reply to question `ask`: a draft for the learner.
    pub(crate) fn model_sampled(&mut self, page: &mut Page, ask: u64, reply: &ModelReply) {
        let provider = page.provider;
        let Some(a) = self.asks.list.iter_mut().find(|a| a.id == ask) else {
            return;
        };
        if !a.model_busy {
            return;
        }
        a.model_busy = false;
        a.draft = Some(match reply {
            ModelReply::Http { status, body } => sampled(provider, &a.params, *status, body),
            ModelReply::Unreachable { detail, .. } => {
                Err(format!("the model could not be reached: {detail}"))
            }
        });
        self.show_asks(page);
    }
}

/// The body re-indented for display (verbatim if it is not JSON).
fn pretty(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| body.to_owned())
}
