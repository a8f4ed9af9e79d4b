//! `mcpg diff A B` and `mcpg diff A --stdio CMD | --url URL`: what changed in a
//! server between two sessions (files or links, read as `mcpg replay` reads them),
//! or between a session and the server live now. The comparing is
//! `mcpg_recording::diff`'s, the one the page uses too; this module reads the two
//! sides and prints. Exit 0 when nothing differs, 1 when something does, 2 when a
//! session cannot be read, 3 and 4 as for any command when the live server fails.

mod render;

pub(crate) use render::change_line;

use std::collections::HashSet;

use mcpg_core::client::CallOutcome;
use mcpg_recording::diff::{Answer, Call, Snapshot, diff};
use mcpg_transport::Driver;
use serde_json::{Value, json};

use crate::args::DiffArgs;
use crate::commands::with_server;
use crate::exit::{Failure, PROBLEM};
use crate::session_file::load;

/// One side, read.
struct Side {
    /// What to call it in the output (a path, "link", or the live server).
    label: String,
    snapshot: Snapshot,
}

/// `mcpg diff`.
pub async fn run(args: &DiffArgs) -> Result<(), Failure> {
    let a = session(&args.a)?;
    let b = match (&args.b, args.live()) {
        (Some(b), None) => session(b)?,
        (None, Some(conn)) => Side {
            label: match (&conn.target.stdio, &conn.target.url) {
                (Some(cmd), _) => format!("live server (stdio: {cmd})"),
                (_, Some(url)) => format!("live server ({url})"),
                (None, None) => "live server".into(),
            },
            snapshot: live(conn, &a.snapshot.calls, !args.no_calls).await?,
        },
        _ => {
            return Err(Failure::usage(
                "give session B, or --stdio CMD or --url URL to compare session A with a live server",
            ));
        }
    };
    let d = diff(&a.snapshot, &b.snapshot);
    if args.json {
        let side = |s: &Side| {
            json!({
                "source": s.label,
                "tools": s.snapshot.tools.as_ref().map(Vec::len),
                "calls": s.snapshot.calls.len(),
            })
        };
        let mut out = json!({"a": side(&a), "b": side(&b), "differences": d.count()});
        if let (Some(o), Ok(Value::Object(rest))) = (out.as_object_mut(), serde_json::to_value(&d))
        {
            o.extend(rest);
        }
        println!(
            "{}",
            json_safe(&serde_json::to_string_pretty(&out).unwrap_or_default())
        );
    } else {
        print!(
            "{}",
            render::human((&a.label, &a.snapshot), (&b.label, &b.snapshot), &d)
        );
    }
    if d.is_empty() {
        Ok(())
    } else {
        Err(Failure::new(
            PROBLEM,
            format!("the sessions differ in {} places", d.count()),
        ))
    }
}

/// `json` with DEL, the C1 controls and the bidirectional overrides escaped as
/// `\uXXXX` too (serde_json escapes only C0): they can only be inside strings, so
/// the JSON means the same and a terminal shows it safely.
fn json_safe(json: &str) -> String {
    json.chars()
        .map(|c| match c {
            '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
                format!("\\u{:04x}", u32::from(c))
            }
            c => c.to_string(),
        })
        .collect()
}

/// A session from a file or a link, its demo answers regenerated.
fn session(source: &str) -> Result<Side, Failure> {
    let recording = load(source)?;
    let snapshot = Snapshot::from_recording(&recording)
        .map_err(|e| Failure::usage(format!("{source}: {e}")))?;
    if snapshot.tools.is_none() && snapshot.calls.is_empty() {
        return Err(Failure::usage(format!(
            "{source}: the session recorded no tools/list or tools/call to compare"
        )));
    }
    // A link is long and says nothing to a reader: only a file is named.
    let label = if std::path::Path::new(source).is_file() {
        source.to_owned()
    } else {
        "session link".to_owned()
    };
    Ok(Side { label, snapshot })
}

/// The live server as a snapshot: every page of `tools/list`, then (with `calls`)
/// each answered call of A again, for the tools the server still lists.
async fn live(
    conn: &crate::args::Connection,
    recorded: &[Call],
    calls: bool,
) -> Result<Snapshot, Failure> {
    let mut out = Snapshot::default();
    with_server(conn, async |d: &Driver| {
        d.connect().await.map_err(Failure::from)?;
        let listing = d.list_tools().await.map_err(Failure::from)?;
        let tools: Vec<Value> = listing
            .responses
            .iter()
            .filter_map(|m| {
                m.result()
                    .and_then(|r| r.get("tools"))
                    .and_then(Value::as_array)
            })
            .flatten()
            .cloned()
            .collect();
        let listed: HashSet<&str> = tools
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str))
            .collect();
        let again = recorded
            .iter()
            .filter(|c| calls && c.answer != Answer::Missing && listed.contains(c.name.as_str()));
        let mut made = Vec::new();
        for c in again {
            let answer = match d.call_tool(&c.name, c.arguments.clone(), false).await {
                Ok(rep) => match (rep.outcome, rep.response) {
                    (CallOutcome::ProtocolError(e), _) => Answer::Error {
                        code: e.code,
                        message: e.message,
                    },
                    (_, Some(m)) => m.result().cloned().map_or(Answer::Missing, Answer::Result),
                    (_, None) => Answer::Missing,
                },
                Err(mcpg_transport::DriverError::Rpc { error, .. }) => Answer::Error {
                    code: error.code,
                    message: error.message,
                },
                Err(e) => return Err(Failure::from(e)),
            };
            made.push(Call {
                name: c.name.clone(),
                arguments: c.arguments.clone(),
                answer,
            });
        }
        out = Snapshot {
            tools: Some(tools),
            calls: made,
        };
        Ok(())
    })
    .await?;
    Ok(out)
}
