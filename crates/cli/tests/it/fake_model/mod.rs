//! The fake LLM provider of the e2e suite (`tests/e2e/fake_provider.mjs`), run with
//! node for the CLI's tests, and `mcpg` run with environment variables.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// The fake provider, stopped when dropped.
pub struct FakeProvider {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl FakeProvider {
    /// Starts it, or returns `None` (and says why) when node is missing; with
    /// `MCPG_REQUIRE_PEERS` set that is a failure instead.
    pub fn start() -> Option<FakeProvider> {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/e2e/fake_provider.mjs"
        );
        let child = Command::new("node")
            .args([script, "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => {
                assert!(
                    std::env::var_os("MCPG_REQUIRE_PEERS").is_none(),
                    "node is needed for the fake provider: {e}"
                );
                eprintln!("skipped: node is not available ({e})");
                return None;
            }
        };
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .strip_prefix("fake provider on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        Some(FakeProvider { child, base })
    }

    /// The environment that points every provider at the fake with `key`.
    pub fn env(&self, key: &str) -> Vec<(&'static str, String)> {
        let b = &self.base;
        vec![
            ("ANTHROPIC_API_KEY", key.to_owned()),
            ("OPENAI_API_KEY", key.to_owned()),
            ("GEMINI_API_KEY", key.to_owned()),
            ("ANTHROPIC_BASE_URL", format!("{b}/anthropic")),
            ("OPENAI_BASE_URL", format!("{b}/openai")),
            ("GEMINI_BASE_URL", format!("{b}/gemini")),
            ("OLLAMA_HOST", format!("{b}/ollama")),
        ]
    }

    /// `GET path` on the fake, its body.
    pub fn get(&self, path: &str) -> String {
        let addr = self.base.trim_start_matches("http://");
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        text.split_once("\r\n\r\n")
            .map(|(_, b)| b.to_owned())
            .unwrap_or_default()
    }

    /// The rules the requests broke (`[]` when none).
    pub fn violations(&self) -> String {
        self.get("/__violations")
    }
}

impl Drop for FakeProvider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a run of `mcpg` produced.
#[derive(Debug)]
pub struct Run {
    /// The exit status.
    pub code: i32,
    /// Everything on stdout.
    pub stdout: String,
    /// Everything on stderr.
    pub stderr: String,
}

/// Runs `mcpg args…` with `env` added, stdin closed.
pub fn mcpg_env(args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
