//! `mcpg doctor URL | --stdio CMD`.

use clap::{ArgGroup, Args};

use crate::headers::Header;

/// The page's origin a preflight is sent from when `--origin` is not given: the
/// page served from `dist/` by `python3 -m http.server` (docs/static-hosting.md).
pub const DEFAULT_ORIGIN: &str = "http://127.0.0.1:8000";

/// `mcpg doctor`'s flags.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("server").required(true).args(["url", "stdio"])))]
pub struct DoctorArgs {
    /// The server's Streamable HTTP endpoint.
    #[arg(value_name = "URL")]
    pub url: Option<String>,
    /// Start this server command and check it over stdio (one string, split like a shell).
    #[arg(long, value_name = "CMD ARGS")]
    pub stdio: Option<String>,
    /// The page's origin for the CORS check (URL only).
    #[arg(long, value_name = "ORIGIN", default_value = DEFAULT_ORIGIN)]
    pub origin: String,
    /// Print the report as JSON (`{"target", "worst", "checks": [{"id", "title",
    /// "verdict", "evidence", "fix"}]}`) for CI.
    #[arg(long)]
    pub json: bool,
    /// Seconds to wait for each answer.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Send this HTTP header with every request (repeatable). Values are never printed.
    #[arg(long = "header", short = 'H', value_name = "NAME: VALUE", value_parser = crate::headers::parse)]
    pub headers: Vec<Header>,
    /// Send `Authorization: Bearer <token>` with the token read from this
    /// environment variable (to run the checks signed in).
    #[arg(long, value_name = "VAR")]
    pub bearer_env: Option<String>,
}
