//! Twins of the resource, prompt, completion and logging types, and ours → twin.

use mcpg_core::model::{
    CompleteResult, GetPromptResult, JsonObject, LogMessage, Prompt, PromptArgument,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{TAnnotations, TBlock, TResContents, annotations, block, embedded};

twin_struct!(
    struct TResource {
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
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub icons: Option<Value>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TTemplate {
        pub uri_template: String,
        #[serde(default)]
        pub name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub description: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub mime_type: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub annotations: Option<TAnnotations>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub icons: Option<Value>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TRead {
        #[serde(default)]
        pub contents: Vec<TResContents>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TArgument {
        pub name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub description: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub required: Option<bool>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TPrompt {
        pub name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub description: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub arguments: Option<Vec<TArgument>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub icons: Option<Value>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TMessage {
        pub role: String,
        pub content: TBlock,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TGetPrompt {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub description: Option<String>,
        #[serde(default)]
        pub messages: Vec<TMessage>,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TCompletion {
        pub values: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub total: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub has_more: Option<bool>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

twin_struct!(
    struct TComplete {
        pub completion: TCompletion,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

/// `LoggingLevel`: the eight, nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

twin_struct!(
    struct TLog {
        pub level: TLevel,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub logger: Option<String>,
        #[serde(default)]
        pub data: Value,
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        pub meta: Option<JsonObject>,
        #[serde(flatten)]
        pub extra: JsonObject,
    }
);

pub fn resource(r: &Resource) -> TResource {
    TResource {
        uri: r.uri.clone(),
        name: r.name.clone(),
        title: r.title.clone(),
        description: r.description.clone(),
        mime_type: r.mime_type.clone(),
        size: r.size,
        annotations: r.annotations.as_ref().map(annotations),
        icons: r.icons.clone(),
        meta: r.meta.clone(),
        extra: r.extra.clone(),
    }
}

pub fn template(t: &ResourceTemplate) -> TTemplate {
    TTemplate {
        uri_template: t.uri_template.clone(),
        name: t.name.clone(),
        title: t.title.clone(),
        description: t.description.clone(),
        mime_type: t.mime_type.clone(),
        annotations: t.annotations.as_ref().map(annotations),
        icons: t.icons.clone(),
        meta: t.meta.clone(),
        extra: t.extra.clone(),
    }
}

/// Through an embedded resource, whose contents convert the same way.
fn contents(c: &ResourceContents) -> TResContents {
    let e = mcpg_core::model::EmbeddedResource {
        resource: c.clone(),
        annotations: None,
        meta: None,
        extra: JsonObject::new(),
    };
    embedded(&e).resource
}

pub fn read(r: &ReadResourceResult) -> TRead {
    TRead {
        contents: r.contents.iter().map(contents).collect(),
        meta: r.meta.clone(),
        extra: r.extra.clone(),
    }
}

fn argument(a: &PromptArgument) -> TArgument {
    TArgument {
        name: a.name.clone(),
        title: a.title.clone(),
        description: a.description.clone(),
        required: a.required,
        extra: a.extra.clone(),
    }
}

pub fn prompt(p: &Prompt) -> TPrompt {
    TPrompt {
        name: p.name.clone(),
        title: p.title.clone(),
        description: p.description.clone(),
        arguments: p
            .arguments
            .as_ref()
            .map(|a| a.iter().map(argument).collect()),
        icons: p.icons.clone(),
        meta: p.meta.clone(),
        extra: p.extra.clone(),
    }
}

pub fn get_prompt(r: &GetPromptResult) -> TGetPrompt {
    TGetPrompt {
        description: r.description.clone(),
        messages: r
            .messages
            .iter()
            .map(|m| TMessage {
                role: m.role.as_str().to_owned(),
                content: block(&m.content),
                extra: m.extra.clone(),
            })
            .collect(),
        meta: r.meta.clone(),
        extra: r.extra.clone(),
    }
}

pub fn complete(c: &CompleteResult) -> TComplete {
    TComplete {
        completion: TCompletion {
            values: c.values.clone(),
            total: c.total,
            has_more: c.has_more,
            extra: c.completion_extra.clone(),
        },
        meta: c.meta.clone(),
        extra: c.extra.clone(),
    }
}

pub fn log(m: &LogMessage) -> TLog {
    let level = serde_json::from_value(Value::from(m.level.as_str())).unwrap_or(TLevel::Debug);
    TLog {
        level,
        logger: m.logger.clone(),
        data: m.data.clone(),
        meta: m.meta.clone(),
        extra: m.extra.clone(),
    }
}
