//! How the mock model fills a tool's arguments: it walks `inputSchema` and, for each
//! property, looks for evidence in the user's words (a number next to the property's
//! name, a quoted string, a capitalised name, an enum value, a date), then falls back
//! to the schema's default. Each choice is noted, so the page can say where every
//! value came from.

use mcpg_core::model::{JsonObject, Tool};
use serde_json::{Map, Value};

use crate::schema::fmt_num;
use crate::text::{self, Number, Word, capitalise, identifier_words, is_stop_word, same_word};

/// Arguments the mock model filled, with where each came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filled {
    /// The arguments object.
    pub arguments: JsonObject,
    /// One note per filled property: `city = "Austin" (a name in your message)`.
    pub notes: Vec<String>,
    /// Required properties it found no value for (dotted paths).
    pub missing: Vec<String>,
}

/// Property names that hold a place or a proper name.
const NAME_LIKE: &[&str] = &[
    "city",
    "country",
    "location",
    "place",
    "town",
    "restaurant",
    "name",
    "person",
    "where",
    "capital",
    "region",
    "state",
    "destination",
    "venue",
    "user",
    "who",
];

/// Property names that hold free text.
const TEXT_LIKE: &[&str] = &[
    "text", "message", "query", "input", "prompt", "content", "string", "sentence", "phrase",
    "words", "echo", "body", "value", "q",
];

/// Words that turn a boolean flag off when they precede its name.
const NEGATIONS: &[&str] = &["no", "not", "without", "dont", "never", "un"];

struct Ctx<'a> {
    message: &'a str,
    words: Vec<Word>,
    /// Words of the tool's name and title, to find where the free text starts.
    tool_words: Vec<String>,
    numbers: Vec<Number>,
    used_numbers: Vec<bool>,
    quotes: Vec<String>,
    used_quotes: Vec<bool>,
    names: Vec<(usize, String)>,
    used_names: Vec<bool>,
    date: Option<String>,
    /// Numbers already claimed by a property named next to them: (path, index).
    adjacent: Vec<(String, usize)>,
}

/// Fills the arguments of `tool` from `message`.
pub fn fill_arguments(tool: &Tool, message: &str) -> Filled {
    let words = text::words(message);
    let date = text::date(message);
    // Digits inside a date are not quantities.
    let date_span = date
        .as_ref()
        .and_then(|d| message.find(d.as_str()).map(|s| s..s + d.len()));
    let numbers: Vec<Number> = text::numbers(message)
        .into_iter()
        .filter(|n| {
            let start = words.get(n.index).map_or(0, |w| w.start);
            !date_span.as_ref().is_some_and(|r| r.contains(&start))
        })
        .collect();
    let quotes = text::quoted(message);
    let mut tool_words = identifier_words(&tool.name);
    if let Some(t) = &tool.title {
        tool_words.extend(text::words(t).into_iter().map(|w| w.lower));
    }
    tool_words.retain(|w| !is_stop_word(w));
    let names: Vec<(usize, String)> = text::names(&words)
        .into_iter()
        .filter(|(_, n)| {
            // "Get weather" is the tool, not a place.
            !text::words(n)
                .iter()
                .all(|w| tool_words.iter().any(|t| same_word(t, &w.lower)))
        })
        .collect();
    let mut ctx = Ctx {
        message,
        used_numbers: vec![false; numbers.len()],
        used_quotes: vec![false; quotes.len()],
        used_names: vec![false; names.len()],
        words,
        tool_words,
        numbers,
        quotes,
        names,
        date,
        adjacent: Vec::new(),
    };
    let mut out = Filled::default();
    if let Some(schema) = tool.input_schema.as_object() {
        claim_adjacent_numbers(schema, "", &mut ctx);
        out.arguments = fill_object(schema, "", &mut ctx, &mut out);
    }
    out
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

fn properties(schema: &Map<String, Value>) -> Vec<(&String, &Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.iter().collect())
        .unwrap_or_default()
}

fn type_of(prop: &Value) -> &str {
    match prop.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or(""),
        _ => "",
    }
}

/// First pass: "5 days", "to 10", "200 ms": a number right next to a word of a
/// numeric property's name belongs to that property, wherever the property sits.
fn claim_adjacent_numbers(schema: &Map<String, Value>, prefix: &str, ctx: &mut Ctx) {
    for (key, prop) in properties(schema) {
        let path = join(prefix, key);
        match type_of(prop) {
            "integer" | "number" => {
                let key_words = identifier_words(key);
                let integer = type_of(prop) == "integer";
                let found = ctx.numbers.iter().enumerate().find(|(i, n)| {
                    !ctx.used_numbers[*i]
                        && (n.integral || !integer)
                        && [n.index.checked_sub(1), Some(n.index + 1)]
                            .into_iter()
                            .flatten()
                            .filter_map(|j| ctx.words.get(j))
                            .any(|w| key_words.iter().any(|k| same_word(k, &w.lower)))
                });
                if let Some((i, _)) = found {
                    ctx.used_numbers[i] = true;
                    ctx.adjacent.push((path, i));
                }
            }
            "object" => {
                if let Some(inner) = prop.as_object() {
                    claim_adjacent_numbers(inner, &path, ctx);
                }
            }
            _ => {}
        }
    }
}

