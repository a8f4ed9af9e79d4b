//! The learner's roots, as a `roots/list` answer lists them.

use serde_json::{Value, json};

/// One `Root`: a `file://` URI the server may operate on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// The URI (`file:///home/me/project`).
    pub uri: String,
    /// A name for people.
    pub name: Option<String>,
}

impl Root {
    /// A root without a name.
    pub fn new(uri: impl Into<String>) -> Root {
        Root {
            uri: uri.into(),
            name: None,
        }
    }

    /// The `Root` JSON.
    pub fn to_json(&self) -> Value {
        let mut r = json!({"uri": self.uri});
        if let Some(n) = &self.name {
            r["name"] = Value::from(n.as_str());
        }
        r
    }
}
