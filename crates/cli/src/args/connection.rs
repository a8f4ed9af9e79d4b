//! Which server, and how to talk to it: the flags every server command takes.

use clap::{Args, ValueEnum};
use mcpg_core::model::LoggingLevel;

use super::auth::AuthFlags;
use crate::asks::AskFlags;
use crate::headers::Header;

/// Which server, and how to talk to it.
#[derive(Debug, Args)]
pub struct Connection {
    /// Which server.
    #[command(flatten)]
    pub target: Target,
    /// Seconds to wait for each answer.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Print the wire log, diagnostics and the server's stderr to stderr.
    #[arg(long, short)]
    pub verbose: bool,
    /// Which protocol generation to use.
    #[arg(long, value_enum, default_value_t = Protocol::Auto)]
    pub protocol: Protocol,
    /// For `--url`: which HTTP transport. `auto` POSTs `initialize` as Streamable
    /// HTTP and, when that answers 400, 404 or 405, opens the old HTTP+SSE
    /// transport (2024-11-05: GET the URL, POST to the endpoint it names).
    #[arg(long, value_enum, default_value_t = HttpTransportArg::Auto)]
    pub transport: HttpTransportArg,
    /// Speak only this revision: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25
    /// or 2026-07-28 (its generation follows; `--protocol` must agree or be auto).
    #[arg(long, value_name = "REV")]
    pub protocol_version: Option<String>,
    /// Ask for the server's log messages at this level and above (debug, info,
    /// notice, warning, error, critical, alert, emergency); each is printed to
    /// stderr on one line: level, logger, data.
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    pub log_level: Option<LoggingLevel>,
    /// Send this HTTP header with every request to `--url` (repeatable), e.g.
    /// `--header 'X-Api-Key: …'`. Values are never printed, logged, shared or saved.
    #[arg(long = "header", short = 'H', value_name = "NAME: VALUE", value_parser = crate::headers::parse)]
    pub headers: Vec<Header>,
    /// Send `Authorization: Bearer <token>` with the token read from this
    /// environment variable, so it never appears on a command line.
    #[arg(long, value_name = "VAR")]
    pub bearer_env: Option<String>,
    /// How to log in where the server wants OAuth.
    #[command(flatten)]
    pub auth: AuthFlags,
    /// How to answer what the server asks (elicitation, sampling, roots).
    #[command(flatten)]
    pub asks: AskFlags,
    /// Declare MCP Apps support (`io.modelcontextprotocol/ui`), so that the server
    /// shows its tools' views: set by the commands that report them, not a flag.
    #[arg(skip)]
    pub apps: bool,
    /// Declare the 2026-07-28 Tasks extension (`io.modelcontextprotocol/tasks`) in
    /// every request: on, except for a replay of a session that declared it not.
    #[arg(skip = true)]
    pub tasks_extension: bool,
}

/// `--log-level`'s value, one of the 8 syslog levels MCP uses.
fn level(s: &str) -> Result<LoggingLevel, String> {
    LoggingLevel::parse(s.trim()).ok_or_else(|| {
        let all: Vec<&str> = LoggingLevel::ALL.iter().map(|l| l.as_str()).collect();
        format!("not a level; one of {}", all.join(", "))
    })
}

/// Exactly one of `--stdio` and `--url`.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Target {
    /// Start this server command and talk over stdio (one string, split like a shell).
    #[arg(long, value_name = "CMD ARGS")]
    pub stdio: Option<String>,
    /// Talk Streamable HTTP (or, see `--transport`, HTTP+SSE) to this endpoint.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
}

/// `--transport`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HttpTransportArg {
    /// Streamable HTTP, falling back to HTTP+SSE on 400, 404 or 405.
    #[default]
    Auto,
    /// Only Streamable HTTP (2025-03-26 and later).
    StreamableHttp,
    /// Only the deprecated HTTP+SSE transport (2024-11-05).
    Sse,
}

/// `--protocol`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    /// Probe `server/discover` (2026-07-28), fall back to `initialize`.
    Auto,
    /// Only the `initialize` handshake (up to 2025-11-25).
    Initialize,
    /// Only stateless 2026-07-28.
    Stateless,
}
