//! `mcpg apps check`: every view a server's tools link, checked as the page would
//! host it (`mcpg_apps`), with an exit status for CI.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mcpg_apps::{ToolUi, UiResource};
use mcpg_transport::{Driver, DriverError};
use serde_json::{Value, json};

use crate::args::AppsCommand;
use crate::commands::with_server;
use crate::escape;
use crate::exit::{self, Failure};
use crate::render::pretty;

/// `mcpg apps …`.
pub async fn run(cmd: &AppsCommand) -> Result<(), Failure> {
    match cmd {
        AppsCommand::Check { conn, json } => check(conn, *json).await,
    }
}

/// What one view came to.
struct ViewReport {
    uri: String,
    /// The tools that link it.
    tools: Vec<String>,
    /// Size, MIME type and policy when it could be read as a view.
    read: Option<UiResource>,
    problems: Vec<String>,
}

/// What one tool's metadata came to.
struct ToolReport {
    name: String,
    ui: ToolUi,
}

async fn check(conn: &crate::args::Connection, json: bool) -> Result<(), Failure> {
    let mut failed = false;
    with_server(conn, async |d: &Driver| {
        d.connect().await?;
        let list = d.list_tools().await?;
        let tools: Vec<ToolReport> = list
            .pages
            .iter()
            .flatten()
            .map(|t| ToolReport {
                name: t.name.clone(),
                ui: ToolUi::of(t),
            })
            .collect();
        let mut views: BTreeMap<String, ViewReport> = BTreeMap::new();
        for t in &tools {
            if let Some(uri) = &t.ui.resource_uri {
                views
                    .entry(uri.clone())
                    .or_insert_with(|| ViewReport {
                        uri: uri.clone(),
                        tools: Vec::new(),
                        read: None,
                        problems: Vec::new(),
                    })
                    .tools
                    .push(t.name.clone());
            }
        }
        for view in views.values_mut() {
            read_view(d, view).await?;
        }
        failed = tools.iter().any(|t| !t.ui.problems.is_empty())
            || views.values().any(|v| !v.problems.is_empty());
        if json {
            println!("{}", pretty(&as_json(&tools, &views)));
        } else {
            print!("{}", as_text(&tools, &views));
        }
        Ok(())
    })
    .await?;
    if failed {
        return Err(Failure::new(
            exit::TOOL_ERROR,
            "the apps check found problems (above)",
        ));
    }
    Ok(())
}

/// Reads `view`'s resource; a refusal of the server's is a finding, a dead
/// connection ends the command.
async fn read_view(d: &Driver, view: &mut ViewReport) -> Result<(), Failure> {
    match d.read_resource(&view.uri).await {
        Ok(report) => match report.response.as_ref().and_then(|m| m.result()) {
            Some(result) => match UiResource::from_read(&view.uri, result) {
                Ok(r) => {
                    view.problems
                        .extend(r.csp.refused.iter().map(|why| format!("CSP: {why}")));
                    view.read = Some(r);
                }
                Err(e) => view.problems.push(e.to_string()),
            },
            None => view
                .problems
                .push("resources/read brought no result".to_owned()),
        },
        Err(DriverError::Rpc { error, .. }) => view.problems.push(format!(
            "resources/read failed: {} ({})",
            error.message, error.code
        )),
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

fn as_text(tools: &[ToolReport], views: &BTreeMap<String, ViewReport>) -> String {
    let mut out = String::new();
    let linked = tools.iter().filter(|t| t.ui.resource_uri.is_some()).count();
    let app_only = tools
        .iter()
        .filter(|t| !t.ui.visibility.model && t.ui.visibility.app)
        .count();
    let _ = writeln!(
        out,
        "{} of {} tools link a view; {} app-only (hidden from the model)",
        linked,
        tools.len(),
        app_only
    );
    for t in tools.iter().filter(|t| !t.ui.problems.is_empty()) {
        for p in &t.ui.problems {
            let _ = writeln!(out, "✗ tool {}: {}", escape::line(&t.name), escape::line(p));
        }
    }
    for v in views.values() {
        let mark = if v.problems.is_empty() { "✓" } else { "✗" };
        let _ = writeln!(
            out,
            "{mark} {} (linked by {})",
            escape::line(&v.uri),
            escape::line(&v.tools.join(", "))
        );
        if let Some(r) = &v.read {
            let _ = writeln!(out, "    {} bytes of {}", r.html.len(), mcpg_apps::MIME);
            let _ = writeln!(out, "    CSP: {}", r.csp.policy());
            if !r.permissions.is_empty() {
                let _ = writeln!(
                    out,
                    "    asks for: {}",
                    escape::line(&r.permissions.join(", "))
                );
            }
        }
        for p in &v.problems {
            let _ = writeln!(out, "    problem: {}", escape::line(p));
        }
    }
    out
}

fn as_json(tools: &[ToolReport], views: &BTreeMap<String, ViewReport>) -> Value {
    json!({
        "tools": tools.iter().map(|t| json!({
            "name": t.name,
            "resourceUri": t.ui.resource_uri,
            "visibility": {"model": t.ui.visibility.model, "app": t.ui.visibility.app},
            "problems": t.ui.problems,
        })).collect::<Vec<_>>(),
        "views": views.values().map(|v| json!({
            "uri": v.uri,
            "tools": v.tools,
            "bytes": v.read.as_ref().map(|r| r.html.len()),
            "csp": v.read.as_ref().map(|r| r.csp.policy()),
            "problems": v.problems,
        })).collect::<Vec<_>>(),
        "ok": tools.iter().all(|t| t.ui.problems.is_empty()) && views.values().all(|v| v.problems.is_empty()),
    })
}
