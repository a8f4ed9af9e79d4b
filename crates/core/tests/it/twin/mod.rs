//! Serde-derived twins of the core's model types: what `#[derive]` with `flatten`
//! would have given (the hand-written `from_json`/`to_json` replaced exactly that to
//! save page size). `convert` turns one of ours into its twin so values compare.

// Each test module that uses it takes only part of it; test code may unwrap and panic.
#![allow(
    dead_code,
    unused_imports,
    clippy::large_enum_variant,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

mod convert;
pub mod strategies;

pub use convert::*;
use mcpg_core::model::JsonObject;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `Option` fields: absent and `null` read as `None`; `None` is not written.
macro_rules! twin_struct {
    ($(#[$m:meta])* struct $name:ident { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name { $($body)* }
    };
}

twin_struct!(
    struct TAnnotations {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub audience: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub priority: Option<f64>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TText {
        pub text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub annotations: Option<TAnnotations>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TImage {
        pub data: String,
        pub mime_type: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub annotations: Option<TAnnotations>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TLink {
        pub uri: String,
        #[serde(default)]
        pub name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub description: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub mime_type: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub size: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub annotations: Option<TAnnotations>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TTextRes {
        pub uri: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub mime_type: Option<String>,
        pub text: String,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TBlobRes {
        pub uri: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub mime_type: Option<String>,
        pub blob: String,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

/// Text, else blob, else the JSON as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TResContents {
    Text(TTextRes),
    Blob(TBlobRes),
    Unknown(Value),
}

twin_struct!(
    struct TEmbedded {
        pub resource: TResContents,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub annotations: Option<TAnnotations>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

/// The known blocks, tagged by `type`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TKnownBlock {
    Text(TText),
    Image(TImage),
    Audio(TImage),
    ResourceLink(TLink),
    Resource(TEmbedded),
}

/// A known block, or any other JSON kept as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TBlock {
    Known(TKnownBlock),
    Unknown(Value),
}

twin_struct!(
    struct TToolAnnotations {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub read_only_hint: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub destructive_hint: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub idempotent_hint: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub open_world_hint: Option<bool>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TTool {
        pub name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub description: Option<String>,
        #[serde(default)]
        pub input_schema: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub output_schema: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub annotations: Option<TToolAnnotations>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub icons: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub execution: Option<Value>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TListTools {
        #[serde(default)]
        pub tools: Vec<TTool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub next_cursor: Option<String>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TCallResult {
        #[serde(default)]
        pub content: Vec<TBlock>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub structured_content: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub is_error: Option<bool>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TImplementation {
        #[serde(default)]
        pub name: String,
        #[serde(default)]
        pub version: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TInitialize {
        #[serde(default)]
        pub protocol_version: String,
        #[serde(default)]
        pub capabilities: JsonObject,
        #[serde(default)]
        pub server_info: TImplementation,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub instructions: Option<String>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

impl Default for TImplementation {
    fn default() -> Self {
        TImplementation {
            name: String::new(),
            version: String::new(),
            title: None,
            extra: JsonObject::new(),
        }
    }
}

twin_struct!(
    struct TDiscover {
        #[serde(default)]
        pub supported_versions: Vec<String>,
        #[serde(default)]
        pub capabilities: JsonObject,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub instructions: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub ttl_ms: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub cache_scope: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub result_type: Option<String>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

// After the macro, which it uses.
mod catalog;
pub use catalog::*;
