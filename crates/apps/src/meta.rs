//! A tool's link to its view (`_meta.ui`): the `ui://` resource and who may call
//! the tool (`visibility`: the model, the app, or both).

use mcpg_core::model::Tool;
use serde_json::Value;

/// The URI scheme every view's resource uses.
pub const UI_SCHEME: &str = "ui://";

/// Who may see and call a tool (`_meta.ui.visibility`; both when absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visibility {
    /// The model sees it in the tool list and may call it.
    pub model: bool,
    /// A view of the same server may call it.
    pub app: bool,
}

impl Visibility {
    /// The default: the model and the app.
    pub const BOTH: Visibility = Visibility {
        model: true,
        app: true,
    };

    /// `tool`'s `_meta.ui.visibility`, read leniently and without allocating (the
    /// host asks on every tool list): both when absent or not an array, unknown
    /// values ignored. [`ToolUi::of`] names what is wrong with it.
    pub fn of(tool: &Tool) -> Visibility {
        let items = tool
            .meta
            .as_ref()
            .and_then(|m| m.get("ui"))
            .and_then(|u| u.get("visibility"))
            .and_then(Value::as_array);
        match items {
            None => Visibility::BOTH,
            Some(items) => Visibility {
                model: items.iter().any(|i| i.as_str() == Some("model")),
                app: items.iter().any(|i| i.as_str() == Some("app")),
            },
        }
    }
}

/// What a tool's `_meta.ui` says, read leniently (what is wrong is in `problems`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolUi {
    /// The view's resource, when the tool links one (`ui://…`).
    pub resource_uri: Option<String>,
    /// Who may call the tool.
    pub visibility: Visibility,
    /// What the metadata gets wrong, in words (for `mcpg apps check`).
    pub problems: Vec<String>,
}

impl ToolUi {
    /// Reads `tool`'s `_meta.ui` (and the deprecated flat `ui/resourceUri`).
    pub fn of(tool: &Tool) -> ToolUi {
        let meta = tool.meta.as_ref();
        let ui = meta.and_then(|m| m.get("ui"));
        let mut problems = Vec::new();
        let nested = ui
            .and_then(|u| u.get("resourceUri"))
            .and_then(Value::as_str);
        let flat = meta
            .and_then(|m| m.get("ui/resourceUri"))
            .and_then(Value::as_str);
        if flat.is_some() && nested.is_none() {
            problems.push(
                "_meta[\"ui/resourceUri\"] is deprecated: use _meta.ui.resourceUri".to_owned(),
            );
        }
        let resource_uri = nested.or(flat).map(str::to_owned);
        if let Some(u) = &resource_uri
            && !u.starts_with(UI_SCHEME)
        {
            problems.push(format!("resourceUri {u:?} does not use the ui:// scheme"));
        }
        let visibility = Visibility::of(tool);
        match ui.and_then(|u| u.get("visibility")) {
            Some(Value::Array(items)) => {
                for item in items
                    .iter()
                    .filter(|i| !matches!(i.as_str(), Some("model" | "app")))
                {
                    problems.push(format!(
                        "visibility has {}: only \"model\" and \"app\" are defined",
                        item.as_str()
                            .map_or_else(|| item.to_string(), |s| format!("{s:?}"))
                    ));
                }
                if !visibility.model && !visibility.app {
                    problems.push("visibility is empty: nobody may call the tool".to_owned());
                }
            }
            Some(other) => problems.push(format!("visibility must be an array, not {other}")),
            None => {}
        }
        ToolUi {
            resource_uri: resource_uri.filter(|u| u.starts_with(UI_SCHEME)),
            visibility,
            problems,
        }
    }
}

/// The tools the model may see: those whose visibility includes the model (the
/// spec's MUST NOT for app-only tools in the agent's list).
pub fn for_model(tools: &[Tool]) -> impl Iterator<Item = &Tool> {
    tools.iter().filter(|t| Visibility::of(t).model)
}
