//! `--on-elicit ask`: the person at the terminal answers an elicitation, field by
//! field, or opens a URL themselves. Generic over the input and output so the
//! dialogue is tested with scripted lines; everything the server wrote is escaped.

use std::io::{self, BufRead, Write};

use mcpg_core::model::JsonObject;
use mcpg_host::form::{self, Field, FieldKind, Values};
use serde_json::Value;

use crate::escape;

/// How many times a form is asked again after answers the schema refuses.
const MAX_ATTEMPTS: usize = 5;

/// What the person chose.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    /// Accept, with this content (empty for a URL).
    Accept(JsonObject),
    /// Decline.
    Decline,
    /// Cancel (also what the end of input means).
    Cancel,
}

/// A terminal dialogue over `input` and `output`.
pub struct Prompter<R, W> {
    input: R,
    output: W,
}

impl<R: BufRead, W: Write> Prompter<R, W> {
    /// A dialogue reading `input` and writing `output`.
    pub fn new(input: R, output: W) -> Self {
        Prompter { input, output }
    }

    /// One line of input without its line end; `None` at the end of input.
    fn read(&mut self) -> io::Result<Option<String>> {
        self.output.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        Ok(Some(line.trim_end_matches(['\r', '\n']).to_owned()))
    }

    /// Accept, decline or cancel; `None` when the input ended.
    fn action(&mut self, accept_word: &str) -> io::Result<Option<Choice>> {
        loop {
            write!(
                self.output,
                "{accept_word} (a), decline (d) or cancel (c)? [a] "
            )?;
            let Some(line) = self.read()? else {
                return Ok(None);
            };
            match line.trim().to_ascii_lowercase().as_str() {
                "" | "a" | "accept" => return Ok(Some(Choice::Accept(JsonObject::new()))),
                "d" | "decline" => return Ok(Some(Choice::Decline)),
                "c" | "cancel" => return Ok(Some(Choice::Cancel)),
                _ => writeln!(self.output, "  type a, d or c")?,
            }
        }
    }

    /// A form elicitation: the message, then accept/decline/cancel, then each
    /// field (Enter keeps the value shown in brackets), checked by `check`
    /// (the schema's rules); refused answers are shown and the form asked again.
    pub fn form(
        &mut self,
        message: &str,
        fields: &[Field],
        mut values: Values,
        check: impl Fn(&Values) -> (JsonObject, Vec<form::FieldError>),
    ) -> io::Result<Choice> {
        writeln!(self.output, "The server asks: {}", escape::text(message))?;
        match self.action("accept and fill in the form")? {
            Some(Choice::Accept(_)) => {}
            Some(other) => return Ok(other),
            None => return Ok(Choice::Cancel),
        }
        for _ in 0..MAX_ATTEMPTS {
            if !self.fields(fields, &mut values)? {
                return Ok(Choice::Cancel);
            }
            let (content, errors) = check(&values);
            if errors.is_empty() {
                return Ok(Choice::Accept(content));
            }
            for e in errors {
                let at = if e.path.is_empty() { "form" } else { &e.path };
                let (at, why) = (escape::line(at), escape::line(&e.message));
                writeln!(self.output, "  {at}: {why}")?;
            }
            writeln!(self.output, "Please answer again.")?;
        }
        writeln!(self.output, "Too many refused answers: cancelling.")?;
        Ok(Choice::Cancel)
    }

