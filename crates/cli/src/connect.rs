//! Turning `--stdio` / `--url` and the common flags into a running driver.

use std::sync::Arc;
use std::time::Duration;

use mcpg_core::client::{ClientConfig, Direction, GenerationMode};
use mcpg_core::{Generation, ProtocolVersion};
use mcpg_transport::{
    Driver, DriverConfig, HttpConfig, HttpTransport, Observed, Observer, StdioConfig,
};

use crate::args::{Connection, HttpTransportArg, Protocol};
use crate::asks::Answerer;
use crate::auth::ToldToLogIn;
use crate::escape;
use crate::exit::Failure;

/// Starts the transport the flags ask for (nothing is sent yet). `own_group`
/// starts a stdio server in a process group of its own, for a command that
/// catches Ctrl-C and closes the server itself. With an `answerer`, the client
/// declares what it answers and the server's requests go to it. Also returns
/// whether the run told the user to log in, for [`crate::auth::explain`].
pub fn open(
    conn: &Connection,
    own_group: bool,
    answerer: Option<&Arc<Answerer>>,
) -> Result<(Driver, ToldToLogIn), Failure> {
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
) -> Result<(Driver, ToldToLogIn), Failure> {
    build(conn, own_group, answerer, extra, listen, false).map(|(d, _, told)| (d, told))
}

/// For `mcpg auth login`: [`open`] with the cache ignored (a fresh login), and
/// where the tokens the flow obtains will be.
pub fn open_for_login(conn: &Connection) -> Result<(Driver, Obtained), Failure> {
    let (d, obtained, _) = build(conn, false, None, None, false, true)?;
    let obtained = obtained.ok_or_else(|| {
        Failure::usage("mcpg auth login needs a URL and no Authorization header of its own")
    })?;
    Ok((d, obtained))
}

/// The tokens a login obtained, once it has.
pub type Obtained = Arc<std::sync::Mutex<Option<mcpg_auth::Tokens>>>;

/// [`open_with`], `fresh` ignoring cached tokens; also returns where new tokens land
/// when the connection runs OAuth, and whether the run told the user to log in.
fn build(
    conn: &Connection,
    own_group: bool,
    answerer: Option<&Arc<Answerer>>,
    extra: Option<Observer>,
    listen: bool,
    fresh: bool,
) -> Result<(Driver, Option<Obtained>, ToldToLogIn), Failure> {
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
        // Under 2026-07-28 every request declares the Tasks extension, so a server
        // may answer any `tools/call` with a task, which the core then follows
        // (`tools call` prints its statuses; `--task` catches Ctrl-C to cancel it).
        tasks_extension: conn.tasks_extension,
        ..ClientConfig::default()
    };
    client.probe_timeout = client.probe_timeout.min(timeout);
    let old_transport = conn.transport == HttpTransportArg::Sse;
    client.mode = match conn.protocol {
        // The old HTTP+SSE transport predates `server/discover`: no probe.
        Protocol::Auto if old_transport => GenerationMode::Initialize,
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
    if conn.apps {
        client.capabilities.insert(
            "extensions".into(),
            serde_json::json!({ mcpg_apps::EXTENSION: { "mimeTypes": [mcpg_apps::MIME] } }),
        );
    }
    let headers = http_headers(conn)?;
    let secrets = crate::headers::secrets(&headers);
    let observer = match (conn.verbose, answerer) {
        (true, _) => Some(verbose_observer_hiding(secrets)),
        // A URL elicitation's end is news to the person who opened the URL.
        (false, Some(_)) => both(
            Some(crate::asks::show::completion_observer()),
            Some(crate::task_lines::status_observer()),
        ),
        // A task's statuses are the progress of `tools call --task`.
        (false, None) => Some(crate::task_lines::status_observer()),
    };
    // Speaking the deprecated transport is news even without `--verbose` (which
    // prints the machine's notice saying the same).
    let observer = match (&conn.target.url, conn.verbose) {
        (Some(_), false) => both(observer, Some(Arc::new(show_old_transport))),
        _ => observer,
    };
    let cfg = DriverConfig {
        client,
        observer: both(observer, extra),
        handler: answerer.map(Answerer::handler),
    };
    let mut obtained = None;
    let mut told = ToldToLogIn::default();
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
        (None, Some(url)) => {
            let mut http = HttpConfig::new(url);
            http.transport = match conn.transport {
                HttpTransportArg::Auto => HttpTransport::Auto,
                HttpTransportArg::StreamableHttp => HttpTransport::StreamableHttp,
                HttpTransportArg::Sse => HttpTransport::Sse,
            };
            let own = headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("authorization"));
            http.headers = headers;
            if let Some(p) = crate::auth::prepare(conn, url, own, fresh)? {
                obtained = Some(p.obtained);
                told = p.told;
                http.auth = Some(p.options);
            }
            Driver::http(http, cfg)?
        }
        (None, None) => return Err(Failure::usage("one of --stdio and --url is required")),
    };
    Ok((driver, obtained, told))
}

