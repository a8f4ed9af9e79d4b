//! An answer over the transport's size limit fails the call at once, naming the
//! size and the limit, over stdio and over HTTP (it used to be dropped and the call
//! timed out a minute later). The server is `fixtures/big_answer.py`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::mcpg_run;

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcpg_run::python;

/// The transports' default limit (32 MiB).
const LIMIT: usize = 32 << 20;
/// The tool's text: well over the limit.
const SIZE: usize = 40 << 20;

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/big_answer.py")
}

/// Runs `mcpg tools call big` with `server_args`; returns stderr, the exit code and
/// how long it took.
fn call(server_args: &[&str]) -> (String, i32, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(["tools", "call"])
        .args(server_args)
        .args(["big", "--timeout", "60"])
        .stdin(Stdio::null())
        .output()
        .expect("run mcpg");
    let took = start.elapsed();
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
        took,
    )
}

fn assert_fails_fast(transport: &str, stderr: &str, code: i32, took: Duration) {
    println!("{transport}: failed in {took:?}: {stderr}");
    assert_eq!(code, 4, "{stderr}");
    assert!(
        stderr.contains(&format!("exceeds the {LIMIT}-byte limit")),
        "{stderr}"
    );
    let size = stderr
        .split('(')
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(0);
    assert!(size > SIZE, "the size is named: {stderr}");
    assert!(stderr.contains("during tools/call"), "{stderr}");
    // Not the 60 s timeout; the exact time depends on the machine.
    assert!(took < Duration::from_secs(45), "took {took:?}");
}

#[test]
fn an_oversized_answer_over_stdio_fails_at_once() {
    let Some(py) = python() else { return };
    let line = format!("{py} {} stdio {SIZE}", script().display());
    let (stderr, code, took) = call(&["--stdio", &line]);
    assert_fails_fast("stdio", &stderr, code, took);
}

#[test]
fn an_oversized_answer_over_http_fails_at_once() {
    let Some(py) = python() else { return };
    let mut server = Command::new(py)
        .arg(script())
        .args(["http", &SIZE.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the server");
    let first = BufReader::new(server.stdout.take().unwrap())
        .lines()
        .next()
        .unwrap()
        .unwrap();
    let url = first.trim_start_matches("listening on ").to_owned();
    let (stderr, code, took) = call(&["--url", &url]);
    let _ = server.kill();
    let _ = server.wait();
    assert_fails_fast("http", &stderr, code, took);
}
