//! Serde-derived twins of the core's model types: what `#[derive]` with `flatten`
//! would have given (the hand-written `from_json`/`to_json` replaced exactly that to
//! save page size). `twin_*` turns one of ours into its twin so values compare.

#![allow(dead_code, clippy::large_enum_variant)]

use mcpg_core::model::{
    Annotations, BlobResourceContents, CallToolResult, ContentBlock, DiscoverResult,
    EmbeddedResource, ImageContent, Implementation, InitializeResult, JsonObject, ListToolsResult,
    ResourceContents, ResourceLink, TextContent, TextResourceContents, Tool, ToolAnnotations,
};
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

// ----- ours → twin, field by field -----

pub fn annotations(a: &Annotations) -> TAnnotations {
    TAnnotations {
        audience: a.audience.clone(),
        priority: a.priority,
        extra: a.extra.clone(),
    }
}

fn ann(a: &Option<Annotations>) -> Option<TAnnotations> {
    a.as_ref().map(annotations)
}

pub fn text(t: &TextContent) -> TText {
    TText {
        text: t.text.clone(),
        annotations: ann(&t.annotations),
        meta: t.meta.clone(),
        extra: t.extra.clone(),
    }
}

pub fn image(i: &ImageContent) -> TImage {
    TImage {
        data: i.data.clone(),
        mime_type: i.mime_type.clone(),
        annotations: ann(&i.annotations),
        meta: i.meta.clone(),
        extra: i.extra.clone(),
    }
}

pub fn link(l: &ResourceLink) -> TLink {
    TLink {
        uri: l.uri.clone(),
        name: l.name.clone(),
        title: l.title.clone(),
        description: l.description.clone(),
        mime_type: l.mime_type.clone(),
        size: l.size,
        annotations: ann(&l.annotations),
        meta: l.meta.clone(),
        extra: l.extra.clone(),
    }
}

fn text_res(t: &TextResourceContents) -> TTextRes {
    TTextRes {
        uri: t.uri.clone(),
        mime_type: t.mime_type.clone(),
        text: t.text.clone(),
        meta: t.meta.clone(),
        extra: t.extra.clone(),
    }
}

fn blob_res(b: &BlobResourceContents) -> TBlobRes {
    TBlobRes {
        uri: b.uri.clone(),
        mime_type: b.mime_type.clone(),
        blob: b.blob.clone(),
        meta: b.meta.clone(),
        extra: b.extra.clone(),
    }
}

pub fn embedded(e: &EmbeddedResource) -> TEmbedded {
    TEmbedded {
        resource: match &e.resource {
            ResourceContents::Text(t) => TResContents::Text(text_res(t)),
            ResourceContents::Blob(b) => TResContents::Blob(blob_res(b)),
            ResourceContents::Unknown(v) => TResContents::Unknown(v.clone()),
        },
        annotations: ann(&e.annotations),
        meta: e.meta.clone(),
        extra: e.extra.clone(),
    }
}

pub fn block(b: &ContentBlock) -> TBlock {
    TBlock::Known(match b {
        ContentBlock::Text(t) => TKnownBlock::Text(text(t)),
        ContentBlock::Image(i) => TKnownBlock::Image(image(i)),
        ContentBlock::Audio(a) => TKnownBlock::Audio(image(a)),
        ContentBlock::ResourceLink(l) => TKnownBlock::ResourceLink(link(l)),
        ContentBlock::Resource(e) => TKnownBlock::Resource(embedded(e)),
        ContentBlock::Unknown(v) => return TBlock::Unknown(v.clone()),
    })
}

pub fn tool(t: &Tool) -> TTool {
    TTool {
        name: t.name.clone(),
        title: t.title.clone(),
        description: t.description.clone(),
        input_schema: t.input_schema.clone(),
        output_schema: t.output_schema.clone(),
        annotations: t
            .annotations
            .as_ref()
            .map(|a: &ToolAnnotations| TToolAnnotations {
                title: a.title.clone(),
                read_only_hint: a.read_only_hint,
                destructive_hint: a.destructive_hint,
                idempotent_hint: a.idempotent_hint,
                open_world_hint: a.open_world_hint,
                extra: a.extra.clone(),
            }),
        icons: t.icons.clone(),
        execution: t.execution.clone(),
        meta: t.meta.clone(),
        extra: t.extra.clone(),
    }
}

pub fn list_tools(l: &ListToolsResult) -> TListTools {
    TListTools {
        tools: l.tools.iter().map(tool).collect(),
        next_cursor: l.next_cursor.clone(),
        meta: l.meta.clone(),
        extra: l.extra.clone(),
    }
}

pub fn call_result(r: &CallToolResult) -> TCallResult {
    TCallResult {
        content: r.content.iter().map(block).collect(),
        structured_content: r.structured_content.clone(),
        is_error: r.is_error,
        meta: r.meta.clone(),
        extra: r.extra.clone(),
    }
}

pub fn implementation(i: &Implementation) -> TImplementation {
    TImplementation {
        name: i.name.clone(),
        version: i.version.clone(),
        title: i.title.clone(),
        extra: i.extra.clone(),
    }
}

pub fn initialize(r: &InitializeResult) -> TInitialize {
    TInitialize {
        protocol_version: r.protocol_version.clone(),
        capabilities: r.capabilities.clone(),
        server_info: implementation(&r.server_info),
        instructions: r.instructions.clone(),
        meta: r.meta.clone(),
        extra: r.extra.clone(),
    }
}

pub fn discover(d: &DiscoverResult) -> TDiscover {
    TDiscover {
        supported_versions: d.supported_versions.clone(),
        capabilities: d.capabilities.clone(),
        instructions: d.instructions.clone(),
        ttl_ms: d.ttl_ms.clone(),
        cache_scope: d.cache_scope.clone(),
        result_type: d.result_type.clone(),
        meta: d.meta.clone(),
        extra: d.extra.clone(),
    }
}
