//! Scripted model turns: a list of turns the loop plays instead of asking the mock,
//! in order, so a demo runs the same way every time (and a shared session replays
//! exactly what the model said when it was recorded).
//!
//! A turn is plain JSON, so a presenter can write one by hand:
//!
//! ```json
//! {"calls": [{"name": "get_weather", "arguments": {"city": "Austin"}}], "why": "…"}
//! {"answer": "It is 91F and sunny in Austin.", "reply": {"…": "the raw API reply"}}
//! ```
//!
//! `calls[].id` defaults to `call_N`, `text` is what the model said alongside calls,
//! `why` is the explanation shown on the step, and `reply` (optional) is the provider's
//! raw reply body as recorded; without it the reply is rendered from the turn.

use std::collections::VecDeque;

use serde_json::{Map, Value, json};

use crate::provider::{ModelTurn, ToolCall};

/// One scripted turn of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptTurn {
    /// The turn, provider-neutral.
    pub turn: ModelTurn,
    /// The raw provider reply, when one was recorded.
    pub reply: Option<Value>,
    /// Why, in words (shown on the step).
    pub why: String,
}

/// Why a script could not be read: which turn and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("model turn {index}: {problem}")]
pub struct ScriptError {
    /// 1-based position of the turn in the script.
    pub index: usize,
    /// What is wrong with it.
    pub problem: String,
}

/// The explanation used when a scripted turn gives none.
const SCRIPTED: &str = "This turn comes from the session's model script, not from a model.";

impl ScriptTurn {
    /// Reads one turn (see the module docs for the shape); `index` is 1-based.
    pub fn from_value(index: usize, v: &Value) -> Result<ScriptTurn, ScriptError> {
        let err = |problem: &str| ScriptError {
            index,
            problem: problem.to_owned(),
        };
        let o = v.as_object().ok_or_else(|| err("is not a JSON object"))?;
        let text = |k: &str| match o.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(err(&format!("\"{k}\" must be a string"))),
        };
        let why = text("why")?.unwrap_or_else(|| SCRIPTED.to_owned());
        let reply = o.get("reply").filter(|r| !r.is_null()).cloned();
        let turn = match (o.get("calls"), text("answer")?) {
            (Some(_), Some(_)) => return Err(err("has both \"calls\" and \"answer\"")),
            (None, None) => return Err(err("needs \"calls\" (a list) or \"answer\" (text)")),
            (None, Some(text)) => ModelTurn::Answer { text },
            (Some(calls), None) => {
                let calls = calls
                    .as_array()
                    .ok_or_else(|| err("\"calls\" must be a list"))?;
                if calls.is_empty() {
                    return Err(err(
                        "\"calls\" is empty; use \"answer\" for a turn without calls",
                    ));
                }
                let calls = calls
                    .iter()
                    .enumerate()
                    .map(|(i, c)| call_from(c, i).map_err(|p| err(&p)))
                    .collect::<Result<_, _>>()?;
                ModelTurn::ToolCalls {
                    text: text("text")?,
                    calls,
                }
            }
        };
        Ok(ScriptTurn { turn, reply, why })
    }

    /// The turn as JSON, in the shape [`ScriptTurn::from_value`] reads.
    pub fn to_value(&self) -> Value {
        let mut o = Map::new();
        match &self.turn {
            ModelTurn::Answer { text } => {
                o.insert("answer".into(), json!(text));
            }
            ModelTurn::ToolCalls { text, calls } => {
                let calls: Vec<Value> = calls
                    .iter()
                    .map(|c| json!({"id": c.id, "name": c.name, "arguments": c.arguments}))
                    .collect();
                o.insert("calls".into(), Value::Array(calls));
                if let Some(t) = text {
                    o.insert("text".into(), json!(t));
                }
            }
        }
        if self.why != SCRIPTED {
            o.insert("why".into(), json!(self.why));
        }
        if let Some(r) = &self.reply {
            o.insert("reply".into(), r.clone());
        }
        Value::Object(o)
    }
}

fn call_from(c: &Value, i: usize) -> Result<ToolCall, String> {
    let n = i + 1;
    let o = c
        .as_object()
        .ok_or_else(|| format!("call {n} is not a JSON object"))?;
    let name = o
        .get("name")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("call {n} needs a \"name\" (the MCP tool name)"))?;
    let arguments = match o.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(a)) => a.clone(),
        Some(_) => return Err(format!("call {n}: \"arguments\" must be an object")),
    };
    let id = match o.get("id") {
        None | Some(Value::Null) => format!("call_{n}"),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(format!("call {n}: \"id\" must be a string")),
    };
    Ok(ToolCall {
        id,
        name: name.to_owned(),
        arguments,
    })
}

/// The script of one loop: turns are taken in order; when it runs out the driver
/// falls back to the mock (and says so).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    turns: VecDeque<ScriptTurn>,
    played: usize,
}

