//! Binding, the one printed line, and a shutdown that ends every server process.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use mcpg_bridge_api::BridgeLink;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

use crate::app::app;
use crate::config::Config;
use crate::error::BridgeError;
use crate::loopback::io;
use crate::page_origin::{PageOrigin, bridge_base};
use crate::state::AppState;
use crate::token::Token;

/// How long open connections get to finish after a shutdown signal.
const DRAIN_CONNECTIONS: Duration = Duration::from_secs(5);
/// How long server processes get to be stopped and reaped (close stdin, SIGTERM,
/// SIGKILL take up to about 4 s each, in parallel).
const REAP_CHILDREN: Duration = Duration::from_secs(10);

/// What `mcpg serve` was asked for.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address to listen on; loopback unless `allow_remote_bind`.
    pub bind: IpAddr,
    /// Port; 0 lets the OS pick.
    pub port: u16,
    /// Config file; the built-in demo-only config when `None`.
    pub config: Option<PathBuf>,
    /// Where the built page is.
    pub dist: PathBuf,
    /// Allow a non-loopback `bind`.
    pub allow_remote_bind: bool,
    /// Pages hosted elsewhere that may use this bridge (`--page-origin`).
    pub page_origins: Vec<PageOrigin>,
    /// Let the go-between reach private addresses (`--allow-private-auth`), as the
    /// config's `allow_private_auth` does; either one is enough.
    pub allow_private_auth: bool,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            config: None,
            dist: PathBuf::from("dist"),
            allow_remote_bind: false,
            page_origins: Vec::new(),
            allow_private_auth: false,
        }
    }
}

/// Refuses an address other machines can reach unless that was asked for explicitly.
pub fn check_bind(opts: &ServeOptions) -> Result<SocketAddr, BridgeError> {
    let addr = SocketAddr::new(opts.bind, opts.port);
    if !opts.bind.is_loopback() && !opts.allow_remote_bind {
        return Err(BridgeError::NonLoopback { addr });
    }
    Ok(addr)
}

/// Binds, prints `MCP Playground: open http://127.0.0.1:PORT/?token=TOKEN` (and,
/// per `--page-origin`, a line with the hosted page's link), and serves until Ctrl-C
/// or SIGTERM; then closes connections and ends every server.
pub async fn serve(opts: ServeOptions) -> Result<(), BridgeError> {
    let addr = check_bind(&opts)?;
    let mut config = match &opts.config {
        Some(path) => Config::load(path)?,
        None => Config::default_for_demo()?,
    };
    // A hosted page is trusted exactly like a config's `allowed_origins`: the same
    // Origin check and the same CORS answers, for its origin only.
    config.trust_pages(&opts.page_origins);
    config.allow_private_auth |= opts.allow_private_auth;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(io(&format!("could not listen on {addr}")))?;
    let local = listener
        .local_addr()
        .map_err(io("could not read the bound address"))?;
    let token = Token::generate()?;
    let state = AppState::new(config, token, local, opts.dist.clone())?;

    let lines = printed_lines(local, state.token(), &opts.page_origins)?;
    let mut out = tokio::io::stdout();
    out.write_all(lines.as_bytes())
        .await
        .map_err(io("could not print the URL"))?;
    out.flush().await.map_err(io("could not print the URL"))?;

    let stop = state.shutdown_signal().clone();
    tokio::spawn({
        let stop = stop.clone();
        async move {
            wait_for_signal().await;
            stop.cancel();
        }
    });
    let server = axum::serve(listener, app(state.clone()))
        .with_graceful_shutdown(stop.clone().cancelled_owned());
    let served = tokio::select! {
        r = server => r.map_err(io("serving failed")),
        // Upgraded WebSockets are not tracked by the graceful shutdown; they watch
        // the same signal themselves. This only caps the wait for the rest.
        () = async { stop.cancelled().await; tokio::time::sleep(DRAIN_CONNECTIONS).await } => Ok(()),
    };
    // Whatever happened, no server process may outlive the bridge.
    stop.cancel();
    state.wait_children_reaped(REAP_CHILDREN).await;
    served
}

/// What `serve` prints once it listens: the same-origin URL (its token in the query,
/// which only ever goes to the bridge itself), then one line per hosted page whose
/// link carries the bridge's address and token in the fragment, which the browser
/// never sends to the page's host.
fn printed_lines(
    local: SocketAddr,
    token: &Token,
    pages: &[PageOrigin],
) -> Result<String, BridgeError> {
    let base = bridge_base(local);
    let mut out = format!("MCP Playground: open {base}/?token={}\n", token.as_str());
    if pages.is_empty() {
        return Ok(out);
    }
    let link = BridgeLink::new(&base, token.as_str()).map_err(BridgeError::HostedLink)?;
    for page in pages {
        out.push_str(&format!(
            "MCP Playground (hosted page, {}): open {}\n",
            page.origin(),
            page.link(&link)
        ));
    }
    Ok(out)
}

async fn wait_for_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_printed_lines_name_the_bridge_and_each_hosted_page() {
        let local: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let token = Token::from_string("t0k");
        assert_eq!(
            printed_lines(local, &token, &[]).unwrap(),
            "MCP Playground: open http://127.0.0.1:8080/?token=t0k\n"
        );
        let pages = [PageOrigin::parse("https://example.org/playground/").unwrap()];
        let text = printed_lines(local, &token, &pages).unwrap();
        let hosted = text.lines().nth(1).unwrap();
        assert_eq!(
            hosted,
            "MCP Playground (hosted page, https://example.org): open \
             https://example.org/playground/#bridge=http://127.0.0.1:8080&token=t0k"
        );
        // A bridge other machines reach (--allow-remote-bind on a LAN address) has
        // no hosted link: the page would refuse an address off this machine.
        let lan: SocketAddr = "192.168.1.5:8080".parse().unwrap();
        assert!(matches!(
            printed_lines(lan, &token, &pages),
            Err(BridgeError::HostedLink(_))
        ));
        assert!(printed_lines(lan, &token, &[]).is_ok());
    }
}
