//! A loop's seed: the conversation a prompt (`prompts/get`) started the loop with,
//! as the host's neutral turns. Without it a replay would start that loop from its
//! last user message alone and steps 2 and 3 would differ from the recording.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// Who said one seeded message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedRole {
    /// The user (the host's `Turn::User`).
    User,
    /// The model's earlier words (the host's `Turn::Model` with an answer).
    Model,
}

/// One message of a seed: only words, as the host's seeded loops take them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedTurn {
    /// Who said it.
    pub role: SeedRole,
    /// What was said.
    pub text: String,
}

/// At most this many messages in one seed (a prompt is a few messages).
pub(crate) const MAX_SEED_TURNS: usize = 256;

impl SeedTurn {
    /// A seeded message from the host's `Turn::words` form: the user's words
    /// (`true`) or the model's (`false`).
    pub fn from_words((user, text): (bool, &str)) -> SeedTurn {
        SeedTurn {
            role: if user {
                SeedRole::User
            } else {
                SeedRole::Model
            },
            text: text.to_owned(),
        }
    }

    /// The turn as JSON, as its serde `Serialize` writes it.
    pub(crate) fn to_json(&self) -> Value {
        let role = match self.role {
            SeedRole::User => "user",
            SeedRole::Model => "model",
        };
        json!({"role": role, "text": self.text})
    }

    /// Reads a turn as its serde `Deserialize` would; the error names the bad part.
    pub(crate) fn from_json(v: &Value) -> Result<SeedTurn, String> {
        let o: &Map<String, Value> = v.as_object().ok_or("must be an object")?;
        let role = match o.get("role").and_then(Value::as_str) {
            Some("user") => SeedRole::User,
            Some("model") => SeedRole::Model,
            _ => return Err("`role` must be \"user\" or \"model\"".into()),
        };
        let text = match o.get("text") {
            Some(Value::String(s)) => s.clone(),
            _ => return Err("`text` must be a string".into()),
        };
        Ok(SeedTurn { role, text })
    }
}

/// `seeds` as JSON: one entry per loop, `null` for a loop started from a message.
pub(crate) fn seeds_to_json(seeds: &[Option<Vec<SeedTurn>>]) -> Value {
    seeds
        .iter()
        .map(|s| {
            s.as_ref().map_or(Value::Null, |turns| {
                Value::Array(turns.iter().map(SeedTurn::to_json).collect())
            })
        })
        .collect()
}

/// Reads the `seeds` list's entries (see [`seeds_to_json`]).
pub(crate) fn seeds_from_json(list: &[Value]) -> Result<Vec<Option<Vec<SeedTurn>>>, String> {
    list.iter()
        .enumerate()
        .map(|(i, s)| match s {
            Value::Null => Ok(None),
            Value::Array(turns) => turns
                .iter()
                .enumerate()
                .map(|(j, t)| {
                    SeedTurn::from_json(t).map_err(|e| format!("seed {i}, message {j}: {e}"))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            _ => Err(format!("seed {i} must be a list of messages or null")),
        })
        .collect()
}

/// The rules a decoded seed list must follow, against hostile documents: no more
/// seeds than loops, each seed a non-empty, bounded conversation.
pub(crate) fn check_seeds(seeds: &[Option<Vec<SeedTurn>>], loops: usize) -> Result<(), String> {
    if seeds.len() > loops {
        return Err(format!(
            "{} loop seeds for {loops} recorded loops",
            seeds.len()
        ));
    }
    for (i, turns) in seeds.iter().enumerate() {
        let Some(turns) = turns else { continue };
        if turns.is_empty() || turns.len() > MAX_SEED_TURNS {
            return Err(format!(
                "seed {i} must hold 1–{MAX_SEED_TURNS} messages, not {}",
                turns.len()
            ));
        }
    }
    Ok(())
}
