//! The demo's weather, shared by the tools (`get_weather`, `get_forecast`) and the
//! `weather://` resource templates: a fixed table, so answers never change.

use serde_json::{Value, json};

/// `(city, °F, sky)`.
pub const WEATHER: [(&str, i64, &str); 5] = [
    ("Austin", 91, "sunny"),
    ("Paris", 64, "light rain"),
    ("Tokyo", 75, "cloudy"),
    ("London", 58, "drizzle"),
    ("Reykjavik", 41, "windy"),
];

/// A city of the table, by name in any ASCII case, surrounding spaces ignored.
pub fn find_city(name: &str) -> Option<(&'static str, i64, &'static str)> {
    let wanted = name.trim();
    WEATHER
        .iter()
        .copied()
        .find(|(c, _, _)| c.eq_ignore_ascii_case(wanted))
}

/// Today's line: `Austin: 91F, sunny`.
pub fn today((c, t, sky): (&str, i64, &str)) -> String {
    format!("{c}: {t}F, {sky}")
}

/// The weather card's details line (`get_weather_details`, app-only): humidity
/// and wind, derived from the table so they never change.
pub fn details((c, t, sky): (&str, i64, &str)) -> String {
    let humidity = match sky {
        "sunny" => 35,
        "light rain" | "drizzle" => 85,
        _ => 60,
    };
    let wind = if sky == "windy" { 31 } else { 5 + t % 7 };
    format!("{c}: humidity {humidity}%, wind {wind} mph")
}

/// The city whose forecast has a gap: day 2 has no high (`null`), which breaks
/// the integer `get_forecast`'s outputSchema promises. On purpose: the lesson on
/// structured output that breaks its schema runs it.
pub const GAP_CITY: &str = "Reykjavik";

/// The forecast `get_forecast` returns as structured content.
pub fn forecast((c, t, sky): (&str, i64, &str), days: i64) -> Value {
    let list: Vec<Value> = (1..=days)
        .map(|d| {
            let high = if c == GAP_CITY && d == 2 {
                Value::Null
            } else {
                Value::from(t + (d % 3) - 1)
            };
            json!({"day": d, "high": high, "low": t - 12 + (d % 2), "sky": if d % 2 == 0 { "clear" } else { sky }})
        })
        .collect();
    json!({"city": c, "days": list})
}
