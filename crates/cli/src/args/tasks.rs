//! `mcpg tasks …`: the task requests, one each (`result` and `list` exist in
//! 2025-11-25 only; the 2026-07-28 Tasks extension has neither).

use clap::Subcommand;

use super::Connection;

/// What to do with a task (each prints the server's raw result as JSON).
#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    /// `tasks/get`: the task's status.
    Get {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The task id.
        id: String,
    },
    /// `tasks/result`: the task's result (waits until the task ends).
    Result {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The task id.
        id: String,
    },
    /// `tasks/list`: the tasks the server keeps (one page).
    List {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The cursor of the page to fetch.
        #[arg(long)]
        cursor: Option<String>,
        /// First start a task in the same session: a tool name, then its
        /// arguments as a JSON object (`--start 'research {"topic":"tides"}'`).
        /// Repeatable. A server keeps tasks per session, so a task started by
        /// another `mcpg` run is not listed.
        #[arg(long, value_name = "TOOL [JSON]")]
        start: Vec<String>,
    },
    /// `tasks/cancel`: asks the server to cancel the task.
    Cancel {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The task id.
        id: String,
    },
}
