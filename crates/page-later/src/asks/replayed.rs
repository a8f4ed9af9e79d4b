//! A replay answers what the server asks the way the recorded session did: the
//! learner's answers are in the recording (the responses and retries the page
//! sent), so nothing new is stored and every older link replays as before. An
//! answer sent differently would not be found in the recording, and the replay
//! would stop there.

use mcpg_core::client::OpId;
use mcpg_core::jsonrpc::{RequestId, RpcError};
use serde_json::Value;

use mcpg_page::{AskKey, AskState, Page};

use crate::parts::LoopParts;

impl LoopParts {
    /// Answers request `id` as the recording did, when this is a replay and the
    /// recording answered it; `true` when it did.
    pub(crate) fn answer_as_recorded(&mut self, page: &mut Page, id: &RequestId) -> bool {
        let Some(result) = page.replay_link().and_then(|r| r.recorded_answer(id)) else {
            return false;
        };
        let state = recorded_state(&result);
        if !page.client.answer(page.now, id, result) {
            return false;
        }
        let key = AskKey::Request(id.clone());
        if let Some(a) = self.asks.list.iter_mut().rev().find(|a| a.key == key) {
            a.state = state;
        }
        page.note("replay: answered as recorded");
        true
    }

    /// Retries MRTR call `op` with the recorded session's `inputResponses`, when
    /// this is a replay and the recording retried it; `true` when it did.
    pub(crate) fn retry_as_recorded(&mut self, page: &mut Page, op: OpId) -> bool {
        let Some(Value::Object(responses)) = page.replay_link().and_then(|r| r.recorded_retry())
        else {
            return false;
        };
        for a in &mut self.asks.list {
            if let AskKey::Input { op: o, key } = &a.key
                && *o == op
                && a.state == AskState::Waiting
            {
                a.state = match responses.get(key) {
                    Some(v) => recorded_state(&Ok(v.clone())),
                    // A rejection has no entry in inputResponses.
                    None => AskState::Refused("left out of inputResponses".to_owned()),
                };
            }
        }
        if !page.client.continue_call(page.now, op, responses) {
            return false;
        }
        page.note("replay: retried with the recorded inputResponses");
        true
    }
}

/// How a recorded answer shows on its question.
fn recorded_state(result: &Result<Value, RpcError>) -> AskState {
    match result {
        Ok(v) => AskState::Answered(serde_json::to_string_pretty(v).unwrap_or_default()),
        Err(e) => AskState::Refused(format!("{}: {}", e.code, e.message)),
    }
}
