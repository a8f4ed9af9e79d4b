//! Running the `mcpg` binary in tests (shared by the test modules through `use crate::mcpg_run;`).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

impl Run {
    /// Both outputs, for "never printed" checks.
    pub fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }

    /// The last line of stdout.
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }

    /// The one line a failure prints (and nothing else on stderr).
    pub fn error_line(&self) -> &str {
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "exactly one line on stderr: {:?}",
            self.stderr
        );
        assert!(lines[0].starts_with("mcpg: "), "{:?}", lines[0]);
        lines[0]
    }
}

/// Runs `mcpg args…`, killing it if it has not finished within a minute.
pub fn mcpg(args: &[&str]) -> Run {
    let mut child = spawn(args);
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let mut stderr = String::new();
    err.read_to_string(&mut stderr).unwrap();
    let code = exit_code(&mut child, 60, &format!("mcpg {args:?}"));
    Run {
        code,
        stdout: reader.join().unwrap(),
        stderr,
    }
}

/// `mcpg args…` with both outputs piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mcpg")
}

/// Waits for `child` to exit (polling, bounded by `secs`; killed after that).
fn exit_code(child: &mut Child, secs: u64, what: &str) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} did not finish within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    status.code().expect("an exit code")
}

/// `python3`, or `None` (skipped with a notice; a failure under MCPG_REQUIRE_PEERS=1).
pub fn python() -> Option<&'static str> {
    let ok = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        return Some("python3");
    }
    if std::env::var("MCPG_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
        panic!("python3 is missing and MCPG_REQUIRE_PEERS=1");
    }
    eprintln!("SKIPPED: python3 is not installed");
    None
}

/// Which output stream to watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// stdout.
    Out,
    /// stderr.
    Err,
}

/// Runs `mcpg args…`, waits for a line of `stream` that contains `marker`, sends
/// it SIGINT (what a terminal's Ctrl-C sends), and returns what it printed in all
/// once it has exited (within 30 s).
pub fn interrupt_when(args: &[&str], stream: Stream, marker: &str) -> Run {
    use std::io::{BufRead as _, BufReader};

    let mut child = spawn(args);
    let out: Box<dyn Read + Send> = Box::new(child.stdout.take().unwrap());
    let err: Box<dyn Read + Send> = Box::new(child.stderr.take().unwrap());
    let (watched, other) = match stream {
        Stream::Out => (out, err),
        Stream::Err => (err, out),
    };
    let other = std::thread::spawn(move || {
        let mut s = String::new();
        let mut other = other;
        other.read_to_string(&mut s).unwrap();
        s
    });
    let mut watched = BufReader::new(watched);
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let n = watched.read_line(&mut line).unwrap();
        assert!(n > 0, "mcpg ended before printing {marker:?}: {seen}");
        seen.push_str(&line);
        if line.contains(marker) {
            break;
        }
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    watched.read_to_string(&mut seen).unwrap();
    let code = exit_code(&mut child, 30, "mcpg after SIGINT");
    let other = other.join().unwrap();
    let (stdout, stderr) = match stream {
        Stream::Out => (seen, other),
        Stream::Err => (other, seen),
    };
    Run {
        code,
        stdout,
        stderr,
    }
}

/// `mcpg ARGS` that serves HTTP on a loopback port and prints its URL as the first
/// line (`mcpg demo --http`, `mcpg mock --http`): the running process, the URL and
/// its `host:port`.
pub fn serving(args: &[&str]) -> (Child, String, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim_end().to_owned();
    let authority = url
        .strip_prefix("http://")
        .and_then(|r| r.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("printed {line:?}"))
        .to_owned();
    (child, url, authority)
}
