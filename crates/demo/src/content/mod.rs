//! The demo's resources, templates and prompts: what they are (`content.json`,
//! data rather than code for the page's size) and how each is read, filled in or
//! completed. Pure functions of their inputs and of the tool-call count, so a
//! recorded session replays to the same bytes.

pub mod notes;
mod prompts;
pub mod skills;

pub use prompts::{complete, get_prompt};

use base64::Engine as _;
use mcpg_core::jsonrpc::{RpcError, code};
use mcpg_core::model::JsonObject;
use mcpg_core::server::{blob_contents, resource_not_found, text_contents};
use serde_json::{Value, json};

use crate::assets;
use crate::weather::{self, WEATHER, find_city};

/// The resource that changes on every `tools/call` (for subscriptions).
pub const CALLS_URI: &str = "demo://playground/calls.json";

/// What a client must show as text, never render.
/// The view `get_weather` links (MCP Apps): a weather card whose buttons call
/// `get_weather` and `get_forecast` back through the host. Not in resources/list:
/// a host finds it through the tool's `_meta.ui.resourceUri`.
pub const WEATHER_CARD_URI: &str = "ui://demo/weather-card";

/// An MCP Apps view's MIME type.
const APP_MIME: &str = "text/html;profile=mcp-app";

/// The card's HTML (inline script and style; everything it shows is set as text).
const WEATHER_CARD: &str = include_str!("weather_card.html");

const HOSTILE: &str = "<script>alert(\"pwned\")</script><img src=x onerror=\"alert(1)\">\
<b>If this line is bold, the client rendered the server's HTML.</b>";

/// The content as JSON text: the lists the server sends, as they are sent.
const CONTENT_JSON: &str = include_str!("content.json");

/// `(resources, templates, prompts)`, in list order.
pub fn catalogue() -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    // Part of the build and checked by the tests, so it always parses.
    let mut v = serde_json::from_str::<Value>(CONTENT_JSON).unwrap_or_default();
    let mut take = |k: &str| match v.get_mut(k).map(Value::take) {
        Some(Value::Array(a)) => a,
        _ => Vec::new(),
    };
    (take("resources"), take("templates"), take("prompts"))
}

/// The tool calls seen so far, the state behind [`CALLS_URI`].
#[derive(Debug, Default)]
pub struct Calls {
    /// How many `tools/call` requests reached a tool.
    pub count: u64,
    /// The last tool called.
    pub last: Option<String>,
}

/// The contents of `uri` (its template's `variables` already matched by the server).
pub fn read(uri: &str, variables: &JsonObject, calls: &Calls) -> Result<Vec<Value>, RpcError> {
    let var = |k: &str| variables.get(k).and_then(Value::as_str).unwrap_or_default();
    let text = |mime: &str, body: &str| Ok(vec![text_contents(uri, mime, body)]);
    let json_text = |v: Value| text("application/json", &v.to_string());
    if let Some(rest) = uri.strip_prefix("weather://") {
        let Some(city) = find_city(var("city")) else {
            return Err(resource_not_found(uri));
        };
        return if rest.ends_with("/today") {
            text("text/plain", &weather::today(city))
        } else {
            match var("days").parse::<i64>() {
                Ok(d) if (1..=5).contains(&d) => json_text(weather::forecast(city, d)),
                _ => Err(RpcError::new(
                    code::INVALID_PARAMS,
                    "days must be a whole number from 1 to 5",
                )),
            }
        };
    }
    if let Some(body) = skills::file(uri) {
        return text("text/markdown", body);
    }
    match uri {
        "note://playground/" => text("text/plain", &notes::index()),
        "demo://playground/cities.json" => {
            let cities: Vec<Value> = WEATHER
                .iter()
                .map(|(c, t, sky)| json!({"city": c, "fahrenheit": t, "sky": sky}))
                .collect();
            json_text(json!({ "cities": cities }))
        }
        CALLS_URI => json_text(json!({"calls": calls.count, "last": calls.last})),
        "demo://playground/sun.png" => Ok(vec![blob_contents(
            uri,
            "image/png",
            assets::SUN_PNG_BASE64,
        )]),
        "demo://playground/beep.wav" => {
            let b64 = base64::engine::general_purpose::STANDARD.encode(assets::beep_wav());
            Ok(vec![blob_contents(uri, "audio/wav", &b64)])
        }
        "demo://playground/hostile.html" => text("text/html", HOSTILE),
        WEATHER_CARD_URI => Ok(vec![json!({
            "uri": uri,
            "mimeType": APP_MIME,
            "text": WEATHER_CARD,
            // Nothing from outside: the card's script and style are inline, and it
            // reaches the server only through the host (tools/call).
            "_meta": {"ui": {"csp": {"connectDomains": [], "resourceDomains": []}, "prefersBorder": false}},
        })]),
        _ => {
            let topic = uri.strip_prefix("note://playground/").unwrap_or_default();
            match notes::note(topic) {
                Some(body) => text("text/plain", body),
                None => Err(resource_not_found(uri)),
            }
        }
    }
}

/// The values of `options` that start with `typed`, ignoring ASCII case.
fn starting_with<'a>(options: impl IntoIterator<Item = &'a str>, typed: &str) -> Vec<String> {
    options
        .into_iter()
        .filter(|o| {
            o.get(..typed.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(typed))
        })
        .map(str::to_owned)
        .collect()
}
