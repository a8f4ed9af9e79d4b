//! The tool definitions. Enough of them that `tools/list` spans several pages, each
//! chosen to show one part of a tool definition (enums, arrays, nested objects,
//! defaults, annotations, output schemas).

use mcpg_core::model::Tool;
use serde_json::{Value, json};

/// Tools per `tools/list` page: small on purpose, so the pagination lesson shows.
pub const PAGE_SIZE: usize = 6;

/// Name of the tool that `toggle_bonus_tool` adds and removes.
pub const BONUS: &str = "secret_recipe";

fn tool(v: Value) -> Option<Tool> {
    serde_json::from_value(v).ok()
}

fn read_only(title: &str) -> Value {
    json!({"title": title, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
}

/// Every tool the demo starts with, in `tools/list` order.
pub fn initial_tools() -> Vec<Tool> {
    let defs = [
        json!({
            "name": "get_weather",
            "title": "Get weather",
            "description": "Current weather for a city. Knows Austin, Paris, Tokyo, London and Reykjavik; any other city is a tool error (isError), not a protocol error.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name, e.g. Austin"}}, "required": ["city"]},
            "annotations": read_only("Weather now")
        }),
        json!({
            "name": "get_forecast",
            "title": "Get forecast",
            "description": "Forecast for the next days in a city, as structured content checked against an output schema.",
            "inputSchema": {"type": "object", "properties": {
                "city": {"type": "string", "description": "City name"},
                "days": {"type": "integer", "minimum": 1, "maximum": 5, "default": 3, "description": "How many days"}
            }, "required": ["city"]},
            "outputSchema": {"type": "object", "properties": {
                "city": {"type": "string"},
                "days": {"type": "array", "items": {"type": "object", "properties": {
                    "day": {"type": "integer"}, "high": {"type": "integer"}, "low": {"type": "integer"}, "sky": {"type": "string"}
                }, "required": ["day", "high", "low", "sky"]}}
            }, "required": ["city", "days"]},
            "annotations": read_only("Forecast")
        }),
        json!({
            "name": "get_weather_icon",
            "title": "Weather icon",
            "description": "Returns the weather icon for a city as a PNG image.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "annotations": read_only("Icon")
        }),
        json!({
            "name": "say_hello",
            "title": "Say hello",
            "description": "Returns a short beep as WAV audio, to show audio content.",
            "inputSchema": {"type": "object", "additionalProperties": false},
            "annotations": read_only("Beep")
        }),
        json!({
            "name": "read_note",
            "title": "Read a note",
            "description": "Returns a note as an embedded text resource plus a link to the full notebook.",
            "inputSchema": {"type": "object", "properties": {"topic": {"type": "string", "enum": ["pagination", "errors", "progress"], "description": "Which note"}}, "required": ["topic"]},
            "annotations": read_only("Notes")
        }),
        json!({
            "name": "count_slowly",
            "title": "Count slowly",
            "description": "Counts to a number, one step at a time, sending progress notifications; can be cancelled.",
            "inputSchema": {"type": "object", "properties": {
                "to": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
                "step_ms": {"type": "integer", "minimum": 50, "maximum": 5000, "default": 500, "description": "Milliseconds per step"}
            }},
            "annotations": {"title": "Slow counter", "readOnlyHint": true, "openWorldHint": false}
        }),
        json!({
            "name": "toggle_bonus_tool",
            "title": "Toggle the bonus tool",
            "description": "Adds or removes the secret_recipe tool, and tells the client with notifications/tools/list_changed.",
            "inputSchema": {"type": "object", "additionalProperties": false},
            "annotations": {"title": "Change the tool list", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false}
        }),
        json!({"name": "add_numbers", "title": "Add", "description": "Adds two numbers.",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
            "annotations": read_only("Add")}),
        json!({"name": "multiply_numbers", "title": "Multiply", "description": "Multiplies two numbers.",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
            "annotations": read_only("Multiply")}),
        json!({"name": "reverse_text", "title": "Reverse text", "description": "Reverses a piece of text.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            "annotations": read_only("Reverse")}),
        json!({"name": "count_words", "title": "Count words", "description": "Counts the words in a piece of text.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            "annotations": read_only("Words")}),
        json!({"name": "shout", "title": "Shout", "description": "Turns text into upper case.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            "annotations": read_only("Shout")}),
        json!({"name": "celsius_to_fahrenheit", "title": "°C → °F", "description": "Converts a temperature from Celsius to Fahrenheit.",
            "inputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}, "required": ["celsius"]},
            "annotations": read_only("C to F")}),
        json!({"name": "fahrenheit_to_celsius", "title": "°F → °C", "description": "Converts a temperature from Fahrenheit to Celsius.",
            "inputSchema": {"type": "object", "properties": {"fahrenheit": {"type": "number"}}, "required": ["fahrenheit"]},
            "annotations": read_only("F to C")}),
        json!({"name": "km_to_miles", "title": "km → miles", "description": "Converts a distance from kilometres to miles.",
            "inputSchema": {"type": "object", "properties": {"km": {"type": "number", "minimum": 0}}, "required": ["km"]},
            "annotations": read_only("Distance")}),
        json!({"name": "country_capital", "title": "Capital city", "description": "The capital city of a country (France, Japan, Iceland, Kenya, Peru, Canada).",
            "inputSchema": {"type": "object", "properties": {"country": {"type": "string"}}, "required": ["country"]},
            "annotations": read_only("Capitals")}),
        json!({"name": "city_time_zone", "title": "Time zone", "description": "The IANA time zone of a city.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "annotations": read_only("Time zones")}),
        json!({"name": "pick_color", "title": "Pick a colour", "description": "Suggests a colour for a mood.",
            "inputSchema": {"type": "object", "properties": {"mood": {"type": "string", "enum": ["calm", "happy", "angry", "sad"]}}, "required": ["mood"]},
            "annotations": read_only("Colours")}),
        json!({"name": "make_list", "title": "Make a list", "description": "Formats items as a list, numbered or with bullets.",
            "inputSchema": {"type": "object", "properties": {
                "items": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "numbered": {"type": "boolean", "default": true}
            }, "required": ["items"]},
            "annotations": read_only("Lists")}),
        json!({"name": "book_table", "title": "Book a table", "description": "Books a restaurant table (pretend: nothing is booked, but the tool is marked as not read-only).",
            "inputSchema": {"type": "object", "properties": {
                "restaurant": {"type": "string"},
                "date": {"type": "string", "format": "date", "description": "YYYY-MM-DD"},
                "party": {"type": "object", "properties": {"adults": {"type": "integer", "minimum": 1, "default": 2}, "children": {"type": "integer", "minimum": 0, "default": 0}}, "required": ["adults"]}
            }, "required": ["restaurant", "date", "party"]},
            "annotations": {"title": "Bookings", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true}}),
    ];
    defs.into_iter().filter_map(tool).collect()
}

/// The tool `toggle_bonus_tool` adds.
pub fn bonus_tool() -> Option<Tool> {
    tool(json!({
        "name": BONUS,
        "title": "Secret recipe",
        "description": "Appears only after toggle_bonus_tool: returns the secret recipe.",
        "inputSchema": {"type": "object", "additionalProperties": false},
        "annotations": read_only("Secret")
    }))
}
