//! What every request handler shares: the config, the secret, the allow-lists, the
//! side channels and the child-process budget.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderName, HeaderValue};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::egress::{self, GuardedResolver};
use crate::error::BridgeError;
use crate::events::Channels;
use crate::remote_headers::ResolvedHeaders;
use crate::token::Token;

/// The state behind [`crate::app`]; cheap to clone.
///
/// [`AppState::new`] fails when a remote's header reads an unset `env:` variable.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    config: Config,
    token: Token,
    hosts: Vec<String>,
    origins: Vec<String>,
    dist: PathBuf,
    channels: Channels,
    children: Arc<Semaphore>,
    shutdown: CancellationToken,
    http: reqwest::Client,
    oauth_http: reqwest::Client,
    remote_headers: ResolvedHeaders,
    hidden_env: Vec<String>,
}

impl AppState {
    /// State for a bridge listening on `addr`, serving the page from `dist`.
    ///
    /// The allowed `Host` values are the loopback names with `addr`'s port (plus
    /// `addr` itself when it is a specific non-loopback address, which `serve` only
    /// binds after `--allow-remote-bind`); the allowed origins are those hosts over
    /// `http://` plus the config's `allowed_origins`.
    pub fn new(
        config: Config,
        token: Token,
        addr: SocketAddr,
        dist: PathBuf,
    ) -> Result<AppState, BridgeError> {
        let port = addr.port();
        let mut hosts = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        let ip = addr.ip();
        if !ip.is_loopback() && !ip.is_unspecified() {
            hosts.push(addr.to_string());
        }
        let mut origins: Vec<String> = hosts.iter().map(|h| format!("http://{h}")).collect();
        origins.extend(config.allowed_origins.iter().cloned());
        let client_error = |e: reqwest::Error| BridgeError::Io {
            what: "could not set up the HTTP client".into(),
            source: std::io::Error::other(e.to_string()),
        };
        // See `egress`: who may reach private addresses, and why.
        let guard =
            |trusted| (!config.allow_private_auth).then(|| GuardedResolver::trusting(trusted));
        let http = egress::client(guard(egress::localhost_names(
            config.remotes.iter().map(|r| r.url.as_str()),
        )))
        .map_err(client_error)?;
        let oauth_http = egress::client(guard(HashSet::new())).map_err(client_error)?;
        let children = Arc::new(Semaphore::new(config.limits.max_children));
        // Read once, at launch: a missing variable stops the bridge with its name.
        let remote_headers = ResolvedHeaders::resolve(
            config.remotes.iter().map(|r| (r.name.as_str(), &r.headers)),
            |var| std::env::var(var).ok(),
        )?;
        // The variables behind `env:` remote headers are secrets for those remotes:
        // a stdio server (untrusted code, often) must not read them.
        let mut hidden_env: Vec<String> = config
            .remotes
            .iter()
            .flat_map(|r| r.headers.env_vars().map(str::to_owned))
            .collect();
        hidden_env.sort();
        hidden_env.dedup();
        Ok(AppState(Arc::new(Inner {
            config,
            token,
            hosts,
            origins,
            dist,
            channels: Channels::default(),
            children,
            shutdown: CancellationToken::new(),
            http,
            oauth_http,
            remote_headers,
            hidden_env,
        })))
    }

    /// The config.
    pub fn config(&self) -> &Config {
        &self.0.config
    }

    /// The secret every API request must carry.
    pub fn token(&self) -> &Token {
        &self.0.token
    }

    /// Allowed `Host` header values (lowercase).
    pub fn hosts(&self) -> &[String] {
        &self.0.hosts
    }

    /// Allowed `Origin` header values.
    pub fn origins(&self) -> &[String] {
        &self.0.origins
    }

    /// Where the built page lives.
    pub fn dist(&self) -> &PathBuf {
        &self.0.dist
    }

    /// The side channels.
    pub fn channels(&self) -> &Channels {
        &self.0.channels
    }

    /// The shared HTTP client for the relay.
    pub(crate) fn http(&self) -> &reqwest::Client {
        &self.0.http
    }

    /// The HTTP client for `/api/oauth-fetch` (private addresses refused unless allowed).
    pub(crate) fn oauth_http(&self) -> &reqwest::Client {
        &self.0.oauth_http
    }

    /// The configured headers of remote `name`, values read (never log them).
    pub(crate) fn remote_headers(&self, name: &str) -> &[(HeaderName, HeaderValue)] {
        self.0.remote_headers.of(name)
    }

    /// Environment variables a spawned server does not inherit (those named by
    /// `env:` remote headers).
    pub(crate) fn hidden_env(&self) -> &[String] {
        &self.0.hidden_env
    }

    /// Cancelled when the bridge shuts down; long-lived connections watch it.
    pub fn shutdown_signal(&self) -> &CancellationToken {
        &self.0.shutdown
    }

    /// Takes one slot of the child budget, or `None` when all are in use.
    pub(crate) fn try_child_slot(&self) -> Option<OwnedSemaphorePermit> {
        self.0.children.clone().try_acquire_owned().ok()
    }

    /// How many server processes are running (or not yet reaped).
    pub fn running_children(&self) -> usize {
        self.0.config.limits.max_children - self.0.children.available_permits()
    }

    /// Waits until every server process has been reaped, at most `within`.
    /// Returns whether they all were.
    pub async fn wait_children_reaped(&self, within: Duration) -> bool {
        let all = u32::try_from(self.0.config.limits.max_children).unwrap_or(u32::MAX);
        // Every live child holds a permit until it is reaped, so holding them all
        // means none is left.
        matches!(
            tokio::time::timeout(within, self.0.children.acquire_many(all)).await,
            Ok(Ok(_))
        )
    }
}
