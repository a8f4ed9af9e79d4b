//! The document itself.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::seed::SeedTurn;

/// The current schema version. Older documents are migrated on decode; newer ones
/// are refused with a message asking for a newer playground. Version 2 added
/// [`Recording::seeds`]: a version-1 playground would replay a prompt-seeded loop from
/// its last message alone, so it must refuse such a document rather than misread it.
pub const SCHEMA_VERSION: u32 = 2;

/// Where the session's MCP server was. Never a command, a token or a key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Connection {
    /// The demo server embedded in the page.
    Embedded,
    /// A server the local bridge offers, by name (the bridge's own config says what runs).
    Bridge {
        /// The server's name in the bridge config.
        server: String,
    },
    /// A remote server the local bridge relays, by its name in the bridge config (the
    /// URL stays in the bridge's config). Added in v1 without a version bump: older
    /// playgrounds refuse it as unreadable rather than misreading it.
    Relay {
        /// The remote's name in the bridge config.
        remote: String,
    },
    /// A Streamable HTTP URL.
    Url {
        /// `http://` or `https://` URL.
        url: String,
    },
}

/// The model side of the session: which provider format and which model, with its
/// non-secret settings only.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelChoice {
    /// `mock`, `player`, or a provider id (`anthropic`, `openai-chat`, …).
    pub kind: String,
    /// The provider format shown in steps 2, 3 and 6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Non-secret settings (model name, base URL, strict mode…). Keys that look like
    /// secrets are refused by validation and stripped by [`Recording::redact`].
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub settings: Map<String, Value>,
}

/// Which way a message travelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    /// Host → server.
    #[serde(rename = "s")]
    Sent,
    /// Server → host.
    #[serde(rename = "r")]
    Received,
}

/// One wire message as recorded. `text` may be left out when the replayer can
/// regenerate it (the embedded demo server is deterministic); `hash` then proves the
/// regenerated text is byte-for-byte what was recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireRecord {
    /// Direction.
    #[serde(rename = "d")]
    pub direction: Direction,
    /// Milliseconds since the session started.
    #[serde(rename = "t")]
    pub at_ms: u64,
    /// The exact text, when stored.
    #[serde(rename = "x", default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// [`fingerprint`] of the text, when the text is left out.
    #[serde(rename = "h", default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
}

/// A recorded playground session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    /// Schema version ([`SCHEMA_VERSION`] when written by this build).
    pub v: u32,
    /// Where the server was.
    pub connection: Connection,
    /// The model side.
    #[serde(default)]
    pub model: ModelChoice,
    /// The user's messages, in order.
    #[serde(default)]
    pub messages: Vec<String>,
    /// Per loop (aligned with `messages`), the conversation a prompt seeded it with
    /// (**Use in the loop**), or `None` for a loop started from its message. Empty
    /// when no loop was seeded (and in every version-1 document).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<Option<Vec<SeedTurn>>>,
    /// The mock model's script (model turns as JSON), when one was given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub script: Vec<Value>,
    /// Every wire message with its timing.
    #[serde(default)]
    pub wire: Vec<WireRecord>,
    /// Every host step, as the page recorded it (steps 2, 3, 6 and the markers of 1, 4, 5).
    #[serde(default)]
    pub steps: Vec<Value>,
    /// The step the learner is on (index into `steps`).
    #[serde(default)]
    pub cursor: usize,
}

impl Recording {
    /// An empty session on `connection`.
    pub fn new(connection: Connection) -> Recording {
        Recording {
            v: SCHEMA_VERSION,
            connection,
            model: ModelChoice::default(),
            messages: vec![],
            seeds: vec![],
            script: vec![],
            wire: vec![],
            steps: vec![],
            cursor: 0,
        }
    }

    /// Removes anything secret-looking from the model settings (keys in
    /// [`crate::SECRET_KEYS`]), so no export or link can carry a key.
    pub fn redact(&mut self) {
        self.model
            .settings
            .retain(|k, _| !crate::secret::is_secret_key(k));
    }

    /// The client capabilities the session declared: those of its first request
    /// sent (`initialize`'s, or a 2026-07-28 request's in `_meta`). A replay
    /// declares the same, so that it sends the recording's frames.
    pub fn declared_capabilities(&self) -> Option<Map<String, Value>> {
        let first = self.wire.iter().find(|w| w.direction == Direction::Sent)?;
        let v = serde_json::from_str::<Value>(first.text.as_deref()?).ok()?;
        let caps = v
            .pointer("/params/capabilities")
            .or_else(|| v.pointer("/params/_meta/io.modelcontextprotocol~1clientCapabilities"))?;
        caps.as_object().cloned()
    }

    /// Leaves out the text of received messages for which `regenerable` says the
    /// replayer can produce the same bytes, keeping a fingerprint to check them.
    pub fn elide_received(&mut self, regenerable: impl Fn(usize, &WireRecord) -> bool) {
        for (i, w) in self.wire.iter_mut().enumerate() {
            if w.direction == Direction::Received && w.text.is_some() && regenerable(i, w) {
                w.hash = w.text.as_deref().map(fingerprint);
                w.text = None;
            }
        }
    }
}

/// A 64-bit FNV-1a fingerprint of `text`, as 16 hex digits. Not for security: it
/// only tells a replayer that the text it regenerated is the one recorded.
pub fn fingerprint(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}
