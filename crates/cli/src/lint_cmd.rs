//! `mcpg tools lint`: every page of `tools/list`, then `mcpg_host::lint` for the
//! chosen formats. Exit 1 when a format rejects a tool as written, for CI.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use mcpg_core::model::Tool;
use mcpg_host::lint::{Finding, LintOptions, Severity, lint};
use mcpg_host::provider::Provider;
use mcpg_transport::Driver;
use serde_json::{Value, json};

use crate::args::LintArgs;
use crate::commands::with_server;
use crate::exit::{Failure, PROBLEM};
use crate::{escape, render};

/// `mcpg tools lint`.
pub async fn run(args: &LintArgs) -> Result<(), Failure> {
    let formats: Vec<Provider> = match args.format {
        Some(f) => vec![f],
        None => Provider::ALL.to_vec(),
    };
    let opts = LintOptions {
        strict: args.strict,
    };
    with_server(&args.conn, async |d: &Driver| {
        d.connect().await?;
        let list = d.list_tools().await?;
        let tools: Vec<Tool> = list.items().cloned().collect();
        let found = lint(&tools, &formats, opts);
        if args.json {
            println!(
                "{}",
                render::pretty(&as_json(&tools, &formats, opts, &found))
            );
        } else {
            print!("{}", human(&tools, &formats, &found));
        }
        let rejections = count(&found, Severity::Reject);
        if rejections > 0 {
            let tools: BTreeSet<&str> = found
                .iter()
                .filter(|f| f.severity == Severity::Reject)
                .map(|f| f.tool.as_str())
                .collect();
            return Err(Failure::new(
                PROBLEM,
                format!(
                    "{} for {}: the API answers 400 to the tool as written",
                    render::plural(rejections, "rejection"),
                    render::plural(tools.len(), "tool")
                ),
            ));
        }
        Ok(())
    })
    .await
}

fn count(found: &[Finding], severity: Severity) -> usize {
    found.iter().filter(|f| f.severity == severity).count()
}

/// The stable machine-readable shape: what was linted, the counts, every finding.
fn as_json(tools: &[Tool], formats: &[Provider], opts: LintOptions, found: &[Finding]) -> Value {
    json!({
        "formats": formats.iter().map(|p| p.id()).collect::<Vec<_>>(),
        "strict": opts.strict,
        "tools": tools.len(),
        "counts": {
            "reject": count(found, Severity::Reject),
            "rewrite": count(found, Severity::Rewrite),
            "drop": count(found, Severity::Drop),
        },
        "findings": found.iter().map(Finding::to_json).collect::<Vec<_>>(),
    })
}

/// Per tool, per format, one line per finding (server text escaped); then each
/// rule's documentation once, and a count line.
fn human(tools: &[Tool], formats: &[Provider], found: &[Finding]) -> String {
    let mut out = String::new();
    let mut last: Option<(&str, Provider)> = None;
    for f in found {
        if last.map(|(t, _)| t) != Some(f.tool.as_str()) {
            let _ = writeln!(out, "{}", escape::line(&f.tool));
        }
        if last != Some((f.tool.as_str(), f.format)) {
            let _ = writeln!(out, "  {}:", f.format.id());
        }
        last = Some((f.tool.as_str(), f.format));
        let _ = writeln!(
            out,
            "    {:<7} {} {}: {}",
            f.severity.id(),
            f.rule.id(),
            escape::line(&f.pointer),
            escape::line(&f.message)
        );
    }
    let docs: BTreeSet<(&str, &str)> = found.iter().map(|f| (f.rule.id(), f.doc())).collect();
    if !docs.is_empty() {
        let _ = writeln!(out, "rules:");
        for (rule, doc) in docs {
            let _ = writeln!(out, "  {rule}: {doc}");
        }
    }
    let flagged: BTreeSet<&str> = found.iter().map(|f| f.tool.as_str()).collect();
    let ids: Vec<&str> = formats.iter().map(|p| p.id()).collect();
    let _ = writeln!(
        out,
        "{} × {}: {}, {}, {} ({} without findings)",
        render::plural(tools.len(), "tool"),
        ids.join(", "),
        render::plural(count(found, Severity::Reject), "rejection"),
        render::plural(count(found, Severity::Rewrite), "rewrite"),
        render::plural(count(found, Severity::Drop), "drop"),
        tools
            .iter()
            .filter(|t| !flagged.contains(t.name.as_str()))
            .count()
    );
    out
}
