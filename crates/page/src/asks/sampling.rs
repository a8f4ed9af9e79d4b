//! The driver's half of a sampling request answered by a real model: one request,
//! only on the learner's click, without the key; its reply becomes a draft that the
//! learner still approves, edits or rejects.

use crate::asks::AskState;
use crate::driver::PageDriver;
use crate::input::ModelReply;
use crate::output::{ModelRequest, Output};

impl PageDriver {
    /// Asks the loop's real model (provider and settings) to answer question `id`,
    /// with the request as the learner edited it (`asked`) if they did.
    pub(crate) fn sample_with_model(&mut self, id: u64, asked: Option<serde_json::Value>) {
        let Some(engine) = self.engine.map(|e| e.0) else {
            self.notice("the model's code is not loaded yet: try again in a moment");
            return;
        };
        let (provider, settings) = self.llm_settings();
        let Some(a) = self
            .asks
            .list
            .iter_mut()
            .find(|a| a.id == id && a.state == AskState::Waiting && !a.model_busy)
        else {
            return;
        };
        let params = asked.unwrap_or_else(|| a.params.clone());
        match engine.sample(provider, &settings, &params) {
            Ok(asked) => {
                a.model_busy = true;
                a.draft = None;
                a.model_request = Some(format!("POST {}\n\n{}", asked.url, pretty(&asked.body)));
                self.output(Output::ModelRequest(ModelRequest {
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
        self.show_asks();
    }

    /// The real model's reply to question `ask`: a draft for the learner.
    pub(crate) fn model_sampled(&mut self, ask: u64, reply: &ModelReply) {
        let provider = self.provider;
        let (Some(engine), Some(a)) = (
            self.engine.map(|e| e.0),
            self.asks.list.iter_mut().find(|a| a.id == ask),
        ) else {
            return;
        };
        if !a.model_busy {
            return;
        }
        a.model_busy = false;
        a.draft = Some(match reply {
            ModelReply::Http { status, body } => engine.sampled(provider, &a.params, *status, body),
            ModelReply::Unreachable { detail, .. } => {
                Err(format!("the model could not be reached: {detail}"))
            }
        });
        self.show_asks();
    }
}

/// The body re-indented for display (verbatim if it is not JSON).
fn pretty(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| body.to_owned())
}
