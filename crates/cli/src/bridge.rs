//! `mcpg serve` (the bridge for the page) and `mcpg demo` (the demo server on stdio,
//! or over Streamable HTTP with `--http`).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use clap::Args;
use mcpg_bridge::{BridgeError, PageOrigin, ServeOptions};

use crate::exit::Failure;

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

/// Runs the bridge until Ctrl-C or SIGTERM.
pub async fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let opts = ServeOptions {
        bind: args.bind,
        port: args.port,
        config: args.config.clone(),
        dist: args.dist.clone(),
        allow_remote_bind: args.allow_remote_bind,
        page_origins: args.page_origin.clone(),
        allow_private_auth: args.allow_private_auth,
    };
    mcpg_bridge::serve(opts).await.map_err(|e| match e {
        BridgeError::NonLoopback { .. }
        | BridgeError::InvalidConfig { .. }
        | BridgeError::ReadConfig { .. }
        | BridgeError::HostedLink(_) => Failure::usage(e.to_string()),
        other => Failure::transport(other.to_string()),
    })
}

/// `mcpg demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Serve over Streamable HTTP instead of stdio, at ADDR (loopback only;
    /// default 127.0.0.1:8808, port 0 lets the OS pick); prints the URL to paste
    /// into a client.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8808")]
    pub http: Option<SocketAddr>,
}

/// Runs the demo server on stdin/stdout until stdin closes, or over HTTP until
/// the process is ended.
pub async fn demo(args: &DemoArgs) -> Result<(), Failure> {
    match args.http {
        Some(addr) => mcpg_bridge::run_demo_http(addr).await.map_err(|e| match e {
            BridgeError::DemoNotLoopback { .. } => Failure::usage(e.to_string()),
            other => Failure::transport(format!("demo server: {other}")),
        }),
        None => mcpg_bridge::run_demo_stdio()
            .await
            .map_err(|e| Failure::transport(format!("demo server: {e}"))),
    }
}
