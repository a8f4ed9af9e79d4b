//! `--stdio CMD`: is the program there, does it start and answer with JSON-RPC
//! on stdout, then the session checks over stdio.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcpg_core::ProtocolVersion;
use mcpg_core::client::Outgoing;
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_doctor::stdio::{self, ProgramSeen, StartupSeen};
use mcpg_doctor::{Check, Report, Verdict};
use mcpg_transport::stdio::{Grace, describe_exit, spawn};
use mcpg_transport::{Driver, DriverConfig, LinkEvent, StdioConfig, TransportEvent};
use serde_json::json;

use crate::exit::Failure;

/// The most stderr lines kept for the evidence.
const STDERR_KEPT: usize = 20;

/// Runs the stdio checks; returns the program's name and the report.
pub async fn check(line: &str, timeout: Duration) -> Result<(String, Report), Failure> {
    let words = shlex::split(line)
        .ok_or_else(|| Failure::usage(format!("--stdio: unbalanced quotes in {line:?}")))?;
    let Some((program, args)) = words.split_first() else {
        return Err(Failure::usage("--stdio needs a command"));
    };
    let mut report = Report::new();
    let found = find(program);
    report.push(stdio::program(program, &found));
    if !matches!(found, ProgramSeen::Found(_)) {
        report.skip_rest(&Check::STDIO, "the program was not found");
        return Ok((program.clone(), report));
    }
    let config = || {
        let mut c = StdioConfig::new(program, args);
        // Servers that exit on end of input do so at once; the rest get SIGTERM soon.
        c.grace = Grace {
            after_stdin: Duration::from_millis(200),
            after_term: Duration::from_secs(1),
        };
        c
    };
    let started = startup(config(), timeout).await;
    report.push(stdio::startup(&started));
    if report.get(Check::Startup).map(|f| f.verdict) != Some(Verdict::Pass) {
        report.skip_rest(&Check::STDIO, "the program did not start as a stdio server");
        return Ok((program.clone(), report));
    }
    let open = |cfg: DriverConfig| Driver::stdio(config(), cfg).map_err(Failure::from);
    super::session::check(&mut report, &open, timeout).await;
    Ok((program.clone(), report))
}

/// Where `program` is: a path as given, or the first executable of that name on
/// `PATH`.
fn find(program: &str) -> ProgramSeen {
    if program.contains('/') {
        let p = Path::new(program);
        return match p.metadata() {
            Ok(m) if m.is_file() && m.permissions().mode() & 0o111 != 0 => {
                ProgramSeen::Found(program.to_owned())
            }
            Ok(_) => ProgramSeen::NotExecutable(program.to_owned()),
            Err(_) => ProgramSeen::Missing { on_path: false },
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p: &PathBuf| {
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        });
    match found {
        Some(p) => ProgramSeen::Found(p.display().to_string()),
        None => ProgramSeen::Missing { on_path: true },
    }
}

/// Starts the program, writes an `initialize` request and waits for the first
/// line on stdout, the program's end or the timeout, keeping its stderr.
async fn startup(cfg: StdioConfig, timeout: Duration) -> StartupSeen {
    let began = Instant::now();
    let mut seen = StartupSeen::default();
    let mut link = match spawn(cfg) {
        Ok(l) => l,
        Err(e) => {
            seen.exit = Some(format!("could not be started ({e})"));
            return seen;
        }
    };
    let params = json!({
        "protocolVersion": ProtocolVersion::LATEST_WITH_INITIALIZE.as_str(),
        "capabilities": {},
        "clientInfo": {"name": "mcpg-doctor", "version": env!("CARGO_PKG_VERSION")},
    });
    link.send(Outgoing {
        message: Message::request(RequestId::Number(0), "initialize", Some(params)),
        headers: Vec::new(),
        param_headers: Vec::new(),
    });
    let mut closed = false;
    let deadline = tokio::time::Instant::now() + timeout;
    while seen.first_line.is_none() && !closed {
        match tokio::time::timeout_at(deadline, link.recv()).await {
            Ok(Some(LinkEvent::Transport(TransportEvent::Frame(text)))) => {
                seen.first_line = Some(text);
            }
            Ok(Some(LinkEvent::Transport(TransportEvent::NotUtf8(bytes)))) => {
                seen.first_line = Some(String::from_utf8_lossy(&bytes).into_owned());
            }
            Ok(Some(LinkEvent::Transport(TransportEvent::Closed(r)))) => {
                seen.exit = Some(r.exit.as_ref().map_or(r.reason, describe_exit));
                closed = true;
            }
            Ok(Some(LinkEvent::Stderr(l))) => keep(&mut seen.stderr, l.text),
            Ok(Some(LinkEvent::Transport(_))) => {}
            Ok(None) | Err(_) => break,
        }
    }
    seen.waited_ms = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
    if !closed {
        link.close();
    }
    // Drain to the end (the process reaped), keeping what it still said on stderr;
    // bounded by the shutdown grace the config set.
    let drain = tokio::time::Instant::now() + Duration::from_secs(3);
    while let Ok(Some(ev)) = tokio::time::timeout_at(drain, link.recv()).await {
        if let LinkEvent::Stderr(l) = ev {
            keep(&mut seen.stderr, l.text);
        }
    }
    // The link reports its end before stderr lines still queued (transport events
    // come first), and the reader finished before that end: take them now.
    while let Some(l) = link.try_stderr() {
        keep(&mut seen.stderr, l.text);
    }
    seen
}

fn keep(lines: &mut Vec<String>, line: String) {
    if lines.len() == STDERR_KEPT {
        lines.remove(0);
    }
    lines.push(line);
}
