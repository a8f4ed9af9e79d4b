//! Turning `--stdio` / `--url` and the common flags into a running driver.

use std::sync::Arc;
use std::time::Duration;

use mcpg_core::client::{ClientConfig, Direction, GenerationMode};
use mcpg_core::{Generation, ProtocolVersion};
use mcpg_transport::{Driver, DriverConfig, HttpConfig, Observed, Observer, StdioConfig};

use crate::args::{Connection, Protocol};
use crate::asks::Answerer;
use crate::escape;
use crate::exit::Failure;

/// Starts the transport the flags ask for (nothing is sent yet). `own_group`
/// starts a stdio server in a process group of its own, for a command that
/// catches Ctrl-C and closes the server itself. With an `answerer`, the client
/// declares what it answers and the server's requests go to it.
pub fn open(
    conn: &Connection,
    own_group: bool,
    answerer: Option<&Arc<Answerer>>,
) -> Result<Driver, Failure> {
    open_with(conn, own_group, answerer, None, false)
}

/// [`open`] with a second observer beside the command's own (the loop records the
/// wire with it) and, with `listen`, the page's `listen_for_list_changes`: a
/// recording the page replays must send what the page would.
pub fn open_with(
    conn: &Connection,
    own_group: bool,
    answerer: Option<&Arc<Answerer>>,
    extra: Option<Observer>,
    listen: bool,
) -> Result<Driver, Failure> {
    if !(conn.timeout.is_finite() && conn.timeout > 0.0) {
        return Err(Failure::usage(format!(
            "--timeout must be a positive number of seconds, not {}",
            conn.timeout
        )));
    }
    let timeout = Duration::from_secs_f64(conn.timeout.min(1e9));
    let mut client = ClientConfig {
        request_timeout: timeout,
        listen_for_list_changes: listen,
        ..ClientConfig::default()
    };
    client.probe_timeout = client.probe_timeout.min(timeout);
    client.mode = match conn.protocol {
        Protocol::Auto => GenerationMode::Auto,
        Protocol::Initialize => GenerationMode::Initialize,
        Protocol::Stateless => GenerationMode::Stateless,
    };
    if let Some(rev) = &conn.protocol_version {
        client.pin_version(pinned(rev, conn.protocol)?);
    }
    if let Some(a) = answerer {
        client.capabilities.extend(a.capabilities().clone());
    }
    let observer = match (conn.verbose, answerer) {
        (true, _) => Some(verbose_observer()),
        // A URL elicitation's end is news to the person who opened the URL.
        (false, Some(_)) => Some(crate::asks::show::completion_observer()),
        (false, None) => None,
    };
    let cfg = DriverConfig {
        client,
        observer: both(observer, extra),
        handler: answerer.map(Answerer::handler),
    };
    let driver = match (&conn.target.stdio, &conn.target.url) {
        (Some(line), _) => {
            let words = shlex::split(line)
                .ok_or_else(|| Failure::usage(format!("--stdio: unbalanced quotes in {line:?}")))?;
            let Some((program, args)) = words.split_first() else {
                return Err(Failure::usage("--stdio needs a command"));
            };
            let mut server = StdioConfig::new(program, args);
            // Then Ctrl-C at the terminal reaches mcpg alone, which closes the
            // server the spec's way (close stdin, SIGTERM, SIGKILL). Commands that
            // do not catch it leave the server in the terminal's group, so it stops
            // with mcpg as before.
            server.own_process_group = own_group;
            server.grace.after_stdin = STDIN_GRACE;
            Driver::stdio(server, cfg)?
        }
        (None, Some(url)) => Driver::http(HttpConfig::new(url), cfg)?,
        (None, None) => return Err(Failure::usage("one of --stdio and --url is required")),
    };
    Ok(driver)
}

/// One observer that calls both (either may be absent).
fn both(a: Option<Observer>, b: Option<Observer>) -> Option<Observer> {
    match (a, b) {
        (Some(a), Some(b)) => Some(Arc::new(move |o: &Observed| {
            a(o);
            b(o);
        })),
        (a, b) => a.or(b),
    }
}

/// How long a stdio server may take to exit once its stdin is closed before it is
/// sent SIGTERM. The spec's shutdown order stays (close stdin, wait, SIGTERM, wait,
/// SIGKILL), but "a reasonable time" is short for a command whose answer is in:
/// well-behaved servers exit on end of input within milliseconds, SIGTERM still
/// lets a slow one clean up, and waiting longer was most of what one `mcpg tools
/// call` cost over a raw client (server-everything took ~340 ms to exit on its own).
const STDIN_GRACE: Duration = Duration::from_millis(10);

/// The revision `--protocol-version` names, checked against `--protocol`.
fn pinned(rev: &str, protocol: Protocol) -> Result<ProtocolVersion, Failure> {
    let known = || {
        ProtocolVersion::ALL
            .iter()
            .map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let v = ProtocolVersion::parse(rev.trim()).ok_or_else(|| {
        Failure::usage(format!(
            "--protocol-version: {rev:?} is not a revision this client speaks ({})",
            known()
        ))
    })?;
    let clash = match (protocol, v.generation()) {
        (Protocol::Initialize, Generation::Stateless) => Some("initialize"),
        (Protocol::Stateless, Generation::Initialize) => Some("stateless"),
        _ => None,
    };
    match clash {
        Some(p) => Err(Failure::usage(format!(
            "--protocol {p} cannot speak {rev}: leave --protocol at auto, or pick a revision of that generation"
        ))),
        None => Ok(v),
    }
}

/// `--verbose`: everything the driver sees, one line each, on stderr, with the
/// server's control characters escaped.
pub fn verbose_observer() -> Observer {
    Arc::new(|o: &Observed| match o {
        Observed::Wire(w) => {
            let arrow = if w.direction == Direction::Sent {
                ">>"
            } else {
                "<<"
            };
            eprintln!("{arrow} {}", escape::line(&w.raw));
        }
        Observed::Diagnostic(d) => eprintln!("diagnostic: {}", escape::line(&d.to_string())),
        Observed::Stderr(l) => {
            if l.dropped_before > 0 {
                eprintln!("server stderr: ({} lines dropped)", l.dropped_before);
            }
            eprintln!("server stderr: {}", escape::line(&l.text));
        }
        Observed::Notice(n) => eprintln!("transport: {}", escape::line(n)),
        // Already masked by mcpg-auth; one line per line of the exchange.
        Observed::Auth(x) => {
            eprintln!(
                "auth: {} ({}): {}",
                x.step.title(),
                x.spec,
                escape::line(&x.why)
            );
            for line in x
                .request
                .lines()
                .chain(x.response.iter().flat_map(|r| r.lines()))
            {
                eprintln!("auth:   {}", escape::line(line));
            }
            for f in &x.findings {
                eprintln!(
                    "auth: finding {}: expected {}, got {}",
                    f.rule,
                    escape::line(&f.expected),
                    escape::line(&f.got)
                );
            }
        }
        Observed::Notification { method, params } => {
            eprintln!("notification: {}", escape::line(method));
            if let Some(line) = crate::asks::show::completion(method, params.as_ref()) {
                eprintln!("{line}");
            }
        }
        Observed::ServerRequest { method, by_core } => {
            let who = if *by_core {
                "answered by the core"
            } else {
                "answered by mcpg"
            };
            eprintln!("server request: {} ({who})", escape::line(method));
        }
    })
}