fn fill_object(
    schema: &Map<String, Value>,
    prefix: &str,
    ctx: &mut Ctx,
    out: &mut Filled,
) -> JsonObject {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut obj = JsonObject::new();
    for (key, prop) in properties(schema) {
        let path = join(prefix, key);
        let is_required = required.contains(&key.as_str());
        match fill_value(prop, key, &path, is_required, ctx, out) {
            Some((value, why)) => {
                if !value.is_object() {
                    out.notes.push(format!("{path} = {value} ({why})"));
                }
                obj.insert(key.clone(), value);
            }
            None if is_required => out.missing.push(path),
            None => {}
        }
    }
    obj
}

type Found = Option<(Value, &'static str)>;

fn fill_value(
    prop: &Value,
    key: &str,
    path: &str,
    required: bool,
    ctx: &mut Ctx,
    out: &mut Filled,
) -> Found {
    let default = prop
        .get("default")
        .cloned()
        .map(|d| (d, "the schema's default"));
    if let Some(Value::Array(values)) = prop.get("enum") {
        return enum_value(values, ctx).or(default);
    }
    match type_of(prop) {
        "integer" | "number" => number_value(prop, path, ctx).or(default),
        "boolean" => bool_value(key, ctx)
            .or(default)
            .or_else(|| required.then_some((Value::Bool(false), "no flag in your message"))),
        "string" => string_value(prop, key, required, ctx).or(default),
        "array" => array_value(prop, ctx).or(default),
        "object" => {
            let inner = prop.as_object()?;
            let nested = fill_object(inner, path, ctx, out);
            if nested.is_empty() && !required {
                default
            } else {
                Some((Value::Object(nested), "filled member by member"))
            }
        }
        _ => default,
    }
}

fn enum_value(values: &[Value], ctx: &Ctx) -> Found {
    values.iter().find_map(|v| {
        let s = v.as_str()?;
        let parts = identifier_words(s);
        let all_there = !parts.is_empty()
            && parts
                .iter()
                .all(|p| ctx.words.iter().any(|w| same_word(&w.lower, p)));
        all_there.then(|| (v.clone(), "an allowed value you mentioned"))
    })
}

fn number_value(prop: &Value, path: &str, ctx: &mut Ctx) -> Found {
    let integer = type_of(prop) == "integer";
    let to_value = |n: &Number| {
        if integer || (n.integral && n.value.abs() < 1e15) {
            Value::from(n.value as i64)
        } else {
            serde_json::Number::from_f64(n.value).map_or(Value::Null, Value::Number)
        }
    };
    if let Some((_, i)) = ctx.adjacent.iter().find(|(p, _)| p == path) {
        return ctx
            .numbers
            .get(*i)
            .map(|n| (to_value(n), "the number next to its name"));
    }
    // Optional numbers with a default keep it unless the user named them.
    if prop.get("default").is_some() {
        return None;
    }
    let (i, n) = ctx
        .numbers
        .iter()
        .enumerate()
        .find(|(i, n)| !ctx.used_numbers[*i] && (n.integral || !integer))?;
    let n = *n;
    ctx.used_numbers[i] = true;
    Some((to_value(&n), "the next number in your message"))
}

fn bool_value(key: &str, ctx: &Ctx) -> Found {
    let key_words = identifier_words(key);
    let pos = ctx
        .words
        .iter()
        .position(|w| key_words.iter().any(|k| same_word(k, &w.lower)))?;
    let negated = pos
        .checked_sub(1)
        .and_then(|p| ctx.words.get(p))
        .is_some_and(|w| NEGATIONS.contains(&w.lower.as_str()));
    Some((Value::Bool(!negated), "its name in your message"))
}

fn describes(prop: &Value, key: &str, list: &[&str]) -> bool {
    let mut ws = identifier_words(key);
    if let Some(d) = prop.get("description").and_then(Value::as_str) {
        ws.extend(text::words(d).into_iter().map(|w| w.lower));
    }
    ws.iter().any(|w| list.contains(&w.as_str()))
}

fn string_value(prop: &Value, key: &str, required: bool, ctx: &mut Ctx) -> Found {
    if prop.get("format").and_then(Value::as_str) == Some("date") {
        return ctx
            .date
            .clone()
            .map(|d| (Value::from(d), "the date in your message"));
    }
    if let Some(i) = (0..ctx.quotes.len()).find(|i| !ctx.used_quotes[*i]) {
        ctx.used_quotes[i] = true;
        return Some((Value::from(ctx.quotes[i].clone()), "the quoted text"));
    }
    let name_like = describes(prop, key, NAME_LIKE);
    let text_like = describes(prop, key, TEXT_LIKE);
    if (name_like || (required && !text_like))
        && let Some(found) = name_value(ctx)
    {
        return Some(found);
    }
    if text_like || (required && prop.get("default").is_none()) {
        return rest_of_message(key, ctx).map(|t| (Value::from(t), "the rest of your message"));
    }
    None
}

/// A capitalised name, else the word after "in", "for", "at" or "of" (typed in lower
/// case: "weather in austin").
fn name_value(ctx: &mut Ctx) -> Found {
    if let Some(i) = (0..ctx.names.len()).find(|i| !ctx.used_names[*i]) {
        ctx.used_names[i] = true;
        return Some((
            Value::from(ctx.names[i].1.clone()),
            "a name in your message",
        ));
    }
    let after_preposition = ctx.words.windows(2).find_map(|pair| {
        let [p, w] = pair else { return None };
        let candidate = matches!(p.lower.as_str(), "in" | "for" | "at" | "of")
            && !is_stop_word(&w.lower)
            && !w.lower.chars().all(|c| c.is_ascii_digit())
            && !ctx.tool_words.iter().any(|t| same_word(t, &w.lower));
        candidate.then(|| capitalise(&w.text))
    })?;
    Some((
        Value::from(after_preposition),
        "the word after a preposition",
    ))
}

/// The free text: after a colon, else after the first word naming the tool, with
/// leading filler ("the text …") dropped.
fn rest_of_message(key: &str, ctx: &Ctx) -> Option<String> {
    let start = match ctx.message.find(':') {
        Some(colon) => colon + 1,
        None => {
            let w = ctx
                .words
                .iter()
                .find(|w| ctx.tool_words.iter().any(|t| same_word(t, &w.lower)))?;
            w.start + w.text.len()
        }
    };
    let rest = ctx.message.get(start..)?;
    let key_words = identifier_words(key);
    let mut words = text::words(rest).into_iter().peekable();
    let mut skip_to = 0;
    while let Some(w) = words.peek() {
        let filler = is_stop_word(&w.lower)
            || key_words.iter().any(|k| same_word(k, &w.lower))
            || ctx.tool_words.iter().any(|t| same_word(t, &w.lower));
        if !filler {
            skip_to = w.start;
            break;
        }
        words.next();
    }
    // Nothing but filler: no free text to give.
    words.peek()?;
    let text = rest
        .get(skip_to..)?
        .trim()
        .trim_end_matches(['?', '!', '.'])
        .trim();
    (!text.is_empty()).then(|| text.to_owned())
}

fn array_value(prop: &Value, ctx: &mut Ctx) -> Found {
    let item_type = prop.get("items").map_or("", type_of);
    match item_type {
        "number" | "integer" => {
            let mut list = Vec::new();
            for (i, n) in ctx.numbers.iter().enumerate() {
                if !ctx.used_numbers[i] && (n.integral || item_type == "number") {
                    ctx.used_numbers[i] = true;
                    list.push(Value::from(
                        fmt_num(n.value).parse::<f64>().unwrap_or(n.value),
                    ));
                }
            }
            (!list.is_empty()).then(|| (Value::Array(list), "the numbers in your message"))
        }
        "string" | "" => {
            let unused: Vec<String> = ctx
                .quotes
                .iter()
                .zip(&ctx.used_quotes)
                .filter(|(_, used)| !**used)
                .map(|(q, _)| q.clone())
                .collect();
            if !unused.is_empty() {
                ctx.used_quotes.iter_mut().for_each(|u| *u = true);
                let list = unused.into_iter().map(Value::from).collect();
                return Some((Value::Array(list), "the quoted items"));
            }
            let list = listed_items(ctx.message);
            (!list.is_empty()).then(|| {
                (
                    Value::Array(list.into_iter().map(Value::from).collect()),
                    "the items you listed",
                )
            })
        }
        _ => None,
    }
}

/// "…: eggs, milk and bread" or "a list of eggs, milk and bread" → the items.
fn listed_items(message: &str) -> Vec<String> {
    let start = match message.find(':') {
        Some(colon) => colon + 1,
        None => {
            let Some(comma) = message.find(',') else {
                return Vec::new();
            };
            // From the word before the first comma.
            message[..comma]
                .rfind(char::is_whitespace)
                .map_or(0, |s| s + 1)
        }
    };
    message[start..]
        .trim()
        .trim_end_matches(['?', '!', '.'])
        .split(',')
        .flat_map(|part| part.split(" and "))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}
