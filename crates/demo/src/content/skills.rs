//! The demo's skill (MCP Skills, SEP-2640, declared under 2026-07-28):
//! `weather-report`, a `SKILL.md` and one reference file, served as resources under
//! `skill://weather-report/`. Its entry carries each file's SHA-256 and size, taken
//! from the same bytes `resources/read` returns, so a host's verification holds.

use mcpg_skills::Digest;
use serde_json::{Value, json};

/// The skill's files: `(uri, text)`, `SKILL.md` first.
pub const FILES: [(&str, &str); 2] = [
    (
        "skill://weather-report/SKILL.md",
        include_str!("skills/weather-report/SKILL.md"),
    ),
    (
        "skill://weather-report/references/cities.md",
        include_str!("skills/weather-report/references/cities.md"),
    ),
];

/// The skill's entry, as `skills/list` and `skills/get` return it: the
/// frontmatter as written (three fields), and every file with its digest.
pub fn entries() -> Vec<Value> {
    let resources: Vec<Value> = FILES
        .iter()
        .map(|(uri, text)| {
            json!({"uri": uri, "digest": Digest::of(text.as_bytes()).to_string(), "size": text.len()})
        })
        .collect();
    vec![json!({
        "uri": FILES[0].0,
        "frontmatter": {
            "name": "weather-report",
            "description": "Write a short weather report for a city with this server's tools (get_weather, then get_forecast), and say plainly when a city is unknown.",
            "license": "MIT",
        },
        "resources": resources,
    })]
}

/// The text of a skill file, by URI.
pub fn file(uri: &str) -> Option<&'static str> {
    FILES.iter().find(|(u, _)| *u == uri).map(|(_, t)| *t)
}