    /// Asks every field once, objects member by member; `false` when input ended.
    fn fields(&mut self, fields: &[Field], values: &mut Values) -> io::Result<bool> {
        for f in fields {
            let more = match &f.kind {
                FieldKind::Object(inner) => {
                    writeln!(self.output, "{}:", escape::line(&f.path))?;
                    self.fields(inner, values)?
                }
                _ => self.field(f, values)?,
            };
            if !more {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// One field: its name, kind, description and choices, then one line.
    fn field(&mut self, f: &Field, values: &mut Values) -> io::Result<bool> {
        let mut about = vec![kind_word(&f.kind).to_owned()];
        if f.required {
            about.push("required".into());
        }
        // The page's hint for lists says "one item per line"; here they are comma-separated.
        let hint = f.hint.as_deref().map(|h| {
            h.split(", ")
                .filter(|p| *p != "one item per line")
                .collect::<Vec<_>>()
                .join(", ")
        });
        if let Some(h) = hint.filter(|h| !h.is_empty()) {
            about.push(escape::line(&h));
        }
        write!(
            self.output,
            "  {} ({})",
            escape::line(&f.path),
            about.join(", ")
        )?;
        if let Some(d) = &f.description {
            write!(self.output, ": {}", escape::line(d))?;
        }
        writeln!(self.output)?;
        let choices = choices(&f.kind);
        for (i, c) in choices.iter().enumerate() {
            let value = escape::line(&shown(c));
            match f.titles.get(i).filter(|t| **t != shown(c)) {
                Some(t) => writeln!(self.output, "    {}) {} ({value})", i + 1, escape::line(t))?,
                None => writeln!(self.output, "    {}) {value}", i + 1)?,
            }
        }
        let current = values.get(&f.path).cloned().unwrap_or_default();
        write!(
            self.output,
            "  > [{}] ",
            escape::line(&current.replace('\n', ", "))
        )?;
        let Some(line) = self.read()? else {
            return Ok(false);
        };
        let typed = line.trim();
        if typed == "-" {
            // `-` empties a field that has a default, to leave it out.
            values.remove(&f.path);
        } else if !typed.is_empty() {
            values.insert(f.path.clone(), input_for(&f.kind, &choices, typed));
        }
        Ok(true)
    }

    /// A URL elicitation: the full URL and its domain are shown; mcpg never opens
    /// it. Enter accepts once the person has opened it themselves.
    pub fn url(&mut self, message: &str, url: &str, domain: &str) -> io::Result<Choice> {
        writeln!(
            self.output,
            "The server asks you to open a URL: {}",
            escape::text(message)
        )?;
        writeln!(self.output, "  URL:    {}", escape::line(url))?;
        writeln!(self.output, "  domain: {}", escape::line(domain))?;
        writeln!(
            self.output,
            "mcpg does not open it. Open it yourself only if you trust {}, then come back.",
            escape::line(domain)
        )?;
        Ok(self
            .action("accept (I opened it)")?
            .unwrap_or(Choice::Cancel))
    }
}

/// The values a field offers to pick from by number.
fn choices(kind: &FieldKind) -> Vec<Value> {
    match kind {
        FieldKind::Enum(values) => values.clone(),
        FieldKind::Boolean => vec![Value::Bool(true), Value::Bool(false)],
        FieldKind::List(item) => choices(item),
        _ => Vec::new(),
    }
}

/// A choice as shown: strings without quotes.
fn shown(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

/// The form's text for what was typed: a number picks a choice, a list takes
/// items separated by commas.
fn input_for(kind: &FieldKind, choices: &[Value], typed: &str) -> String {
    let pick = |t: &str| -> Option<Value> {
        let by_number = t
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| choices.get(i));
        by_number
            .or_else(|| choices.iter().find(|c| shown(c) == t))
            .cloned()
    };
    match kind {
        FieldKind::List(item) => typed
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| pick(t).map_or_else(|| t.to_owned(), |v| form::value_to_input(item, &v)))
            .collect::<Vec<_>>()
            .join("\n"),
        FieldKind::Enum(_) | FieldKind::Boolean => match pick(typed) {
            Some(v) => form::value_to_input(kind, &v),
            // Not a choice: kept as typed so the check names the problem.
            None => typed.to_owned(),
        },
        _ => typed.to_owned(),
    }
}

fn kind_word(kind: &FieldKind) -> &'static str {
    match kind {
        FieldKind::Text => "text",
        FieldKind::Number => "number",
        FieldKind::Integer => "whole number",
        FieldKind::Boolean => "yes/no: 1 or 2",
        FieldKind::Enum(_) => "pick one: number or value",
        FieldKind::List(item) if !choices(item).is_empty() => "pick any: numbers, comma-separated",
        FieldKind::List(_) => "items, comma-separated",
        FieldKind::Object(_) => "object",
        FieldKind::Json => "JSON",
    }
}

/// The terminal dialogue, driven by scripted lines.
#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use mcpg_host::asks;
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "party_size": {"type": "integer", "default": 2, "minimum": 1, "maximum": 12},
                "time": {"type": "string", "description": "When, as HH:MM"},
                "seat": {"type": "string", "oneOf": [{"const": "inside", "title": "Inside"}, {"const": "terrace", "title": "On the terrace"}]},
                "extras": {"type": "array", "items": {"type": "string", "enum": ["bread", "wine", "cake"]}},
                "vegan": {"type": "boolean"}
            },
            "required": ["time"]
        })
    }

    /// Runs the form dialogue on `script`, returning the choice and what was shown.
    fn run_form(script: &str) -> (Choice, String) {
        let schema = schema();
        let fields = asks::elicit_fields(&schema);
        let values = form::initial_values(&fields, Some(&asks::elicit_defaults(&schema)));
        let mut out = Vec::new();
        let choice = Prompter::new(script.as_bytes(), &mut out)
            .form("Book a table\u{1b}[2J", &fields, values, |v| {
                asks::elicit_content(&schema, &fields, v)
            })
            .unwrap();
        (choice, String::from_utf8(out).unwrap())
    }

    #[test]
    fn fields_one_by_one_with_defaults_and_choices() {
        // Enter keeps the default 2; the seat is picked by number.
        let (choice, shown) = run_form("a\n\n19:30\n2\n1, wine\n1\n");
        let Choice::Accept(content) = choice else {
            panic!("{choice:?}")
        };
        assert_eq!(
            Value::Object(content),
            json!({"party_size": 2, "time": "19:30", "seat": "terrace", "extras": ["bread", "wine"], "vegan": true})
        );
        assert!(
            shown.contains("party_size (whole number, 1 to 12)"),
            "{shown}"
        );
        assert!(
            shown.contains("time (text, required): When, as HH:MM"),
            "{shown}"
        );
        assert!(shown.contains("2) On the terrace (terrace)"), "{shown}");
        assert!(
            shown.contains("extras (pick any: numbers, comma-separated)"),
            "{shown}"
        );
        assert!(shown.contains("3) cake"), "{shown}");
        // The server's escape sequence is shown, not obeyed.
        assert!(shown.contains("Book a table\\u{1b}[2J"), "{shown}");
    }

    #[test]
    fn refused_answers_are_named_and_asked_again() {
        // First round: no time (required) and 40 people (above the maximum).
        let (choice, shown) = run_form("\n40\n\n\n\n\n5\n12:00\n\n\n\n");
        let Choice::Accept(content) = choice else {
            panic!("{choice:?}")
        };
        assert_eq!(content.get("party_size"), Some(&json!(5)));
        assert_eq!(content.get("time"), Some(&json!("12:00")));
        assert!(shown.contains("  time: required"), "{shown}");
        assert!(shown.contains("Please answer again."), "{shown}");
    }

    #[test]
    fn decline_cancel_and_end_of_input() {
        assert_eq!(run_form("d\n").0, Choice::Decline);
        assert_eq!(run_form("cancel\n").0, Choice::Cancel);
        assert_eq!(run_form("").0, Choice::Cancel);
        // The input ends in the middle of the form: nothing half-filled is sent.
        assert_eq!(run_form("a\n3\n").0, Choice::Cancel);
        let (choice, shown) = run_form("x\nd\n");
        assert_eq!(choice, Choice::Decline);
        assert!(shown.contains("type a, d or c"), "{shown}");
    }

    #[test]
    fn a_url_is_shown_with_its_domain_and_never_opened() {
        let mut out = Vec::new();
        let choice = Prompter::new("\n".as_bytes(), &mut out)
            .url(
                "Sign in",
                "https://auth.example.com/start?x=1",
                "auth.example.com",
            )
            .unwrap();
        assert_eq!(choice, Choice::Accept(JsonObject::new()));
        let shown = String::from_utf8(out).unwrap();
        assert!(shown.contains("URL:    https://auth.example.com/start?x=1"));
        assert!(shown.contains("domain: auth.example.com"));
        assert!(shown.contains("mcpg does not open it"));
        let mut out = Vec::new();
        let choice = Prompter::new("d\n".as_bytes(), &mut out)
            .url("Sign in", "https://a.example/", "a.example")
            .unwrap();
        assert_eq!(choice, Choice::Decline);
    }
}