/// Says on stderr that the connection fell back to (or was told to use) the old
/// HTTP+SSE transport; Streamable HTTP, the norm, goes unsaid.
fn show_old_transport(o: &Observed) {
    if let Observed::Transport(c) = o
        && c.transport == HttpTransport::Sse
    {
        eprintln!("transport: {}", escape::line(&c.why));
    }
}

/// The `--header` and `--bearer-env` headers, for `--url` only (a stdio server
/// gets no HTTP request to carry them: saying so beats ignoring them).
fn http_headers(conn: &Connection) -> Result<Vec<(String, String)>, Failure> {
    if conn.target.url.is_none() {
        if !conn.headers.is_empty() || conn.bearer_env.is_some() {
            return Err(Failure::usage(
                "--header and --bearer-env apply to --url only (a stdio server gets no HTTP headers)",
            ));
        }
        if conn.transport != HttpTransportArg::Auto {
            return Err(Failure::usage(
                "--transport applies to --url only (a stdio server has no HTTP transport)",
            ));
        }
        let a = &conn.auth;
        if a.login
            || a.client_id.is_some()
            || !a.scopes.is_empty()
            || a.client_metadata_url.is_some()
        {
            return Err(Failure::usage(
                "--login, --client-id, --scope and --client-metadata-url apply to --url only",
            ));
        }
    }
    crate::headers::resolve(&conn.headers, conn.bearer_env.as_deref(), |k| {
        std::env::var(k).ok()
    })
    .map_err(|e| Failure::usage(e.to_string()))
}

/// The values of the headers the flags send (and their credential parts), for
/// masking wherever a server's words are kept or shown.
pub fn header_secrets(conn: &Connection) -> Vec<String> {
    http_headers(conn)
        .map(|h| crate::headers::secrets(&h))
        .unwrap_or_default()
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
    verbose_observer_hiding(Vec::new())
}

/// [`verbose_observer`] that also masks each of `secrets` wherever it turns up (a
/// server or a transport notice may echo a header it was sent).
pub fn verbose_observer_hiding(secrets: Vec<String>) -> Observer {
    Arc::new(move |o: &Observed| print_observed(o, &secrets))
}

/// One observed thing on stderr, secrets masked.
fn print_observed(o: &Observed, secrets: &[String]) {
    let line = |s: &str| escape::line(&crate::headers::scrub(s, secrets));
    match o {
        Observed::Wire(w) => {
            let arrow = if w.direction == Direction::Sent {
                ">>"
            } else {
                "<<"
            };
            eprintln!("{arrow} {}", line(&w.raw));
        }
        Observed::Diagnostic(d) => eprintln!("diagnostic: {}", line(&d.to_string())),
        Observed::Stderr(l) => {
            if l.dropped_before > 0 {
                eprintln!("server stderr: ({} lines dropped)", l.dropped_before);
            }
            eprintln!("server stderr: {}", line(&l.text));
        }
        Observed::Notice(n) => eprintln!("transport: {}", line(n)),
        // The machine's notice (printed above) already said which and why.
        Observed::Transport(_) => {}
        // Already masked by mcpg-auth; one line per line of the exchange.
        Observed::Auth(x) => {
            eprintln!("auth: {} ({}): {}", x.step.title(), x.spec, line(&x.why));
            for l in x
                .request
                .lines()
                .chain(x.response.iter().flat_map(|r| r.lines()))
            {
                eprintln!("auth:   {}", line(l));
            }
            for f in &x.findings {
                eprintln!(
                    "auth: finding {}: expected {}, got {}",
                    f.rule,
                    line(&f.expected),
                    line(&f.got)
                );
            }
        }
        Observed::Notification { method, params } => {
            eprintln!("notification: {}", line(method));
            if let Some(line) = crate::asks::show::completion(method, params.as_ref()) {
                eprintln!("{line}");
            }
        }
        Observed::Task { event, .. } => eprintln!("{}", crate::task_lines::task_line(event)),
        Observed::ServerRequest { method, by_core } => {
            let who = if *by_core {
                "answered by the core"
            } else {
                "answered by mcpg"
            };
            eprintln!("server request: {} ({who})", line(method));
        }
    }
}
