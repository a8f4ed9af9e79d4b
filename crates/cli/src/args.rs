//! The command line, as clap reads it.

use clap::{Args, Parser, Subcommand, ValueEnum};

use mcpg_core::model::LoggingLevel;

use crate::bridge::ServeArgs;
use crate::catalog::args::{Complete, PromptsCommand, ResourcesCommand};

/// A command-line MCP client: inspect a server, list its tools, call one.
#[derive(Debug, Parser)]
#[command(name = "mcpg", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show the server's name, version, protocol, capabilities and instructions.
    Info {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
    },
    /// List or call tools.
    Tools {
        /// What to do with tools.
        #[command(subcommand)]
        command: ToolsCommand,
    },
    /// List, read or subscribe to resources.
    Resources {
        /// What to do with resources.
        #[command(subcommand)]
        command: ResourcesCommand,
    },
    /// List or get prompts.
    Prompts {
        /// What to do with prompts.
        #[command(subcommand)]
        command: PromptsCommand,
    },
    /// Ask for completions of a prompt argument or a resource template variable.
    Complete(Complete),
    /// Client for the official conformance suite (`@modelcontextprotocol/conformance`);
    /// the scenario comes from `MCP_CONFORMANCE_SCENARIO`.
    ConformanceClient {
        /// The test server's URL (the suite appends it).
        url: String,
    },
    /// Run the bridge: serves the page and lets it use the configured local servers
    /// (WebSocket) and remote ones (HTTP relay). Loopback only, token-protected.
    Serve(ServeArgs),
    /// Run the demo server over stdio (for `--stdio 'mcpg demo'` and the bridge).
    Demo,
    /// Re-run a shared session's recorded tools/list and tools/call steps against a
    /// live server and report every difference (exit 0 when there is none).
    Replay {
        /// A session file, a playground link, or its `#s1.…` fragment.
        source: String,
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
    },
}

/// `mcpg tools …`.
#[derive(Debug, Subcommand)]
pub enum ToolsCommand {
    /// List every tool of every page.
    List {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// Print a JSON array of all tools instead.
        #[arg(long)]
        json: bool,
    },
    /// Call one tool and print its result.
    Call {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The tool's name.
        tool: String,
        /// The arguments, as a JSON object.
        #[arg(long, value_name = "JSON")]
        args: Option<String>,
        /// Print the raw CallToolResult JSON instead.
        #[arg(long)]
        json: bool,
    },
}

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
    /// Speak only this revision: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25
    /// or 2026-07-28 (its generation follows; `--protocol` must agree or be auto).
    #[arg(long, value_name = "REV")]
    pub protocol_version: Option<String>,
    /// Ask for the server's log messages at this level and above (debug, info,
    /// notice, warning, error, critical, alert, emergency); each is printed to
    /// stderr on one line: level, logger, data.
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    pub log_level: Option<LoggingLevel>,
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
    /// Talk Streamable HTTP to this endpoint.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
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
