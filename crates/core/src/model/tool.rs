//! `Tool`, `ListToolsResult` and `CallToolResult`.

use serde_json::Value;

use super::json::{Members, Out, array, via_json};
use super::{ContentBlock, JsonObject, ModelError};

/// `ToolAnnotations` (2025-03-26+). Hints only: untrusted unless the server is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolAnnotations {
    /// Display title.
    pub title: Option<String>,
    /// The tool does not modify its environment.
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    pub destructive_hint: Option<bool>,
    /// Calling twice with the same arguments has no extra effect.
    pub idempotent_hint: Option<bool>,
    /// The tool talks to an open world of external entities.
    pub open_world_hint: Option<bool>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `Tool`: a tool's definition as `tools/list` returns it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tool {
    /// Programmatic name, unique per server.
    pub name: String,
    /// Display name (2025-06-18+).
    pub title: Option<String>,
    /// What the tool does, for the model.
    pub description: Option<String>,
    /// JSON Schema of the arguments; must be an object schema (`type: "object"`).
    /// Kept as raw JSON: the core checks it, the host adapts it.
    pub input_schema: Value,
    /// JSON Schema of `structuredContent` (2025-06-18+).
    pub output_schema: Option<Value>,
    /// Behaviour hints.
    pub annotations: Option<ToolAnnotations>,
    /// Icons (2025-11-25+), kept as JSON.
    pub icons: Option<Value>,
    /// `execution` (2025-11-25 tasks), kept as JSON.
    pub execution: Option<Value>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

impl Tool {
    /// The name to show a person: `title`, then `annotations.title`, then `name`.
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref().and_then(|a| a.title.as_deref()))
            .unwrap_or(&self.name)
    }
}

/// `ListToolsResult`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListToolsResult {
    /// The tools of this page.
    pub tools: Vec<Tool>,
    /// Opaque cursor for the next page; absent on the last page.
    pub next_cursor: Option<String>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members (`ttlMs`, `cacheScope`, `resultType`…).
    pub extra: JsonObject,
}

/// `CallToolResult`: what a tool returned.
///
/// `is_error: Some(true)` is a *tool* failure the model should see; a JSON-RPC
/// error is a *protocol* failure and never becomes a `CallToolResult`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallToolResult {
    /// Unstructured content blocks.
    pub content: Vec<ContentBlock>,
    /// Structured result, checked against the tool's `outputSchema` (2025-06-18+).
    pub structured_content: Option<Value>,
    /// Whether the tool failed; absent means false.
    pub is_error: Option<bool>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members (`resultType`…).
    pub extra: JsonObject,
}

impl CallToolResult {
    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        CallToolResult {
            content: vec![ContentBlock::text(text)],
            ..Default::default()
        }
    }

    /// A tool failure (`isError: true`) with one text block.
    pub fn tool_error(text: impl Into<String>) -> Self {
        CallToolResult {
            content: vec![ContentBlock::text(text)],
            is_error: Some(true),
            ..Default::default()
        }
    }

    /// Whether this result reports a tool failure.
    pub fn failed(&self) -> bool {
        self.is_error == Some(true)
    }
}

impl ToolAnnotations {
    /// Reads tool annotations from JSON.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(ToolAnnotations {
            title: m.string("title")?,
            read_only_hint: m.boolean("readOnlyHint")?,
            destructive_hint: m.boolean("destructiveHint")?,
            idempotent_hint: m.boolean("idempotentHint")?,
            open_world_hint: m.boolean("openWorldHint")?,
            extra: m.rest(),
        })
    }

    /// The annotations as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .string("title", &self.title)
            .opt("readOnlyHint", self.read_only_hint.map(Value::from))
            .opt("destructiveHint", self.destructive_hint.map(Value::from))
            .opt("idempotentHint", self.idempotent_hint.map(Value::from))
            .opt("openWorldHint", self.open_world_hint.map(Value::from))
            .with(&self.extra)
    }
}

impl Tool {
    /// Reads a tool definition from JSON.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(Tool {
            name: m.req_string("name")?,
            title: m.string("title")?,
            description: m.string("description")?,
            input_schema: m.value("inputSchema").unwrap_or_default(),
            output_schema: m.value("outputSchema"),
            annotations: m
                .value("annotations")
                .map(ToolAnnotations::from_value)
                .transpose()
                .map_err(|e| e.within("annotations"))?,
            icons: m.value("icons"),
            execution: m.value("execution"),
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The definition as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("name", &self.name)
            .string("title", &self.title)
            .string("description", &self.description)
            .put("inputSchema", self.input_schema.clone())
            .opt("outputSchema", self.output_schema.clone())
            .opt(
                "annotations",
                self.annotations.as_ref().map(ToolAnnotations::to_json),
            )
            .opt("icons", self.icons.clone())
            .opt("execution", self.execution.clone())
            .meta(&self.meta)
            .with(&self.extra)
    }
}

