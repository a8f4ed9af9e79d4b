//! [`ServerList`]: the answer of the bridge's `GET /api/servers`.

use serde_json::{Map, Value, json};

use crate::json::{WireError, object, parse, string};

/// A stdio server of the bridge's config, by name only: its command never leaves
/// the bridge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerEntry {
    /// The config name, which the page passes to `/ws?server=`.
    pub name: String,
}

/// A remote Streamable HTTP server the bridge relays at `/relay/NAME`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RemoteEntry {
    /// The config name.
    pub name: String,
    /// Where the relay goes (configured by the user, so not a secret).
    pub url: String,
}

/// What the page may connect to through the bridge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerList {
    /// Stdio servers, over the WebSocket relay.
    pub servers: Vec<ServerEntry>,
    /// Remote servers, over the HTTP relay.
    pub remotes: Vec<RemoteEntry>,
}

impl ServerList {
    /// The list as JSON: `{"servers":[{"name":…}],"remotes":[{"name":…,"url":…}]}`.
    pub fn to_json(&self) -> Value {
        let servers: Vec<Value> = self
            .servers
            .iter()
            .map(|s| json!({ "name": s.name }))
            .collect();
        let remotes: Vec<Value> = self
            .remotes
            .iter()
            .map(|r| json!({ "name": r.name, "url": r.url }))
            .collect();
        json!({ "servers": servers, "remotes": remotes })
    }

    /// Reads a list from JSON; a missing `servers` or `remotes` reads as empty.
    pub fn from_json(v: &Value) -> Result<Self, WireError> {
        let o = object(v)?;
        let servers = items(o, "servers")?
            .iter()
            .map(|e| {
                Ok(ServerEntry {
                    name: string(object(e)?, "name")?,
                })
            })
            .collect::<Result<_, WireError>>()?;
        let remotes = items(o, "remotes")?
            .iter()
            .map(|e| {
                let e = object(e)?;
                Ok(RemoteEntry {
                    name: string(e, "name")?,
                    url: string(e, "url")?,
                })
            })
            .collect::<Result<_, WireError>>()?;
        Ok(ServerList { servers, remotes })
    }

    /// Reads a list from the body of `GET /api/servers`.
    pub fn parse(text: &str) -> Result<Self, WireError> {
        Self::from_json(&parse(text)?)
    }
}

fn items<'a>(o: &'a Map<String, Value>, member: &'static str) -> Result<&'a [Value], WireError> {
    match o.get(member) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(WireError::Member {
            member,
            expected: "an array",
        }),
    }
}
