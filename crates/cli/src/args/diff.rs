//! `mcpg diff A [B | --stdio CMD | --url URL]`.

use clap::Args;

use super::Connection;

/// Two sessions compared, or a session and a live server.
#[derive(Debug, Args)]
// The connection flags name the live server, which B being a session makes optional.
#[command(mut_group("Target", |g| g.required(false)))]
pub struct DiffArgs {
    /// Session A ("before"): a session file, a playground link, or its `#s1.…` fragment.
    pub a: String,
    /// Session B ("after"), as A. Leave it out and give `--stdio` or `--url` to
    /// compare A with a live server instead.
    #[arg(conflicts_with_all = ["stdio", "url"], required_unless_present_any = ["stdio", "url"])]
    pub b: Option<String>,
    /// Print the diff as one JSON object (for CI).
    #[arg(long)]
    pub json: bool,
    /// Against a live server: compare the tool catalogs only, without re-running
    /// A's recorded calls (which a live server would execute).
    #[arg(long)]
    pub no_calls: bool,
    /// The live server B, when B is not a session (used only with `--stdio` or
    /// `--url`: see [`DiffArgs::live`]).
    #[command(flatten)]
    pub conn: Connection,
}

impl DiffArgs {
    /// The live server's connection flags, when `--stdio` or `--url` names one.
    pub fn live(&self) -> Option<&Connection> {
        let t = &self.conn.target;
        (t.stdio.is_some() || t.url.is_some()).then_some(&self.conn)
    }
}
