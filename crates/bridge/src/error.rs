//! Errors that stop the bridge from starting (running connections report to the page).

use std::net::SocketAddr;
use std::path::PathBuf;

/// Why `serve` (or loading a config) failed.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// The config file could not be read.
    #[error("could not read the config {path}: {source}")]
    ReadConfig {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// The config file is not valid.
    #[error("invalid config{}: {why}", path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default())]
    InvalidConfig {
        /// The file, when it came from one.
        path: Option<PathBuf>,
        /// What is wrong.
        why: String,
    },
    /// A non-loopback address was asked for without `--allow-remote-bind`.
    #[error(
        "refusing to listen on {addr}: it is reachable from other machines; \
         pass --allow-remote-bind if you really mean it"
    )]
    NonLoopback {
        /// The address asked for.
        addr: SocketAddr,
    },
    /// `mcpg demo --http` was asked for a non-loopback address (the demo has no sign-in).
    #[error(
        "refusing to serve the demo on {addr}: it has no sign-in, so it listens on loopback only (127.0.0.1, [::1])"
    )]
    DemoNotLoopback {
        /// The address asked for.
        addr: SocketAddr,
    },
    /// Binding, serving or printing failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// `--page-origin` with a bridge that is not on loopback: the hosted page only
    /// ever uses a bridge on this machine, so its link would be refused.
    #[error("--page-origin needs the bridge on loopback (127.0.0.1, ::1): {0}")]
    HostedLink(#[source] mcpg_bridge_api::BridgeLinkError),
    /// The random token could not be made.
    #[error("could not get random bytes for the token: {0}")]
    Random(String),
}
