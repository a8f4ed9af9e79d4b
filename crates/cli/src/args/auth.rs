//! `mcpg auth login|logout|status` and the OAuth flags every `--url` command takes.

use clap::{Args, Subcommand};

/// How a command logs in to a server behind OAuth (issue 15). Without `--login`, a
/// command uses the cached tokens (refreshing them) and never opens a browser.
#[derive(Clone, Debug, Default, Args)]
pub struct AuthFlags {
    /// When no cached login works, log in now: print the authorization URL, open it
    /// in the browser if possible and wait for it on a loopback redirect (what
    /// `mcpg auth login` does). Without it, a command that needs a login fails and
    /// says to run `mcpg auth login URL`.
    #[arg(long)]
    pub login: bool,
    /// A client ID registered by hand with the authorization server (skips client
    /// ID metadata documents and dynamic registration).
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// The pre-registered client's secret, read from this environment variable
    /// (needs `--client-id`).
    #[arg(long, value_name = "VAR", requires = "client_id")]
    pub client_secret_env: Option<String>,
    /// Ask for this scope (repeatable); else the server's challenge or the
    /// scopes it advertises decide.
    #[arg(long = "scope", value_name = "SCOPE")]
    pub scopes: Vec<String>,
    /// This client's metadata document (an HTTPS URL, used as its client ID where
    /// the authorization server supports client ID metadata documents).
    #[arg(long, value_name = "URL")]
    pub client_metadata_url: Option<String>,
    /// Print the authorization URL but do not try to open a browser.
    #[arg(long)]
    pub no_browser: bool,
    /// Seconds to wait for the browser to come back to the loopback redirect.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub login_timeout: u64,
}

/// `mcpg auth …`.
#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Log in to a server behind OAuth and cache the tokens (in
    /// $MCPG_CONFIG_DIR/tokens, else $XDG_CONFIG_HOME/mcpg/tokens, else
    /// ~/.config/mcpg/tokens; mode 0600). Other commands then use them.
    Login(LoginArgs),
    /// Forget the cached tokens of a server.
    Logout {
        /// The server's MCP endpoint URL.
        url: String,
    },
    /// List the cached logins (tokens masked), or the one of URL.
    Status {
        /// The server's MCP endpoint URL.
        url: Option<String>,
    },
}

/// `mcpg auth login`'s flags.
#[derive(Debug, Args)]
pub struct LoginArgs {
    /// The server's MCP endpoint URL.
    pub url: String,
    /// How to log in.
    #[command(flatten)]
    pub auth: AuthFlags,
    /// Speak only this revision (it decides the discovery order and the `iss` checks).
    #[arg(long, value_name = "REV")]
    pub protocol_version: Option<String>,
    /// Seconds to wait for each answer of the MCP server.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Print every exchange of the flow (secrets masked) and the wire log to stderr.
    #[arg(long, short)]
    pub verbose: bool,
}
