//! A stdio server's program and its start-up: found, started, answering with
//! JSON-RPC on stdout (not a banner or a log line), not exiting at once.

use serde_json::Value;

use crate::check::{Check, Finding};

/// Whether the program was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramSeen {
    /// Found, at this path.
    Found(String),
    /// Not found: `on_path` when it was looked up on `PATH` (a bare name).
    Missing {
        /// Looked up on `PATH`, or given as a path.
        on_path: bool,
    },
    /// The file exists but is not executable.
    NotExecutable(String),
}

/// Judges the program `name`.
pub fn program(name: &str, seen: &ProgramSeen) -> Finding {
    match seen {
        ProgramSeen::Found(path) if path == name => {
            Finding::pass(Check::Program, format!("{path} exists and is executable"))
        }
        ProgramSeen::Found(path) => Finding::pass(Check::Program, format!("{name} is {path}")),
        ProgramSeen::Missing { on_path: true } => Finding::fail(
            Check::Program,
            format!("{name} is not on PATH"),
            "Install it, or give its full path (a GUI host's PATH is often shorter than your \
             shell's: full paths work everywhere).",
        ),
        ProgramSeen::Missing { on_path: false } => Finding::fail(
            Check::Program,
            format!("{name} does not exist"),
            "Check the path (relative paths start from the current directory).",
        ),
        ProgramSeen::NotExecutable(path) => Finding::fail(
            Check::Program,
            format!("{path} is not executable"),
            format!("Make it executable (`chmod +x {path}`), or run it through its interpreter."),
        ),
    }
}

/// What the program did after an `initialize` request was written to its stdin.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartupSeen {
    /// The first line it wrote to stdout, if any.
    pub first_line: Option<String>,
    /// How it ended, in words (`exited with status 3`), if it ended before
    /// answering.
    pub exit: Option<String>,
    /// What it wrote to stderr (the last lines, bounded by the driver).
    pub stderr: Vec<String>,
    /// How long the driver waited for a first line, in milliseconds.
    pub waited_ms: u64,
}

/// The longest stdout line quoted in evidence.
const QUOTE: usize = 120;

/// Judges the start-up.
pub fn startup(seen: &StartupSeen) -> Finding {
    let stderr = stderr_note(&seen.stderr);
    if let Some(line) = &seen.first_line {
        let json_rpc = serde_json::from_str::<Value>(line)
            .ok()
            .is_some_and(|v| v.get("jsonrpc").and_then(Value::as_str) == Some("2.0"));
        if json_rpc {
            return Finding::pass(
                Check::Startup,
                format!("started and answered with JSON-RPC on stdout{stderr}"),
            );
        }
        return Finding::fail(
            Check::Startup,
            format!(
                "the first line on stdout is not JSON-RPC: {:?}{stderr}",
                mcpg_core::validate::truncate(line, QUOTE)
            ),
            "A stdio server writes only JSON-RPC messages to stdout, one per line: send \
             banners, logs and prints to stderr.",
        );
    }
    if let Some(exit) = &seen.exit {
        return Finding::fail(
            Check::Startup,
            format!("the program {exit} before answering{stderr}"),
            "Run the command by hand and read its stderr: a missing argument (many servers \
             need `stdio`), module or environment variable is the usual cause.",
        );
    }
    Finding::fail(
        Check::Startup,
        format!("no answer on stdout within {} ms{stderr}", seen.waited_ms),
        "A stdio server must answer on stdout once it reads a request on stdin: check that \
         it is not waiting for something else (a terminal, an argument such as `stdio`, a \
         port).",
    )
}

/// `; stderr: a | b` with the last lines, or nothing.
fn stderr_note(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let last: Vec<&str> = lines
        .iter()
        .rev()
        .take(5)
        .rev()
        .map(String::as_str)
        .collect();
    format!("; stderr: {}", last.join(" | "))
}