impl ListToolsResult {
    /// Reads one page of `tools/list` (every tool must be readable).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        let tools = m.opt("tools", array, "an array")?.unwrap_or_default();
        Ok(ListToolsResult {
            tools: tools
                .into_iter()
                .enumerate()
                .map(|(i, t)| Tool::from_value(t).map_err(|e| e.within(format!("tools[{i}]"))))
                .collect::<Result<_, _>>()?,
            next_cursor: m.string("nextCursor")?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The page as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .put(
                "tools",
                Value::Array(self.tools.iter().map(Tool::to_json).collect()),
            )
            .string("nextCursor", &self.next_cursor)
            .meta(&self.meta)
            .with(&self.extra)
    }
}

impl CallToolResult {
    /// Reads a `tools/call` result; content blocks that do not fit their type are kept
    /// as [`ContentBlock::Unknown`].
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        let content = m.opt("content", array, "an array")?.unwrap_or_default();
        Ok(CallToolResult {
            content: content.into_iter().map(ContentBlock::from_value).collect(),
            structured_content: m.value("structuredContent"),
            is_error: m.boolean("isError")?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The result as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .put(
                "content",
                Value::Array(self.content.iter().map(ContentBlock::to_json).collect()),
            )
            .opt("structuredContent", self.structured_content.clone())
            .opt("isError", self.is_error.map(Value::from))
            .meta(&self.meta)
            .with(&self.extra)
    }
}

via_json!(ToolAnnotations, Tool, ListToolsResult, CallToolResult);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ModelErrorKind;
    use serde_json::json;

    #[test]
    fn a_tool_round_trips_with_unknown_members_in_order() {
        let raw = json!({
            "name": "get_weather",
            "zeta": 1,
            "title": "Weather",
            "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "future": "x"},
            "alpha": [2],
            "_meta": {"k": "v"}
        });
        let t = Tool::from_json(&raw).unwrap();
        assert_eq!(t.annotations.as_ref().unwrap().read_only_hint, Some(true));
        let keys: Vec<&String> = t.extra.keys().collect();
        assert_eq!(keys, ["zeta", "alpha"]);
        let back = serde_json::to_value(&t).unwrap();
        assert_eq!(back, raw);
        let again: Tool = serde_json::from_value(back).unwrap();
        assert_eq!(again, t);
    }

    #[test]
    fn null_is_absent_and_a_wrong_type_names_the_member() {
        let t =
            Tool::from_json(&json!({"name": "x", "title": null, "outputSchema": null})).unwrap();
        assert_eq!((t.title, t.output_schema), (None, None));
        let e = Tool::from_json(&json!({"name": 5})).unwrap_err();
        assert_eq!(
            e.kind,
            ModelErrorKind::WrongType {
                member: "name".into(),
                expected: "a string",
                found: "a number"
            }
        );
        assert_eq!(e.to_string(), "`name` must be a string, not a number");
        let e = Tool::from_json(&json!({"title": "x"})).unwrap_err();
        assert_eq!(e.to_string(), "missing field `name`");
        let e = Tool::from_json(&json!(["name"])).unwrap_err();
        assert_eq!(e.kind, ModelErrorKind::NotAnObject { found: "an array" });
        assert_eq!(e.to_string(), "expected an object, found an array");
        let e = serde_json::from_value::<Tool>(
            json!({"name": "x", "annotations": {"readOnlyHint": "yes"}}),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "annotations: `readOnlyHint` must be a boolean, not a string"
        );
    }

    #[test]
    fn a_call_result_keeps_odd_blocks_and_rejects_odd_content() {
        let raw = json!({
            "content": [{"type": "text", "text": "hi"}, {"type": "text", "text": 3}],
            "isError": false,
            "resultType": "complete"
        });
        let r = CallToolResult::from_json(&raw).unwrap();
        assert!(matches!(r.content[1], ContentBlock::Unknown(_)));
        assert_eq!(r.to_json(), raw);
        assert!(CallToolResult::from_json(&json!({"content": "hi"})).is_err());
        assert!(CallToolResult::from_json(&json!({"isError": "no"})).is_err());
        assert_eq!(
            CallToolResult::from_json(&json!({})).unwrap(),
            CallToolResult::default()
        );
    }

    #[test]
    fn a_page_fails_on_a_bad_tool_and_says_which() {
        let e = ListToolsResult::from_json(&json!({"tools": [{"name": "a"}, {}]})).unwrap_err();
        assert_eq!(e.at, ["tools[1]"]);
        assert_eq!(e.to_string(), "tools[1]: missing field `name`");
    }
}
