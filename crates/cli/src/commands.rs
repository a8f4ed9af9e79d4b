//! `info`, `tools list` and `tools call`.

use mcpg_core::Generation;
use mcpg_core::client::CallOutcome;
use mcpg_core::model::JsonObject;
use mcpg_transport::{CallReport, Driver};
use serde_json::Value;

use crate::args::Connection;
use crate::asks::{self, Answerer};
use crate::connect::open;
use crate::exit::{Failure, RPC_ERROR, TOOL_ERROR};
use crate::{escape, logs, render};

/// Runs `body` against the server the flags name, then always closes the
/// connection (which stops a stdio server), whatever `body` returned. With
/// `--log-level`, it connects first, sets the level and prints the server's log
/// messages to stderr until the connection is closed.
pub(crate) async fn with_server(
    conn: &Connection,
    body: impl AsyncFnOnce(&Driver) -> Result<(), Failure>,
) -> Result<(), Failure> {
    with_server_grouped(conn, false, body).await
}

/// [`with_server`] for a command that catches Ctrl-C itself: a stdio server
/// then runs in its own process group, so that the terminal's signal does not
/// kill it before the command has closed it.
pub(crate) async fn with_server_grouped(
    conn: &Connection,
    own_group: bool,
    body: impl AsyncFnOnce(&Driver) -> Result<(), Failure>,
) -> Result<(), Failure> {
    with_answerer(conn, own_group, async |d: &Driver, _: Option<&Answerer>| {
        body(d).await
    })
    .await
}

/// [`with_server_grouped`] for a command that answers the server's asks itself
/// too (`tools call` continues `input_required` rounds): `body` gets the answerer
/// the flags built (`None` without any), the one the driver answers with.
pub(crate) async fn with_answerer(
    conn: &Connection,
    own_group: bool,
    body: impl AsyncFnOnce(&Driver, Option<&Answerer>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let answerer = asks::from_flags(&conn.asks)?;
    let (driver, told) = open(conn, own_group, answerer.as_ref())?;
    let answerer = answerer.as_deref();
    let (printer, outcome) = match conn.log_level {
        Some(level) => match logs::start(&driver, level).await {
            Ok(p) => (Some(p), body(&driver, answerer).await),
            Err(f) => (None, Err(f)),
        },
        None => (None, body(&driver, answerer).await),
    };
    let closed = driver.close().await;
    if conn.verbose
        && let Ok(report) = &closed
    {
        eprintln!("transport: {}", report.reason);
    }
    // The loop stops once the handle is gone; its last log messages are printed
    // before the command's own failure line.
    drop(driver);
    if let Some(printer) = printer {
        let _ = printer.await;
    }
    outcome.map_err(|f| crate::advice::allowing(crate::auth::explain(conn, &told, f), conn))
}

/// `mcpg info`.
pub async fn info(conn: &Connection) -> Result<(), Failure> {
    with_server(conn, async |d: &Driver| {
        d.connect().await.map_err(Failure::from).map(|n| {
            match &n.server_info {
                Some(s) => {
                    let title = s
                        .title
                        .as_deref()
                        .map(|t| format!(" ({})", escape::line(t)))
                        .unwrap_or_default();
                    let (name, version) = (escape::line(&s.name), escape::line(&s.version));
                    println!("server:       {name} {version}{title}");
                }
                None => println!("server:       (the server did not say)"),
            }
            println!("protocol:     {}", n.version);
            println!("generation:   {}", n.generation);
            if n.server_versions.len() > 1 {
                println!(
                    "server knows: {}",
                    escape::line(&n.server_versions.join(", "))
                );
            }
            println!(
                "capabilities:\n{}",
                render::pretty(&Value::Object(n.capabilities.clone()))
            );
            match &n.instructions {
                Some(i) => println!("instructions:\n{}", escape::text(i)),
                None => println!("instructions: (none)"),
            }
        })
    })
    .await
}

/// `mcpg tools list`.
pub async fn list(conn: &Connection, json: bool) -> Result<(), Failure> {
    with_server(conn, async |d: &Driver| {
        d.connect().await?;
        d.list_tools().await.map_err(Failure::from).map(|list| {
            if json {
                println!(
                    "{}",
                    render::pretty(&render::raw_items(&list.responses, "tools"))
                );
            } else {
                print!("{}", render::tool_list(&list));
            }
        })
    })
    .await
}

/// `mcpg tools call`.
pub async fn call(
    conn: &Connection,
    tool: &str,
    args: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let args = parse_args(args)?;
    with_answerer(
        conn,
        false,
        async |d: &Driver, answerer: Option<&Answerer>| {
            let n = d.connect().await?;
            if n.version.generation() == Generation::Stateless {
                // Under 2026-07-28 the listed schema says which arguments travel as
                // `Mcp-Param-*` headers (`x-mcp-header`); a server such as rmcp
                // refuses a call without them. A listing that fails is not this
                // command's failure: the call goes out and the server has its say.
                let _listed = d.list_tools().await;
            }
            let (report, rounds) = asks::call::call_tool(d, tool, args, answerer).await?;
            // The advice on a refusal depends on the revision it was sent under.
            print_call(report, rounds, tool, json).map_err(|f| crate::advice::under(f, n.version))
        },
    )
    .await
}

/// Prints how a call ended; the failure says which exit status it was.
pub(crate) fn print_call(
    report: CallReport,
    rounds: usize,
    tool: &str,
    json: bool,
) -> Result<(), Failure> {
    let raw = report.response.as_ref().and_then(|m| m.result()).cloned();
    match report.outcome {
        CallOutcome::Success(r) | CallOutcome::ToolError(r) => {
            match (&raw, json) {
                (Some(raw), true) => println!("{}", render::pretty(raw)),
                _ => print!("{}", render::call_result(&r)),
            }
            if r.failed() {
                let message = format!("tool `{tool}` reported an error (isError: true)");
                return Err(Failure::new(TOOL_ERROR, message));
            }
            Ok(())
        }
        CallOutcome::ProtocolError(e) => {
            for line in asks::show::url_required(&e) {
                eprintln!("{line}");
            }
            let message = format!("the server answered tools/call with an error: {e}");
            let answered = mcpg_advice::Situation::rpc("tools/call", &e);
            Err(Failure::new(RPC_ERROR, message).answered(answered))
        }
        CallOutcome::InputRequired(v) => {
            if json {
                println!("{}", render::pretty(&v));
            }
            Err(asks::call::still_needs_input(tool, rounds))
        }
        CallOutcome::Failed(f) => Err(Failure::transport(format!("{f} during tools/call"))),
    }
}

pub(crate) fn parse_args(args: Option<&str>) -> Result<Option<JsonObject>, Failure> {
    let Some(text) = args else { return Ok(None) };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(o)) => Ok(Some(o)),
        Ok(other) => Err(Failure::usage(format!(
            "--args must be a JSON object, not {}",
            mcpg_core::validate::kind_of(&other)
        ))),
        Err(e) => Err(Failure::usage(format!("--args is not valid JSON: {e}"))),
    }
}
