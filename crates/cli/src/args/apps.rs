//! The command line of `apps`, as clap reads it.

use clap::Subcommand;

use super::connection::Connection;

/// `mcpg apps …`.
#[derive(Debug, Subcommand)]
pub enum AppsCommand {
    /// Check every view a server's tools link (MCP Apps): the `ui://` resource
    /// exists, its MIME type is text/html;profile=mcp-app, its declared CSP holds
    /// origins only, and each tool's visibility names only "model" and "app".
    /// Exit 0 when all hold, 1 when one does not (2: usage; 3, 4: as elsewhere).
    Check {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// Print the findings as one JSON object instead.
        #[arg(long)]
        json: bool,
    },
}
