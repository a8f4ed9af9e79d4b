//! `mcpg resources subscribe URI`: subscribe, optionally call tools in the same
//! session, print each update until Ctrl-C (or `--count`), then unsubscribe and
//! close the server the spec's way.

use mcpg_core::Generation;
use mcpg_core::client::CallOutcome;
use mcpg_transport::{Driver, Update};
use serde_json::json;
use tokio::signal::unix::{SignalKind, signal};

use crate::args::Connection;
use crate::asks::{self, Answerer};
use crate::commands::{parse_args, with_answerer};
use crate::escape;
use crate::exit::{Failure, RPC_ERROR, TOOL_ERROR};

/// Runs the subscription.
pub async fn run(
    conn: &Connection,
    uri: &str,
    calls: &[String],
    count: Option<u64>,
    json: bool,
) -> Result<(), Failure> {
    let calls = calls
        .iter()
        .map(|c| tool_call(c))
        .collect::<Result<Vec<_>, _>>()?;
    // Registered now, so a Ctrl-C from here on ends the wait instead of killing
    // mcpg; the server runs in a process group of its own, so the terminal's
    // SIGINT reaches only mcpg, which unsubscribes and stops the server properly.
    let mut interrupt = signal(SignalKind::interrupt())
        .map_err(|e| Failure::transport(format!("cannot catch Ctrl-C: {e}")))?;
    with_answerer(conn, true, async |d: &Driver, answerer: Option<&Answerer>| {
        let setup = async {
            let n = d.connect().await?;
            let updates = d.updates()?;
            d.subscribe_resource(uri).await?;
            if !json {
                let uri = escape::line(uri);
                println!("subscribed to {uri}; updates follow until Ctrl-C");
            }
            if !calls.is_empty() && n.version.generation() == Generation::Stateless {
                // As in `tools call`: the listed schemas say which arguments travel as headers.
                let _listed = d.list_tools().await;
            }
            for (name, args) in calls {
                call(d, &name, args, json, answerer).await?;
            }
            Ok::<_, Failure>(updates)
        };
        // A Ctrl-C before the updates flow (a server slow to answer) ends the
        // command at once; the connection is still closed properly.
        let mut updates = tokio::select! {
            r = setup => r?,
            _ = interrupt.recv() => {
                return Err(Failure::transport("interrupted (Ctrl-C) before the subscription was in place"));
            }
        };
        let mut seen = 0;
        while count.is_none_or(|c| seen < c) {
            let update = tokio::select! {
                _ = interrupt.recv() => break,
                u = updates.recv() => u,
            };
            match update {
                Some(Update::ResourceUpdated { uri }) => {
                    seen += 1;
                    if json {
                        println!("{}", json!({ "uri": uri }));
                    } else {
                        println!("updated {}", escape::line(&uri));
                    }
                }
                Some(_) => {}
                None => {
                    return Err(Failure::transport(
                        "the connection ended during the subscription",
                    ));
                }
            }
        }
        d.unsubscribe_resource(uri).await?;
        if !json {
            println!("unsubscribed after {seen} updates");
        }
        Ok(())
    })
    .await
}

/// `NAME` or `NAME {JSON}`: tool names have no spaces (SEP-986).
pub(crate) fn tool_call(
    text: &str,
) -> Result<(String, Option<mcpg_core::model::JsonObject>), Failure> {
    let text = text.trim();
    let (name, args) = match text.split_once(char::is_whitespace) {
        Some((name, rest)) => (name, Some(rest.trim())),
        None => (text, None),
    };
    if name.is_empty() {
        return Err(Failure::usage("--call needs a tool name"));
    }
    let args =
        parse_args(args).map_err(|f| Failure::usage(f.message.replacen("--args", "--call", 1)))?;
    Ok((name.to_owned(), args))
}

/// One `--call`: a line saying it ran, or the failure `tools call` would give
/// (its `input_required` rounds answered as `tools call` answers them).
async fn call(
    d: &Driver,
    name: &str,
    args: Option<mcpg_core::model::JsonObject>,
    json: bool,
    answerer: Option<&Answerer>,
) -> Result<(), Failure> {
    let (report, rounds) = asks::call::call_tool(d, name, args, answerer).await?;
    match report.outcome {
        CallOutcome::Success(_) => {
            if !json {
                println!("called {}", escape::line(name));
            }
            Ok(())
        }
        CallOutcome::ToolError(_) => Err(Failure::new(
            TOOL_ERROR,
            format!("tool `{name}` reported an error (isError: true)"),
        )),
        CallOutcome::ProtocolError(e) => Err(Failure::new(
            RPC_ERROR,
            format!("the server answered tools/call with an error: {e}"),
        )
        .answered(mcpg_advice::Situation::rpc("tools/call", &e))),
        CallOutcome::InputRequired(_) => Err(asks::call::still_needs_input(name, rounds)),
        CallOutcome::Failed(f) => Err(Failure {
            refused: f.refused(),
            ..Failure::transport(format!("{f} during tools/call"))
        }),
    }
}
