//! The flags of `mcpg serve` (the bridge) and `mcpg demo`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use clap::Args;
use mcpg_bridge::PageOrigin;

/// `mcpg serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on; 0 lets the OS pick one.
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Config file (TOML: [[server]], [[remote]], [limits], allowed_origins);
    /// without it, only the built-in demo server is offered.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Folder with the built page.
    #[arg(long, value_name = "DIR", default_value = "dist")]
    pub dist: PathBuf,
    /// Address to listen on.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Allow an address other machines can reach (the token still guards the API).
    #[arg(long)]
    pub allow_remote_bind: bool,
    /// Trust a page hosted elsewhere, e.g. https://example.org/playground/ (its
    /// origin may use this bridge; the path is used in the printed link, which
    /// carries the bridge's address and token in its fragment). Repeatable.
    #[arg(long, value_name = "ORIGIN_OR_URL")]
    pub page_origin: Vec<PageOrigin>,
    /// Let the page's OAuth go-between reach loopback and private addresses (a
    /// local authorization server), and configured remote names resolve to them;
    /// refused by default, since a remote server chooses those URLs. Same as
    /// `allow_private_auth = true` in the config.
    #[arg(long)]
    pub allow_private_auth: bool,
}

/// `mcpg demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Serve over Streamable HTTP instead of stdio, at ADDR (loopback only;
    /// default 127.0.0.1:8808, port 0 lets the OS pick); prints the URL to paste
    /// into a client.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8808")]
    pub http: Option<SocketAddr>,
    /// With --http: serve the official MCP conformance suite's fixtures
    /// (test_simple_text, test://static-text, test_simple_prompt, ...) instead of
    /// the lessons' demo, to run `@modelcontextprotocol/conformance server` against.
    #[arg(long, requires = "http")]
    pub conformance: bool,
}
