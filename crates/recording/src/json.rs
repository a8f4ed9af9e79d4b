//! The session to and from a JSON value, by hand. The serde derives describe the same
//! format (tests check both agree), but in the page a derived `Deserialize` costs tens
//! of kilobytes of wasm (an internally tagged enum buffers through serde's `Content`),
//! while these few functions reuse `serde_json::Value`, which the page has anyway.

use serde_json::{Map, Value, json};

use crate::doc::{Connection, Direction, ModelChoice, Recording, WireRecord};
use crate::seed::{seeds_from_json, seeds_to_json};

impl Recording {
    /// The session as JSON, exactly as its serde `Serialize` writes it.
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("v".into(), json!(self.v));
        let c = match &self.connection {
            Connection::Embedded => json!({"kind": "embedded"}),
            Connection::Bridge { server } => json!({"kind": "bridge", "server": server}),
            Connection::Relay { remote } => json!({"kind": "relay", "remote": remote}),
            Connection::Url { url } => json!({"kind": "url", "url": url}),
        };
        o.insert("connection".into(), c);
        let mut m = Map::new();
        m.insert("kind".into(), json!(self.model.kind));
        if let Some(f) = &self.model.format {
            m.insert("format".into(), json!(f));
        }
        if !self.model.settings.is_empty() {
            m.insert(
                "settings".into(),
                Value::Object(self.model.settings.clone()),
            );
        }
        o.insert("model".into(), Value::Object(m));
        o.insert("messages".into(), json!(self.messages));
        if !self.seeds.is_empty() {
            o.insert("seeds".into(), seeds_to_json(&self.seeds));
        }
        if !self.script.is_empty() {
            o.insert("script".into(), Value::Array(self.script.clone()));
        }
        let wire = self.wire.iter().map(|w| {
            let mut r = Map::new();
            let d = match w.direction {
                Direction::Sent => "s",
                Direction::Received => "r",
            };
            r.insert("d".into(), json!(d));
            r.insert("t".into(), json!(w.at_ms));
            if let Some(x) = &w.text {
                r.insert("x".into(), json!(x));
            }
            if let Some(h) = &w.hash {
                r.insert("h".into(), json!(h));
            }
            Value::Object(r)
        });
        o.insert("wire".into(), Value::Array(wire.collect()));
        o.insert("steps".into(), Value::Array(self.steps.clone()));
        o.insert("cursor".into(), json!(self.cursor));
        Value::Object(o)
    }

    /// Reads a session from JSON, as its serde `Deserialize` would (missing lists
    /// are empty, unknown members are ignored); the error names the bad field.
    pub fn from_json(doc: &Value) -> Result<Recording, String> {
        let o = doc.as_object().ok_or("a session is a JSON object")?;
        let v = u32::try_from(uint(o, "v")?.ok_or("missing field `v`")?)
            .map_err(|_| "field `v` is too large")?;
        let c = o
            .get("connection")
            .and_then(Value::as_object)
            .ok_or("missing or invalid field `connection`")?;
        let name = |k: &str| -> Result<String, String> {
            string(c, k)?.ok_or_else(|| format!("connection: missing field `{k}`"))
        };
        let connection = match c.get("kind").and_then(Value::as_str) {
            Some("embedded") => Connection::Embedded,
            Some("bridge") => Connection::Bridge {
                server: name("server")?,
            },
            Some("relay") => Connection::Relay {
                remote: name("remote")?,
            },
            Some("url") => Connection::Url { url: name("url")? },
            Some(other) => {
                return Err(format!(
                    "unknown connection kind `{other}`, expected one of `embedded`, `bridge`, `relay`, `url`"
                ));
            }
            None => return Err("connection: missing field `kind`".into()),
        };
        let model = match o.get("model") {
            None => ModelChoice::default(),
            Some(Value::Object(m)) => ModelChoice {
                kind: string(m, "kind")?.ok_or("model: missing field `kind`")?,
                format: string(m, "format")?,
                settings: match m.get("settings") {
                    None | Some(Value::Null) => Map::new(),
                    Some(Value::Object(s)) => s.clone(),
                    Some(_) => return Err("model: `settings` must be an object".into()),
                },
            },
            Some(_) => return Err("field `model` must be an object".into()),
        };
        let messages = list(o, "messages")?
            .iter()
            .map(|m| m.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or("field `messages` must hold strings")?;
        let wire = list(o, "wire")?
            .iter()
            .enumerate()
            .map(|(i, w)| record(w).map_err(|e| format!("wire message {i}: {e}")))
            .collect::<Result<_, _>>()?;
        Ok(Recording {
            v,
            connection,
            model,
            messages,
            seeds: seeds_from_json(list(o, "seeds")?)?,
            script: list(o, "script")?.to_vec(),
            wire,
            steps: list(o, "steps")?.to_vec(),
            cursor: usize::try_from(uint(o, "cursor")?.unwrap_or(0))
                .map_err(|_| "field `cursor` is too large")?,
        })
    }
}

fn record(w: &Value) -> Result<WireRecord, String> {
    let o = w.as_object().ok_or("must be an object")?;
    let direction = match o.get("d").and_then(Value::as_str) {
        Some("s") => Direction::Sent,
        Some("r") => Direction::Received,
        _ => return Err("`d` must be \"s\" or \"r\"".into()),
    };
    Ok(WireRecord {
        direction,
        at_ms: uint(o, "t")?.ok_or("missing field `t`")?,
        text: string(o, "x")?,
        hash: string(o, "h")?,
    })
}

fn uint(o: &Map<String, Value>, k: &str) -> Result<Option<u64>, String> {
    match o.get(k) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("field `{k}` must be a whole number")),
    }
}

fn string(o: &Map<String, Value>, k: &str) -> Result<Option<String>, String> {
    match o.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("field `{k}` must be a string")),
    }
}

fn list<'a>(o: &'a Map<String, Value>, k: &str) -> Result<&'a [Value], String> {
    match o.get(k) {
        None => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(format!("field `{k}` must be a list")),
    }
}
