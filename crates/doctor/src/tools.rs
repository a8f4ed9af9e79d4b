//! The tools: every page of `tools/list`, the `x-mcp-header` annotations, and
//! each tool's name and schemas, judged from the raw page results (the page's
//! wire log and the CLI's driver both keep them), so that a tool the core leaves
//! out of a listing is still judged.

use std::collections::HashSet;

use mcpg_core::ProtocolVersion;
use mcpg_core::client::{param_header_count, param_header_problem};
use mcpg_core::diag::{Diagnostic, Severity};
use mcpg_core::model::Tool;
use mcpg_core::validate;
use serde_json::Value;

use crate::advice::rpc_fix;
use crate::check::{Check, Finding};

/// How a listing went.
#[derive(Clone, Debug, PartialEq)]
pub enum ListingSeen {
    /// Every page's raw `result`, in order.
    Listed(Vec<Value>),
    /// The server answered with a JSON-RPC error.
    Refused {
        /// Its code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// No usable answer, in words (a repeating cursor, a timeout…).
    Failed(String),
}

/// Every tool entry of the pages, raw.
pub fn raw_tools(pages: &[Value]) -> Vec<&Value> {
    pages
        .iter()
        .filter_map(|p| p.get("tools").and_then(Value::as_array))
        .flatten()
        .collect()
}

/// Judges the listing; `declared` says whether the server declared `tools`.
pub fn list(seen: &ListingSeen, declared: bool) -> Finding {
    match seen {
        ListingSeen::Listed(pages) => {
            let n = raw_tools(pages).len();
            let p = pages.len();
            let (tools, pages_word) = (plural(n, "tool"), plural(p, "page"));
            Finding::pass(Check::ToolsList, format!("{tools} in {pages_word}"))
        }
        ListingSeen::Refused { code, .. } if !declared && *code == -32601 => Finding::skip(
            Check::ToolsList,
            "the server has no tools (it did not declare them and tools/list is not found)",
        ),
        ListingSeen::Refused { code, message } => Finding::fail(
            Check::ToolsList,
            format!("tools/list answered error {code}: {message}"),
            rpc_fix("tools/list", *code, message),
        ),
        ListingSeen::Failed(why) => Finding::fail(
            Check::ToolsList,
            format!("tools/list: {why}"),
            "Every page of tools/list must be answered, and each nextCursor must lead on \
             (never repeat); read the server's logs.",
        ),
    }
}

/// Judges the tools' `x-mcp-header` annotations under the revision `version`
/// (they mean something from 2026-07-28 on).
pub fn param_headers(pages: &[Value], version: ProtocolVersion) -> Finding {
    let stateless = version >= ProtocolVersion::V2026_07_28;
    let mut bad: Vec<String> = Vec::new();
    let (mut tools, mut headers) = (0, 0);
    for t in raw_tools(pages) {
        let name = t.get("name").and_then(Value::as_str).unwrap_or("(unnamed)");
        let Some(schema) = t.get("inputSchema") else {
            continue;
        };
        match (param_header_problem(schema), param_header_count(schema)) {
            (Some(why), _) => bad.push(format!("tool {name:?}: {why}")),
            (None, Some(n)) if n > 0 => {
                tools += 1;
                headers += n;
            }
            _ => {}
        }
    }
    if bad.is_empty() {
        return if headers == 0 {
            Finding::pass(Check::ParamHeaders, "no tool uses x-mcp-header")
        } else {
            Finding::pass(
                Check::ParamHeaders,
                format!(
                    "{} {} {} into Mcp-Param-* headers; every annotation is valid",
                    plural(tools, "tool"),
                    if tools == 1 { "mirrors" } else { "mirror" },
                    plural(headers, "argument")
                ),
            )
        };
    }
    let evidence = summary(&bad);
    let fix = "An x-mcp-header must sit on a property reachable through `properties` alone, \
               of type string, integer or boolean, name a valid header token, once per tool \
               (ignoring case).";
    if stateless {
        Finding::fail(
            Check::ParamHeaders,
            format!("{evidence}; 2026-07-28 clients leave these tools out of the listing"),
            fix,
        )
    } else {
        Finding::warn(
            Check::ParamHeaders,
            format!(
                "{evidence}; under {version} nobody reads them, but 2026-07-28 clients leave these tools out"
            ),
            fix,
        )
    }
}

/// Judges each tool's name, `inputSchema` and `outputSchema` against the spec
/// of `version` (the core's own checks), and that names are unique.
pub fn schemas(pages: &[Value], version: ProtocolVersion) -> Finding {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut unreadable: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let raw = raw_tools(pages);
    for (i, t) in raw.iter().enumerate() {
        match Tool::from_json(t) {
            Ok(tool) => {
                validate::check_tool(&tool, version, &mut diags);
                validate::check_unique(&tool, &mut seen, &mut diags);
            }
            Err(e) => unreadable.push(format!("tools[{i}] cannot be read: {e}")),
        }
    }
    let errors: Vec<String> = unreadable
        .into_iter()
        .chain(
            diags
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| format!("{} [{}]", d.message, d.rule.id())),
        )
        .collect();
    let warnings: Vec<String> = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| format!("{} [{}]", d.message, d.rule.id()))
        .collect();
    let first_section = diags
        .first()
        .map(|d| d.rule.section())
        .unwrap_or("server/tools");
    let fix = format!(
        "Each tool needs a name of 1-128 characters from A-Za-z0-9_-. (unique), an \
         inputSchema that is a JSON Schema object with \"type\": \"object\", and an \
         outputSchema (when given) of the same kind (spec: {first_section})."
    );
    let checked = plural(raw.len(), "tool");
    if !errors.is_empty() {
        let all: Vec<String> = errors.into_iter().chain(warnings).collect();
        return Finding::fail(
            Check::ToolSchemas,
            format!("{checked}: {}", summary(&all)),
            fix,
        );
    }
    if !warnings.is_empty() {
        return Finding::warn(
            Check::ToolSchemas,
            format!("{checked}: {}", summary(&warnings)),
            fix,
        );
    }
    Finding::pass(
        Check::ToolSchemas,
        format!("{checked}: names and schemas follow {version}"),
    )
}

/// The first three problems, and how many more.
fn summary(problems: &[String]) -> String {
    let shown: Vec<&str> = problems.iter().take(3).map(String::as_str).collect();
    let more = problems.len().saturating_sub(3);
    let mut s = shown.join("; ");
    if more > 0 {
        s.push_str(&format!("; and {more} more"));
    }
    s
}

/// `1 tool`, `2 tools`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
