//! What the `asks_*` tests share: peers' command lines, answers files, and
//! running mcpg inside a pseudo-terminal.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::peers::{self, Peer};

/// `--stdio` value for a peer, or `None` (skipped).
pub fn stdio(peer: Peer) -> Option<String> {
    let (program, args) = peers::stdio_command(peer)?;
    Some(peers::shell_line(&program, &args))
}

/// An answers file holding `json`, alive as long as the returned guard.
pub fn answers(json: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("answers.json");
    std::fs::write(&path, json).unwrap();
    let path = path.to_str().unwrap().to_owned();
    (dir, path)
}

/// `mcpg args…` inside a pseudo-terminal (`script`), typing `typed`; `None` when
/// `script` is missing (a failure under MCPG_REQUIRE_PEERS=1).
pub fn in_terminal(args: &[&str], typed: &str) -> Option<(i32, String)> {
    if Command::new("script").arg("--version").output().is_err() {
        peers::missing("`script` (util-linux) gives mcpg a terminal")?;
    }
    let words: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_mcpg"))
        .chain(args.iter().copied())
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect();
    let mut child = Command::new("script")
        .args(["-qec", &words.join(" "), "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(typed.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

/// Fails unless `text` contains every one of `wanted` (naming `what` and the text).
pub fn shows(what: &str, text: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(text.contains(w), "{what}: {w:?} missing from:\n{text}");
    }
}

/// Fails unless the run exited with `code` and its stdout and stderr contain
/// every one of `out` and `err`.
pub fn expect(r: &super::mcpg_run::Run, code: i32, out: &[&str], err: &[&str]) {
    assert_eq!(r.code, code, "{r:?}");
    shows("stdout", &r.stdout, out);
    shows("stderr", &r.stderr, err);
}

/// `tools call TOOL --stdio LINE FLAGS…` as arguments for `mcpg` or [`in_terminal`].
pub fn call_args<'a>(line: &'a str, tool: &'a str, flags: &[&'a str]) -> Vec<&'a str> {
    [&["tools", "call", tool, "--stdio", line][..], flags].concat()
}
