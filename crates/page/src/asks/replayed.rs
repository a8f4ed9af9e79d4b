//! A replay answers what the server asks the way the recorded session did: the
//! learner's answers are in the recording (the responses and retries the page
//! sent), so nothing new is stored and every older link replays as before. An
//! answer sent differently would not be found in the recording, and the replay
//! would stop there.

use mcpg_core::client::OpId;
use mcpg_core::jsonrpc::{RequestId, RpcError};
use serde_json::Value;

use super::{AskKey, AskState};
use crate::driver::PageDriver;
use crate::links::Link;

impl PageDriver {
    /// Answers request `id` as the recording did, when this is a replay and the
    /// recording answered it; `true` when it did.
    pub(crate) fn answer_as_recorded(&mut self, id: &RequestId) -> bool {
        let Link::Replay(r) = &self.link else {
            return false;
        };
        let Some(result) = r.recorded_answer(id) else {
            return false;
        };
        let state = recorded_state(&result);
        if !self.client.answer(self.now, id, result) {
            return false;
        }
        let key = AskKey::Request(id.clone());
        if let Some(a) = self.asks.list.iter_mut().rev().find(|a| a.key == key) {
            a.state = state;
        }
        self.note("replay: answered as recorded");
        true
    }

    /// Retries MRTR call `op` with the recorded session's `inputResponses`, when
    /// this is a replay and the recording retried it; `true` when it did.
    pub(crate) fn retry_as_recorded(&mut self, op: OpId) -> bool {
        let Link::Replay(r) = &self.link else {
            return false;
        };
        let Some(Value::Object(responses)) = r.recorded_retry() else {
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
        if !self.client.continue_call(self.now, op, responses) {
            return false;
        }
        self.note("replay: retried with the recorded inputResponses");
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