impl Script {
    /// Reads every turn; the first bad one is the error.
    pub fn from_values(values: &[Value]) -> Result<Script, ScriptError> {
        let turns = values
            .iter()
            .enumerate()
            .map(|(i, v)| ScriptTurn::from_value(i + 1, v))
            .collect::<Result<_, _>>()?;
        Ok(Script { turns, played: 0 })
    }

    /// Reads a script from JSON text: a list of turns (an empty text is no script).
    pub fn parse(text: &str) -> Result<Vec<Value>, ScriptError> {
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        let v: Value = serde_json::from_str(text).map_err(|e| ScriptError {
            index: 0,
            problem: format!("the script is not valid JSON ({e})"),
        })?;
        let Value::Array(items) = v else {
            return Err(ScriptError {
                index: 0,
                problem: "the script must be a JSON list of model turns".into(),
            });
        };
        Script::from_values(&items)?;
        Ok(items)
    }

    /// The next scripted turn, if any is left.
    pub fn next_turn(&mut self) -> Option<ScriptTurn> {
        let t = self.turns.pop_front()?;
        self.played += 1;
        Some(t)
    }

    /// Whether the script had turns and every one has been played.
    pub fn ran_out(&self) -> bool {
        self.played > 0 && self.turns.is_empty()
    }

    /// Whether no turns are left (or there never were any).
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn turns_round_trip_through_json() {
        let call = json!({"calls": [{"id": "toolu_1", "name": "get_weather", "arguments": {"city": "Austin"}}], "text": "Let me check.", "why": "It asked about weather."});
        let answer =
            json!({"answer": "91F", "reply": {"content": [{"type": "text", "text": "91F"}]}});
        for v in [call, answer] {
            let t = ScriptTurn::from_value(1, &v).unwrap();
            assert_eq!(t.to_value(), v);
        }
    }

    #[test]
    fn defaults_fill_what_a_hand_written_turn_leaves_out() {
        let t = ScriptTurn::from_value(1, &json!({"calls": [{"name": "echo"}, {"name": "add"}]}))
            .unwrap();
        let ModelTurn::ToolCalls { calls, text } = t.turn else {
            panic!("calls expected")
        };
        assert_eq!(text, None);
        assert_eq!(calls[0].id, "call_1");
        assert_eq!(calls[1].id, "call_2");
        assert!(calls[0].arguments.is_empty());
        assert_eq!(t.why, SCRIPTED);
        assert_eq!(t.reply, None);
    }

    #[test]
    fn bad_turns_say_which_and_why() {
        let cases = [
            (json!(3), "not a JSON object"),
            (json!({}), "needs \"calls\""),
            (json!({"answer": "x", "calls": []}), "both"),
            (json!({"calls": []}), "is empty"),
            (json!({"calls": {}}), "must be a list"),
            (json!({"calls": [{"arguments": {}}]}), "needs a \"name\""),
            (
                json!({"calls": [{"name": "a", "arguments": [1]}]}),
                "must be an object",
            ),
            (json!({"answer": 5}), "must be a string"),
        ];
        for (v, want) in cases {
            let e = Script::from_values(&[json!({"answer": "ok"}), v.clone()]).unwrap_err();
            assert_eq!(e.index, 2, "{v}");
            assert!(e.to_string().contains(want), "{v}: {e}");
            assert!(e.to_string().starts_with("model turn 2:"), "{e}");
        }
    }

    #[test]
    fn parse_reads_a_list_and_refuses_anything_else() {
        assert_eq!(Script::parse("  ").unwrap(), Vec::<Value>::new());
        assert_eq!(Script::parse(r#"[{"answer":"hi"}]"#).unwrap().len(), 1);
        assert!(
            Script::parse("{")
                .unwrap_err()
                .problem
                .contains("not valid JSON")
        );
        assert!(
            Script::parse(r#"{"answer":"hi"}"#)
                .unwrap_err()
                .problem
                .contains("list")
        );
        assert_eq!(Script::parse(r#"[{"answer":1}]"#).unwrap_err().index, 1);
    }

    #[test]
    fn turns_are_played_in_order_then_it_runs_out() {
        let mut s =
            Script::from_values(&[json!({"calls": [{"name": "a"}]}), json!({"answer": "done"})])
                .unwrap();
        assert!(!s.ran_out());
        assert!(matches!(
            s.next_turn().unwrap().turn,
            ModelTurn::ToolCalls { .. }
        ));
        assert!(!s.ran_out());
        assert_eq!(
            s.next_turn().unwrap().turn,
            ModelTurn::Answer {
                text: "done".into()
            }
        );
        assert!(s.ran_out());
        assert_eq!(s.next_turn(), None);
        assert!(!Script::default().ran_out());
        assert!(Script::default().is_empty());
    }
}
