//! Shared by the `auth_headers` and `auth_cli` tests: running `mcpg` without blocking the runtime that
//! serves the test's own server, and a server that wants headers.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod cache;
#[path = "../../../../transport/tests/it/support/fake.rs"]
pub mod fake;

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use fake::{Seen, initialize_result, json_response, result, serve};
use serde_json::json;

pub use super::mcpg_run::Run;

/// What a `mcpg loop --share --save FILE` run left: its share link decoded (as
/// JSON text) and the saved file's text.
pub fn shared_and_saved(run: &Run, saved: &std::path::Path) -> (String, String) {
    let link = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("share: "))
        .unwrap_or_else(|| panic!("no share link: {run:?}"));
    let shared = mcpg_recording::decode_link(link)
        .unwrap()
        .to_json()
        .to_string();
    (shared, std::fs::read_to_string(saved).unwrap())
}

/// `mcpg args…` with `env` added, stdin closed, both outputs piped.
pub fn command(args: &[&str], env: &[(&str, &str)]) -> tokio::process::Command {
    let mut c = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcpg"));
    c.args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    c
}

/// Runs `mcpg args…` with `env` added and stdin closed; killed after a minute.
pub async fn mcpg(args: &[&str], env: &[(&str, &str)]) -> Run {
    let child = command(args, env).spawn().unwrap();
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("mcpg {args:?} did not finish within 60 s"))
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A 2025-11-25 server that answers only requests carrying every header in `want`
/// (else 401 with a Bearer challenge), echoes `echo` in its instructions (a server
/// that repeats a secret it was sent), has one tool `get_weather`, and records every
/// request.
pub async fn guarded(
    want: Vec<(&'static str, String)>,
    echo: String,
) -> (String, Arc<Mutex<Vec<Seen>>>) {
    serve(move |req: &Seen, _history: &[Seen]| {
        if want.iter().any(|(k, v)| req.header(k) != Some(v.as_str())) {
            return (
                StatusCode::UNAUTHORIZED,
                [("www-authenticate", "Bearer realm=\"test\"")],
                "",
            )
                .into_response();
        }
        answer(req, &echo)
    })
    .await
}

/// The JSON-RPC answer of the guarded server.
fn answer(req: &Seen, echo: &str) -> Response {
    match (req.method.as_str(), req.rpc_method()) {
        ("POST", "server/discover") => {
            let err = json!({"jsonrpc": "2.0", "id": req.body["id"], "error": {"code": -32601, "message": "Method not found"}});
            json_response(&err, None)
        }
        ("POST", "initialize") => {
            let mut v = initialize_result(req);
            v["result"]["instructions"] = json!(format!("you sent {echo}"));
            json_response(&v, Some("s1"))
        }
        ("POST", "tools/list") => json_response(
            &result(
                req,
                json!({"tools": [{"name": "get_weather", "description": "Current weather for a city",
                    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}),
            ),
            None,
        ),
        ("POST", "tools/call") => json_response(
            &result(
                req,
                json!({"content": [{"type": "text", "text": "Austin: 91F, sunny"}]}),
            ),
            None,
        ),
        ("POST", _) => StatusCode::ACCEPTED.into_response(),
        ("DELETE", _) => StatusCode::OK.into_response(),
        _ => StatusCode::METHOD_NOT_ALLOWED.into_response(),
    }
}
