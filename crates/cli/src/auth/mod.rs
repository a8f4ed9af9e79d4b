//! OAuth for the CLI (issue 15): the token cache (`cache`), the loopback redirect
//! (`loopback`), what every `--url` command hands the transport (here), and
//! `mcpg auth login|logout|status` (`commands`).
//!
//! The rule for commands other than `mcpg auth login`: they use the cached tokens
//! (the transport refreshes an expired one and `on_tokens` writes the new ones
//! back), and they never start a browser flow on their own: without `--login`, a
//! server that wants a (new) login makes the command fail with a line that says
//! to run `mcpg auth login URL`. A script then never hangs waiting for a browser.

mod cache;
mod commands;
mod loopback;

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcpg_auth::{AuthConfig, ClientIdentity, Tokens};
use mcpg_transport::AuthOptions;

use crate::args::Connection;
use crate::exit::Failure;
pub use cache::{Cache, Entry};
pub use commands::run;
use loopback::{Loopback, NoLogin};

/// What a command hands the transport, and what it learns from it.
pub struct Prepared {
    /// For `transport::HttpConfig.auth`.
    pub options: AuthOptions,
    /// The last tokens the flow obtained in this run (`None`: none new).
    pub obtained: Arc<Mutex<Option<Tokens>>>,
}

/// The OAuth options for `url`: `None` when the flags bring their own
/// `Authorization`, or when nothing is cached and `--login` is not given (then a 401
/// fails as before; see `login_hint`). `fresh` ignores the cache (`auth login`).
pub fn prepare(
    conn: &Connection,
    url: &str,
    own_authorization: bool,
    fresh: bool,
) -> Result<Option<Prepared>, Failure> {
    if own_authorization {
        return Ok(None);
    }
    let flags = &conn.auth;
    let cache = Cache::from_env();
    let cached = match (&cache, fresh) {
        (Ok(c), false) => c.load(url).map_err(|e| Failure::usage(e.to_string()))?,
        _ => None,
    };
    if cached.is_none() && !flags.login {
        return Ok(None);
    }
    let cache = cache.map_err(|e| Failure::usage(e.to_string()))?;
    let (redirect_uri, authorizer): (String, Arc<dyn mcpg_transport::Authorizer>) = if flags.login {
        let wait = Duration::from_secs(flags.login_timeout.max(1));
        let lb = Loopback::bind(!flags.no_browser, wait).map_err(|e| {
            Failure::transport(format!("could not listen on 127.0.0.1 for the login: {e}"))
        })?;
        (lb.redirect_uri(), Arc::new(lb))
    } else {
        // Never used: without --login nothing goes to the browser.
        (
            "http://127.0.0.1/callback".into(),
            Arc::new(NoLogin { url: url.into() }),
        )
    };
    let mut config = AuthConfig::new(url, redirect_uri, identity(conn)?);
    if let Some(rev) = &conn.protocol_version {
        config.revision = rev.trim().to_owned();
    }
    if !flags.scopes.is_empty() {
        config.scopes = Some(flags.scopes.clone());
    }
    let obtained: Arc<Mutex<Option<Tokens>>> = Arc::default();
    let seen = obtained.clone();
    let key = url.to_owned();
    let on_tokens = move |t: &Tokens| {
        if let Ok(mut slot) = seen.lock() {
            *slot = Some(t.clone());
        }
        let entry = Entry {
            url: key.clone(),
            tokens: t.clone(),
            saved_at: unix_now_ms(),
        };
        if let Err(e) = cache.save(&entry) {
            eprintln!("mcpg: the new tokens could not be cached: {e}");
        }
    };
    let options = AuthOptions {
        config,
        tokens: cached.map(|e| e.tokens),
        authorizer,
        on_tokens: Some(Arc::new(on_tokens)),
    };
    Ok(Some(Prepared { options, obtained }))
}

/// Who the client is: `--client-id` (and its secret from `--client-secret-env`),
/// else the spec's order (metadata document, then dynamic registration).
fn identity(conn: &Connection) -> Result<ClientIdentity, Failure> {
    let flags = &conn.auth;
    match &flags.client_id {
        Some(id) => {
            let secret = match &flags.client_secret_env {
                None => None,
                Some(var) => Some(
                    std::env::var(var)
                        .ok()
                        .filter(|v| !v.trim().is_empty())
                        .ok_or_else(|| {
                            Failure::usage(format!(
                                "--client-secret-env: the environment variable {var} is not set or empty"
                            ))
                        })?,
                ),
            };
            Ok(ClientIdentity::PreRegistered {
                client_id: id.clone(),
                client_secret: secret,
            })
        }
        None => Ok(ClientIdentity::Auto {
            metadata_url: flags.client_metadata_url.clone(),
            client_name: "mcpg (MCP Playground CLI)".into(),
        }),
    }
}

/// `f`, with what to do added when it looks like a refused login on `--url`
/// without the user's own `Authorization`.
pub fn explain(conn: &Connection, mut f: Failure) -> Failure {
    let own = conn.bearer_env.is_some()
        || conn
            .headers
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case("authorization"));
    if let (Some(url), false) = (&conn.target.url, own)
        && let Some(hint) = login_hint(&f.message, url)
    {
        f.message = format!("{}; {hint}", f.message);
    }
    f
}

/// The line added to a failure that looks like a refused login.
fn login_hint(message: &str, url: &str) -> Option<String> {
    let refused = message.contains("401") || message.contains("authorization required");
    (refused && !message.contains("mcpg auth login"))
        .then(|| format!("run `mcpg auth login {url}` (or pass --login, --header or --bearer-env)"))
}

/// Unix time now, in milliseconds.
fn unix_now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_names_the_login_command_once() {
        let u = "http://h/mcp";
        assert!(
            login_hint("HTTP 401: authorization required", u)
                .is_some_and(|h| h.contains("mcpg auth login http://h/mcp"))
        );
        assert_eq!(login_hint("timed out", u), None);
        assert_eq!(login_hint("401: run `mcpg auth login x`", u), None);
    }
}
