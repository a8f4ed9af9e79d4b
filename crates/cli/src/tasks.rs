//! `mcpg tools call --task` (a task followed to its end and cancelled with
//! `tasks/cancel` on Ctrl-C) and `mcpg tasks get|result|list|cancel`.
//!
//! Under 2025-11-25 `--task` asks for a task (`params.task`); under 2026-07-28 the
//! client speaks the Tasks extension (`io.modelcontextprotocol/tasks`) and the
//! server decides whether a call becomes a task. That extension has `tasks/get`,
//! `tasks/update` and `tasks/cancel`, but no `tasks/list` or `tasks/result`.

use std::time::Duration;

use mcpg_core::Generation;
use mcpg_core::client::{CallOptions, TaskRequest};
use mcpg_transport::Driver;
use serde_json::{Value, json};
use tokio::signal::unix::{SignalKind, signal};

use crate::args::{Connection, TasksCommand};
use crate::asks::Answerer;
use crate::commands::{parse_args, print_call, with_answerer, with_server};
use crate::exit::Failure;
use crate::{asks, escape, render};

/// How long, after Ctrl-C, the server has to confirm the task is cancelled before
/// mcpg closes the connection anyway.
const CANCEL_GRACE: Duration = Duration::from_secs(5);

/// `mcpg tools call NAME --task [--ttl MS]`: prints each status on stderr as the
/// task moves and the result at the end; a task's input requests are answered
/// as a plain call's are (`--on-elicit`, ...).
pub async fn call(
    conn: &Connection,
    tool: &str,
    args: Option<&str>,
    json: bool,
    ttl: Option<u64>,
) -> Result<(), Failure> {
    let args = parse_args(args)?;
    // Registered before the server starts: from here on Ctrl-C cancels the task
    // instead of killing mcpg. The server runs in its own process group, so the
    // terminal's SIGINT does not stop it before `tasks/cancel` reaches it.
    let mut interrupt = signal(SignalKind::interrupt())
        .map_err(|e| Failure::transport(format!("cannot catch Ctrl-C: {e}")))?;
    with_answerer(conn, true, async |d: &Driver, answerer: Option<&Answerer>| {
        let n = d.connect().await?;
        let extension = n.version.generation() == Generation::Stateless;
        let task = if extension {
            if ttl.is_some() {
                return Err(Failure::usage(format!(
                    "--ttl: under {} tasks are the io.modelcontextprotocol/tasks extension, where the server chooses how long it keeps a task",
                    n.version
                )));
            }
            // The listed schemas say which arguments travel as `Mcp-Param-*`
            // headers (as for a plain call); a failed listing is the call's to report.
            let _listed = d.list_tools().await;
            None
        } else {
            Some(TaskRequest {
                ttl: ttl.map(Duration::from_millis),
            })
        };
        let opts = CallOptions {
            task,
            ..CallOptions::default()
        };
        let call = asks::call::call_tool_with(d, tool, args, opts, answerer);
        tokio::pin!(call);
        let (report, rounds) = tokio::select! {
            r = &mut call => r?,
            _ = interrupt.recv() => {
                eprintln!("interrupted: cancelling the task (tasks/cancel)");
                d.cancel_calls("interrupted (Ctrl-C)")?;
                match tokio::time::timeout(CANCEL_GRACE, &mut call).await {
                    Ok(r) => r?,
                    Err(_) => return Err(Failure::transport(format!(
                        "interrupted (Ctrl-C); the server did not confirm the cancellation within {} s",
                        CANCEL_GRACE.as_secs()
                    ))),
                }
            }
        };
        print_call(report, rounds, tool, json)
    })
    .await
}

/// Why `tasks list` and `tasks result` cannot be sent under the Tasks extension.
fn not_in_extension(command: &str, method: &str, version: impl std::fmt::Display) -> Failure {
    let instead = if method == "tasks/result" {
        "`mcpg tasks get ID` carries the result once the task is completed"
    } else {
        "a client keeps the ids of the tasks it started (`mcpg tools call --task` prints them)"
    };
    Failure::usage(format!(
        "tasks {command}: the server speaks {version}, where tasks are the io.modelcontextprotocol/tasks extension, which has no {method}; {instead}"
    ))
}

/// `mcpg tasks get|result|list|cancel`: one raw request, its result printed as JSON.
pub async fn run(command: &TasksCommand) -> Result<(), Failure> {
    let mut starts = Vec::new();
    let (conn, method, params) = match command {
        TasksCommand::Get { conn, id } => (conn, "tasks/get", Some(json!({ "taskId": id }))),
        TasksCommand::Result { conn, id } => (conn, "tasks/result", Some(json!({ "taskId": id }))),
        TasksCommand::Cancel { conn, id } => (conn, "tasks/cancel", Some(json!({ "taskId": id }))),
        TasksCommand::List {
            conn,
            cursor,
            start,
        } => {
            starts = start
                .iter()
                .map(|s| crate::catalog::subscribe::tool_call(s))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|f| Failure::usage(f.message.replacen("--call", "--start", 1)))?;
            (
                conn,
                "tasks/list",
                cursor.as_ref().map(|c| json!({ "cursor": c })),
            )
        }
    };
    with_server(conn, async |d: &Driver| {
        let n = d.connect().await?;
        if n.version.generation() == Generation::Stateless
            && let Some(command) = method.strip_prefix("tasks/")
            && matches!(command, "list" | "result")
        {
            return Err(not_in_extension(command, method, n.version));
        }
        for (name, args) in starts {
            // A raw request: the task is started, not followed.
            let mut params = json!({ "name": name, "task": {} });
            if let Some(a) = args {
                params["arguments"] = Value::Object(a);
            }
            let created = d.request("tools/call", Some(params)).await?;
            let id = created
                .get("task")
                .and_then(|t| t.get("taskId"))
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    Failure::new(
                        crate::exit::RPC_ERROR,
                        format!("tools/call {name} with a task did not answer with a task handle"),
                    )
                })?;
            eprintln!(
                "started task {} ({})",
                escape::line(id),
                escape::line(&name)
            );
        }
        let v: Value = d.request(method, params).await?;
        println!("{}", render::pretty(&v));
        Ok(())
    })
    .await
}
