//! The command line, as clap reads it: the commands here, their connection
//! flags in `connection.rs`, resources, prompts and completions in `catalog.rs`.

mod apps;
mod auth;
mod catalog;
mod connection;
mod diff;
mod doctor;
mod lint;
mod loops;
mod serve;
mod skills;
mod tasks;

use clap::{Parser, Subcommand};

pub use apps::AppsCommand;
pub use auth::{AuthCommand, AuthFlags, LoginArgs};
pub use catalog::{Complete, PromptsCommand, ResourcesCommand};
pub use connection::{Connection, HttpTransportArg, Protocol, Target};
pub use diff::DiffArgs;
pub use doctor::DoctorArgs;
pub use lint::LintArgs;
pub use loops::{EvalArgs, LoopArgs};
pub use serve::{DemoArgs, ServeArgs};
pub use skills::SkillsCommand;
pub use tasks::TasksCommand;

/// A command-line MCP client: inspect a server, list and call its tools, read its
/// resources, get its prompts, ask for completions, follow its log messages.
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
    /// Look at or cancel tasks (`tasks/get`, `tasks/cancel`; under 2025-11-25
    /// also `tasks/result`, `tasks/list`, which the 2026-07-28 extension lacks).
    Tasks {
        /// What to do with tasks.
        #[command(subcommand)]
        command: TasksCommand,
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
    /// List skills, get one with its files verified, or read a directory (the Skills extension, 2026-07-28).
    Skills {
        /// What to do with skills.
        #[command(subcommand)]
        command: SkillsCommand,
    },
    /// Check the views a server's tools link (MCP Apps).
    Apps {
        /// What to do.
        #[command(subcommand)]
        command: AppsCommand,
    },
    /// Log in to a server behind OAuth, log out, list the cached logins.
    Auth {
        /// What to do.
        #[command(subcommand)]
        command: AuthCommand,
    },
    /// Client for the official conformance suite (`@modelcontextprotocol/conformance`);
    /// the scenario comes from `MCP_CONFORMANCE_SCENARIO`.
    ConformanceClient {
        /// The test server's URL (the suite appends it).
        url: String,
    },
    /// Run the bridge: serves the page and lets it use the configured local servers
    /// (WebSocket) and remote ones (HTTP relay). Loopback only, token-protected.
    Serve(ServeArgs),
    /// Run the demo server over stdio (for `--stdio 'mcpg demo'` and the bridge),
    /// or over Streamable HTTP with `--http [ADDR]`.
    Demo(DemoArgs),
    /// Run the six steps of the tool loop for one message, printing each step as
    /// the page shows it (with the mock model, or a real one).
    Loop(LoopArgs),
    /// Run a suite of cases (TOML) × models × repeats through the loop and report
    /// whether models still pick the server's tools and fill them right.
    Eval(EvalArgs),
    /// Check a server step by step (name, TCP, TLS, HTTP, CORS, sign-in,
    /// handshakes, revisions, tools, schemas, capabilities; for stdio the program
    /// and its start-up): each check passes, warns, fails or is skipped, with the
    /// evidence and the fix. Exit 0 without failures (warnings allowed), 1 with any.
    Doctor(DoctorArgs),
    /// Re-run a shared session's recorded tools/list and tools/call steps against a
    /// live server and report every difference (exit 0 when there is none).
    Replay {
        /// A session file, a playground link, or its `#s1.…` fragment.
        source: String,
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
    },
    /// Serve a recorded session (file or link) as an MCP server over stdio (or
    /// Streamable HTTP with `--http`): its handshake, tools/list pages and recorded
    /// answers (an unrecorded call gets an error naming the nearest recorded one).
    Mock {
        /// A session file, a playground link, or its `#s1.…` fragment.
        source: String,
        /// Serve over Streamable HTTP instead of stdio, at ADDR (loopback only;
        /// default 127.0.0.1:8808, port 0 lets the OS pick); prints the URL to
        /// paste into a client.
        #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8808")]
        http: Option<std::net::SocketAddr>,
    },
    /// Compare two sessions (files or links), or a session with a live server: tools
    /// added, removed, renamed and changed, and answers to the same call that changed
    /// (exit 0 when there is no difference, 1 when there is).
    Diff(DiffArgs),
}

/// `mcpg tools …`.
#[derive(Debug, Subcommand)]
pub enum ToolsCommand {
    /// List every tool of every page. Marks a tool that links a view (MCP Apps, whose support it declares) and one
    /// hidden from the model.
    List {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// Print a JSON array of all tools instead.
        #[arg(long)]
        json: bool,
    },
    /// Say what each provider format would reject, rewrite or drop of every tool
    /// (exit 1 when a format rejects one).
    Lint(LintArgs),
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
        /// Run the call as a task: print each status as it moves, the result at
        /// the end; Ctrl-C cancels the task (`tasks/cancel`). Under 2025-11-25 the
        /// call asks for a task; under 2026-07-28 (the Tasks extension) the server
        /// decides.
        #[arg(long)]
        task: bool,
        /// How long the server should keep the task, in milliseconds (2025-11-25
        /// only: under the Tasks extension the server chooses).
        #[arg(long, value_name = "MS", requires = "task")]
        ttl: Option<u64>,
    },
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every subcommand's flags are consistent: no flag flattened into the
    /// connection flags (headers, logins, asks) clashes with a command's own.
    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
