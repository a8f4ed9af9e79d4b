//! The driver's half of a sampling request answered by a real model: one request,
//! only on the learner's click, without the key; its reply becomes a draft that the
//! learner still approves, edits or rejects.

use crate::asks::AskState;
use crate::driver::PageDriver;
use crate::input::ModelReply;
use crate::output::{ModelRequest, Output};
use serde_json::{Value, json};

impl PageDriver {
    /// Asks the loop's real model (provider and settings) to answer question `id`,
    /// with the learner's edit of the request's last `user` message if there is one.
    pub(crate) fn sample_with_model(&mut self, id: u64, asked: Option<String>) {
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
        let params = match &asked {
            Some(text) => edited_params(&a.params, text),
            None => a.params.clone(),
        };
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

/// `params` with the text of its last `user` message replaced by `text` (the
/// learner's edit), or as sent when it has none. One text block is valid content
/// in every revision (2025-11-25 also allows a list).
fn edited_params(params: &Value, text: &str) -> Value {
    let mut params = params.clone();
    let last_user = params
        .get_mut("messages")
        .and_then(Value::as_array_mut)
        .and_then(|ms| {
            ms.iter_mut()
                .rev()
                .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        });
    if let Some(Value::Object(m)) = last_user {
        m.insert("content".into(), json!({"type": "text", "text": text}));
    }
    params
}

/// The body re-indented for display (verbatim if it is not JSON).
fn pretty(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| body.to_owned())
}

#[cfg(test)]
mod tests {
    use super::edited_params;
    use serde_json::json;

    #[test]
    fn the_edit_replaces_the_last_user_message_only() {
        let params = json!({"messages": [
            {"role": "user", "content": [{"type": "text", "text": "first"}]},
            {"role": "assistant", "content": {"type": "text", "text": "reply"}},
            {"role": "user", "content": [{"type": "text", "text": "second"}, {"type": "text", "text": "more"}]}],
            "maxTokens": 9});
        let edited = edited_params(&params, "changed");
        assert_eq!(edited["messages"][0], params["messages"][0]);
        assert_eq!(edited["messages"][1], params["messages"][1]);
        assert_eq!(
            edited["messages"][2]["content"],
            json!({"type": "text", "text": "changed"})
        );
        assert_eq!(edited["maxTokens"], 9);
    }

    #[test]
    fn a_request_without_a_user_message_is_left_as_sent() {
        let params =
            json!({"messages": [{"role": "assistant", "content": {"type": "text", "text": "x"}}]});
        assert_eq!(edited_params(&params, "changed"), params);
    }
}
