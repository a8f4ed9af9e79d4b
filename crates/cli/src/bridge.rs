//! `mcpg serve` (the bridge for the page) and `mcpg demo` (the demo server on stdio,
//! or over Streamable HTTP with `--http`).

use mcpg_bridge::{BridgeError, DemoProfile, ServeOptions};

use crate::args::{DemoArgs, ServeArgs};
use crate::exit::Failure;

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

/// Runs the demo server on stdin/stdout until stdin closes, or over HTTP until
/// the process is ended.
pub async fn demo(args: &DemoArgs) -> Result<(), Failure> {
    match args.http {
        Some(addr) => {
            let profile = if args.conformance {
                DemoProfile::Conformance
            } else {
                DemoProfile::Demo
            };
            mcpg_bridge::run_demo_http(addr, profile)
                .await
                .map_err(|e| match e {
                    BridgeError::DemoNotLoopback { .. } => Failure::usage(e.to_string()),
                    other => Failure::transport(format!("demo server: {other}")),
                })
        }
        None => mcpg_bridge::run_demo_stdio()
            .await
            .map_err(|e| Failure::transport(format!("demo server: {e}"))),
    }
}
