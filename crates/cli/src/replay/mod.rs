//! `mcpg replay LINK_OR_FILE (--stdio … | --url …)`: re-runs a shared session's
//! recorded `tools/list` and `tools/call` steps against a live server and reports
//! every difference in the answers. Exit 0 when there is none, so servers get
//! regression tests from shared sessions.

mod recorded;

use mcpg_core::client::CallOutcome;
use mcpg_recording::diff::value_changes;
use mcpg_transport::Driver;
use serde_json::Value;

use crate::args::Connection;
use crate::commands::with_server;
use crate::diff::change_line;
use crate::escape;
use crate::exit::{Failure, TOOL_ERROR};
use crate::session_file::load;
use recorded::{Answer, Step};

/// How many differences to print per step.
const MAX_DIFFS: usize = 20;

/// `mcpg replay`.
pub async fn run(source: &str, conn: &Connection) -> Result<(), Failure> {
    let session = load(source)?;
    let steps = recorded::steps(&session).map_err(|e| Failure::usage(format!("{source}: {e}")))?;
    if steps.is_empty() {
        return Err(Failure::usage(format!(
            "{source}: the session recorded no tools/list or tools/call to replay"
        )));
    }
    with_server(conn, async |d: &Driver| {
        d.connect().await.map_err(Failure::from)?;
        let mut differences = 0;
        for (n, step) in steps.iter().enumerate() {
            let found = match step {
                Step::List { tools, pages } => {
                    let live = d.list_tools().await.map_err(Failure::from)?;
                    let live_tools: Vec<Value> = live
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
                    let found = diff(&Value::Array(tools.clone()), &Value::Array(live_tools));
                    report(
                        n + 1,
                        &format!(
                            "tools/list ({} tools in {pages} pages recorded, {} live)",
                            tools.len(),
                            live.len()
                        ),
                        &found,
                    );
                    found.len()
                }
                Step::Call {
                    name,
                    arguments,
                    answer,
                } => {
                    let live = match d.call_tool(name, arguments.clone(), false).await {
                        Ok(rep) => match (rep.outcome, rep.response) {
                            (CallOutcome::ProtocolError(e), _) => Answer::Error(e.code, e.message),
                            (_, Some(m)) => {
                                m.result().cloned().map_or(Answer::Missing, Answer::Result)
                            }
                            (_, None) => Answer::Missing,
                        },
                        Err(e) if e.is_rpc() => Answer::Error(0, e.to_string()),
                        Err(e) => return Err(Failure::from(e)),
                    };
                    let found = compare(answer, &live);
                    report(n + 1, &format!("tools/call {name}"), &found);
                    found.len()
                }
            };
            differences += found;
        }
        println!("{} steps replayed, {differences} differences", steps.len());
        if differences > 0 {
            return Err(Failure::new(
                TOOL_ERROR,
                format!(
                    "the live server's answers differ from the recording in {differences} places"
                ),
            ));
        }
        Ok(())
    })
    .await
}

fn compare(recorded: &Answer, live: &Answer) -> Vec<String> {
    match (recorded, live) {
        (Answer::Result(a), Answer::Result(b)) => diff(a, b),
        (Answer::Error(c, m), Answer::Error(d, n)) if c == d && m == n => vec![],
        (Answer::Error(c, _), Answer::Error(d, _)) if c == d => vec![],
        (Answer::Missing, _) => vec![],
        (a, b) => vec![format!("recorded {}, live {}", describe(a), describe(b))],
    }
}

/// Up to [`MAX_DIFFS`] differences between a recorded and a live value, as
/// `POINTER: recorded → live` (`mcpg_recording::diff`'s differ, as `mcpg diff`'s).
fn diff(recorded: &Value, live: &Value) -> Vec<String> {
    value_changes(recorded, live)
        .iter()
        .take(MAX_DIFFS)
        .map(change_line)
        .collect()
}

fn describe(a: &Answer) -> String {
    match a {
        Answer::Result(v) if v.get("isError") == Some(&Value::Bool(true)) => {
            "a tool error (isError)".into()
        }
        Answer::Result(_) => "a result".into(),
        Answer::Error(c, m) => format!("JSON-RPC error {c} ({m})"),
        Answer::Missing => "no answer".into(),
    }
}

fn report(n: usize, what: &str, found: &[String]) {
    print!("{}", report_text(n, what, found));
}

/// One step's report. The tool names, the recorded and the live answers are a
/// server's words (and a shared recording's): escaped for the terminal.
fn report_text(n: usize, what: &str, found: &[String]) -> String {
    let what = escape::line(what);
    if found.is_empty() {
        return format!("ok    {n}. {what}\n");
    }
    let mut out = format!("DIFF  {n}. {what}\n");
    for f in found {
        out.push_str(&format!("        {}\n", escape::line(f)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_servers_words_in_the_report_are_escaped() {
        // A recorded tool name and a live error message with terminal escapes.
        let found = compare(
            &Answer::Error(-32000, "boom".into()),
            &Answer::Result(serde_json::json!({"isError": true})),
        );
        assert_eq!(found.len(), 1);
        let live =
            vec!["recorded JSON-RPC error 1 (\u{1b}]52;c;cm0gLXJm\u{7}), live a result".to_owned()];
        let text = report_text(2, "tools/call get\u{1b}[2J_weather", &live);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(text.contains("get\\u{1b}[2J_weather"), "{text}");
        assert!(text.contains("\\u{1b}]52;c;"), "{text}");
    }
}
