//! The client capabilities a `-32021` names, read into a closed set.

use serde_json::Value;

/// A client capability a server may require, as far as a fix is known for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Capability {
    /// `elicitation` (form or URL).
    Elicitation,
    /// `sampling`.
    Sampling,
    /// `roots`.
    Roots,
    /// The 2026-07-28 Tasks extension, `extensions["io.modelcontextprotocol/tasks"]`.
    Tasks,
}

impl Capability {
    /// Its name as a person reads it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Capability::Elicitation => "elicitation",
            Capability::Sampling => "sampling",
            Capability::Roots => "roots",
            Capability::Tasks => "the Tasks extension (io.modelcontextprotocol/tasks)",
        }
    }

    /// The `mcpg` flag that declares it (mcpg declares a capability only when a
    /// flag says how to answer it); `None` for what mcpg declares by itself.
    pub(crate) fn flag(self) -> Option<&'static str> {
        match self {
            Capability::Elicitation => Some("--on-elicit ask"),
            Capability::Sampling => Some("--on-sample mock"),
            Capability::Roots => Some("--root file:///PATH"),
            Capability::Tasks => None,
        }
    }
}

/// The capabilities `data.requiredCapabilities` names (the spec's
/// `MissingRequiredClientCapabilityError`), known ones only, in a fixed order;
/// and whether it named others (whose names, the server's text, are not repeated).
pub(crate) fn required(data: Option<&Value>) -> (Vec<Capability>, bool) {
    let Some(caps) = data
        .and_then(|d| d.get("requiredCapabilities"))
        .and_then(Value::as_object)
    else {
        return (Vec::new(), false);
    };
    let mut known = Vec::new();
    let mut others = false;
    for (key, value) in caps {
        match key.as_str() {
            "elicitation" => known.push(Capability::Elicitation),
            "sampling" => known.push(Capability::Sampling),
            "roots" => known.push(Capability::Roots),
            "extensions" => {
                let names = value.as_object().into_iter().flat_map(|m| m.keys());
                for name in names {
                    if name == mcpg_core::client::TASKS_EXTENSION {
                        known.push(Capability::Tasks);
                    } else {
                        others = true;
                    }
                }
            }
            _ => others = true,
        }
    }
    known.sort_by_key(|c| *c as u8);
    known.dedup();
    (known, others)
}
