//! The cases file (`mcpg eval cases.toml`): what each case asks and what it expects.
//!
//! ```toml
//! [[case]]
//! name = "weather in Austin"
//! message = "What's the weather in Austin?"   # or: prompt = { name = "plan_trip", arguments = { city = "Austin" } }
//! max_rounds = 1                                # rounds of tool calls allowed (default 5)
//! threshold = 1.0                               # pass rate needed (default 1.0)
//! [[case.expect]]                               # expected calls, in order (others may come between)
//! tool = "get_weather"
//! args = { city = "Austin" }                    # exact; or { regex = "…" }, { schema = {…} }, { exact = … }
//! [case.answer]
//! contains = ["Austin"]
//! not_contains = ["error"]
//! ```

use serde::Deserialize;
use serde_json::{Map, Value};

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// The cases, in order.
    #[serde(rename = "case", default)]
    pub cases: Vec<Case>,
}

/// One case.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Its name in the table and the JUnit report.
    pub name: String,
    /// The user's message.
    pub message: Option<String>,
    /// Or a prompt from the server.
    pub prompt: Option<PromptRef>,
    /// Expected tool calls, in order.
    #[serde(default)]
    pub expect: Vec<ExpectedCall>,
    /// The model must answer without calling any tool.
    #[serde(default)]
    pub no_tools: bool,
    /// Expectations on the final answer.
    #[serde(default)]
    pub answer: AnswerCheck,
    /// Rounds of tool calls allowed.
    pub max_rounds: Option<u32>,
    /// The pass rate the case needs over its repeats (0 to 1).
    pub threshold: Option<f64>,
}

/// A server prompt and its arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptRef {
    /// The prompt's name.
    pub name: String,
    /// Its arguments (strings, as MCP has them).
    #[serde(default)]
    pub arguments: toml::Table,
}

/// One expected tool call.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedCall {
    /// The tool's MCP name.
    pub tool: String,
    /// Matchers per argument; arguments not named here may be anything.
    #[serde(default)]
    pub args: toml::Table,
}

/// What the final answer must and must not contain (case-insensitive).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerCheck {
    /// Each must appear.
    #[serde(default)]
    pub contains: Vec<String>,
    /// None may appear.
    #[serde(default)]
    pub not_contains: Vec<String>,
}

/// An argument matcher.
#[derive(Debug)]
pub enum Matcher {
    /// This exact JSON value.
    Exact(Value),
    /// A string matching this regular expression.
    Regex(regex::Regex),
    /// A value valid against this JSON Schema (the host's checker).
    Schema(Value),
}

/// Why a cases file was refused.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// Not TOML, or not the cases' shape.
    #[error("{0}")]
    Toml(#[from] toml::de::Error),
    /// A case is wrong in itself.
    #[error("case {case:?}: {why}")]
    Case {
        /// The case's name.
        case: String,
        /// What is wrong.
        why: String,
    },
}

impl Suite {
    /// Parses and checks a cases file.
    pub fn parse(text: &str) -> Result<Suite, SuiteError> {
        let suite: Suite = toml::from_str(text)?;
        if suite.cases.is_empty() {
            return Err(SuiteError::Case {
                case: String::new(),
                why: "the file has no [[case]]".into(),
            });
        }
        for c in &suite.cases {
            let bad = |why: String| SuiteError::Case {
                case: c.name.clone(),
                why,
            };
            match (&c.message, &c.prompt) {
                (Some(_), None) | (None, Some(_)) => {}
                _ => return Err(bad("give exactly one of message and prompt".into())),
            }
            if let Some(t) = c.threshold
                && !(0.0..=1.0).contains(&t)
            {
                return Err(bad(format!("threshold {t} is not between 0 and 1")));
            }
            if c.no_tools && !c.expect.is_empty() {
                return Err(bad("no_tools and expect contradict each other".into()));
            }
            for e in &c.expect {
                for (arg, m) in &e.args {
                    matcher(m).map_err(|why| bad(format!("{}.{arg}: {why}", e.tool)))?;
                }
            }
        }
        Ok(suite)
    }
}

/// A TOML value as JSON.
pub fn json_of(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.iter().map(json_of).collect()),
        toml::Value::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.clone(), json_of(v)))
                .collect::<Map<String, Value>>(),
        ),
    }
}

/// The matcher a TOML value stands for: a one-key table `exact`, `regex` or
/// `schema`, or else the value itself, matched exactly.
pub fn matcher(v: &toml::Value) -> Result<Matcher, String> {
    if let toml::Value::Table(t) = v
        && t.len() == 1
        && let Some((k, inner)) = t.iter().next()
    {
        match k.as_str() {
            "exact" => return Ok(Matcher::Exact(json_of(inner))),
            "regex" => {
                let text = inner.as_str().ok_or("regex must be a string")?;
                return regex::Regex::new(text)
                    .map(Matcher::Regex)
                    .map_err(|e| format!("bad regex: {e}"));
            }
            "schema" => {
                let schema = json_of(inner);
                if !schema.is_object() {
                    return Err("schema must be a table".into());
                }
                return Ok(Matcher::Schema(schema));
            }
            _ => {}
        }
    }
    Ok(Matcher::Exact(json_of(v)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_parses_and_bad_cases_are_named() {
        let s = Suite::parse(
            r#"
[[case]]
name = "a"
message = "hi"
[[case.expect]]
tool = "t"
args = { x = 1, y = { regex = "^a" }, z = { schema = { type = "integer" } } }
"#,
        )
        .unwrap();
        assert_eq!(s.cases[0].expect[0].args.len(), 3);
        let m = matcher(&s.cases[0].expect[0].args["y"]).unwrap();
        assert!(matches!(m, Matcher::Regex(_)));
        let err = Suite::parse("[[case]]\nname = \"b\"\n").unwrap_err();
        assert!(err.to_string().contains("case \"b\""), "{err}");
        let err = Suite::parse(
            "[[case]]\nname = \"c\"\nmessage = \"m\"\n[[case.expect]]\ntool = \"t\"\nargs = { x = { regex = \"(\" } }\n",
        )
        .unwrap_err();
        assert!(err.to_string().contains("t.x: bad regex"), "{err}");
        assert!(Suite::parse("[[case]]\nname = \"d\"\nmessage = \"m\"\ntypo = 1\n").is_err());
    }
}
