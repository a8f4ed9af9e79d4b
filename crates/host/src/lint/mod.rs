//! The schema portability lint: for each tool and each provider format, what the
//! provider's API would reject (it answers 400), what is rewritten before the model
//! sees it (by this host or by the API), and what is silently dropped.
//!
//! A finding's [`Severity`] is what the *format* does to the tool as the server
//! wrote it, so a server author learns what a host that sends tools unchanged
//! meets. Its [`HostAction`] says what this playground's host does about it first
//! (`provider::shape_tools`): the lint reads the same tables as the reshaping
//! (`GEMINI_KEYWORDS`, `STRICT_UNSUPPORTED`, [`crate::provider::name_rules`]), and
//! the tests check that every change the reshaping makes has a finding.
//!
//! Only what the providers document, or answer in their own error messages, is a
//! rule; each rule links the page that states it ([`Rule::doc`]).

mod gemini;
mod names;
mod ollama;
mod openai;
mod root;
mod rule;
mod walk;

pub use rule::Rule;

use mcpg_core::model::Tool;
use serde_json::{Value, json};

use crate::provider::Provider;

/// How bad a finding is for the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The API answers 400: no model call goes through with the tool as written.
    Reject,
    /// The schema or name is changed before the model sees it.
    Rewrite,
    /// A keyword is silently ignored: the model never sees that constraint.
    Drop,
}

impl Severity {
    /// A stable id: `reject`, `rewrite`, `drop`.
    pub fn id(self) -> &'static str {
        match self {
            Severity::Reject => "reject",
            Severity::Rewrite => "rewrite",
            Severity::Drop => "drop",
        }
    }
}

/// What this playground's host does about a finding before the request goes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HostAction {
    /// It sends another name and maps the model's calls back.
    Renames,
    /// It rewrites the schema into something the format takes.
    Rewrites,
    /// It removes the keyword.
    Removes,
    /// It sends the tool as it is.
    SendsAsIs,
}

impl HostAction {
    /// A stable id: `renames`, `rewrites`, `removes`, `sends-as-is`.
    pub fn id(self) -> &'static str {
        match self {
            HostAction::Renames => "renames",
            HostAction::Rewrites => "rewrites",
            HostAction::Removes => "removes",
            HostAction::SendsAsIs => "sends-as-is",
        }
    }
}

/// One thing a format does to one tool.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The MCP tool name, as the server sent it.
    pub tool: String,
    /// The provider format.
    pub format: Provider,
    /// Where, as a JSON pointer into the MCP tool (`/name`, `/inputSchema/properties/x`).
    pub pointer: String,
    /// Which rule.
    pub rule: Rule,
    /// What the format does.
    pub severity: Severity,
    /// What this host does about it first.
    pub host: HostAction,
    /// One sentence for people, which ends with what the host does (it quotes the
    /// server's names: escape it for a terminal).
    pub message: String,
}

impl Finding {
    /// The provider's page that states the rule.
    pub fn doc(&self) -> &'static str {
        self.rule.doc(self.format)
    }

    /// The finding as JSON, in the stable shape `mcpg tools lint --json` prints.
    pub fn to_json(&self) -> Value {
        json!({
            "tool": self.tool,
            "format": self.format.id(),
            "pointer": self.pointer,
            "rule": self.rule.id(),
            "severity": self.severity.id(),
            "host": self.host.id(),
            "message": self.message,
            "doc": self.doc(),
        })
    }
}

/// What the lint assumes of the host's request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LintOptions {
    /// OpenAI's strict mode (`strict: true` on each function), as in
    /// [`crate::provider::RequestOptions::strict`].
    pub strict: bool,
}

/// Lints `tools` for each of `formats`. The order is fixed: tools as given, then
/// formats as given, then severity (rejections first), pointer and rule.
pub fn lint(tools: &[Tool], formats: &[Provider], opts: LintOptions) -> Vec<Finding> {
    let mut out = Vec::new();
    for tool in tools {
        for &format in formats {
            let mut found = lint_one(tool, format, opts);
            found.sort_by(|a, b| {
                (a.severity, &a.pointer, a.rule).cmp(&(b.severity, &b.pointer, b.rule))
            });
            out.extend(found);
        }
    }
    out
}

/// Every finding for one tool under one format, unordered.
fn lint_one(tool: &Tool, format: Provider, opts: LintOptions) -> Vec<Finding> {
    let mut sink = Sink {
        tool: &tool.name,
        format,
        found: Vec::new(),
    };
    names::check(&tool.name, format, &mut sink);
    root::description(tool.description.as_deref(), &mut sink);
    if root::check(&tool.input_schema, format, opts, &mut sink) {
        // The rest is walked as the host reshapes it: after it set the root's type.
        let mut schema = tool.input_schema.clone();
        if let Value::Object(root) = &mut schema {
            root.insert("type".into(), Value::from("object"));
        }
        let schema = &schema;
        match format {
            Provider::Anthropic => {}
            Provider::OpenAiChat | Provider::OpenAiResponses => {
                openai::check(schema, opts, &mut sink)
            }
            Provider::Gemini => gemini::check(schema, &mut sink),
            Provider::Ollama => ollama::check(schema, &mut sink),
        }
    }
    sink.found
}

/// Where the rules put what they find, for one tool and one format.
pub(crate) struct Sink<'a> {
    tool: &'a str,
    format: Provider,
    found: Vec<Finding>,
}

impl Sink<'_> {
    fn push(
        &mut self,
        pointer: String,
        rule: Rule,
        severity: Severity,
        host: HostAction,
        message: String,
    ) {
        self.found.push(Finding {
            tool: self.tool.to_owned(),
            format: self.format,
            pointer,
            rule,
            severity,
            host,
            message,
        });
    }
}
