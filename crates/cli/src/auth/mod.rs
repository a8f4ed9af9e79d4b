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

use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Whether this run already told the user to run `mcpg auth login`.
    pub told: ToldToLogIn,
}

/// Set once a run has told the user to run `mcpg auth login` (a new login was
/// needed and `--login` was not given): the failure's message then says so, and
/// [`explain`] adds no hint of its own.
#[derive(Clone, Debug, Default)]
pub struct ToldToLogIn(Arc<AtomicBool>);

impl ToldToLogIn {
    /// Records that the user was told.
    pub fn tell(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the user was told.
    pub fn told(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
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
    let told = ToldToLogIn::default();
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
            Arc::new(NoLogin {
                url: url.into(),
                told: told.clone(),
            }),
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
    Ok(Some(Prepared {
        options,
        obtained,
        told,
    }))
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

/// HTTP 401: the server wants authorization (a login).
const UNAUTHORIZED: u16 = 401;

/// `f`, with what to do added when the server refused it for want of a login
/// (HTTP 401) on `--url` without the user's own `Authorization`, unless the run
/// already said so (`told`). Decided on `f`'s typed fields, never on its words.
pub fn explain(conn: &Connection, told: &ToldToLogIn, mut f: Failure) -> Failure {
    f.names_login |= told.told();
    let own = conn.bearer_env.is_some()
        || conn
            .headers
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case("authorization"));
    if let (Some(url), false) = (&conn.target.url, own)
        && let Some(hint) = login_hint(&f, url)
    {
        f.message = format!("{}; {hint}", f.message);
        f.names_login = true;
    }
    f
}

/// The line added to a failure the server refused with 401, unless its message
/// already names `mcpg auth login`.
fn login_hint(f: &Failure, url: &str) -> Option<String> {
    (f.refused == Some(UNAUTHORIZED) && !f.names_login)
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

    /// A transport failure with these words, refused with `status`.
    fn refused(message: &str, status: Option<u16>) -> Failure {
        Failure {
            refused: status,
            ..Failure::transport(message)
        }
    }

    #[test]
    fn the_hint_names_the_login_command_once() {
        let u = "http://h/mcp";
        assert!(
            login_hint(&refused("HTTP 401: during connect", Some(401)), u)
                .is_some_and(|h| h.contains("mcpg auth login http://h/mcp"))
        );
        assert_eq!(login_hint(&refused("timed out", None), u), None);
        let named = Failure {
            names_login: true,
            ..refused("HTTP 401: run `mcpg auth login x`", Some(401))
        };
        assert_eq!(login_hint(&named, u), None);
    }

    /// The hint follows the typed refusal, not the words: a 401 whose message never
    /// says 401 gets it; words that say 401 (or name the login command) without the
    /// kind decide nothing.
    #[test]
    fn the_hint_is_chosen_from_the_kind_not_the_text() {
        let u = "http://h/mcp";
        assert!(login_hint(&refused("the server said no", Some(401)), u).is_some());
        for words in [
            "HTTP 401: authorization required",
            "no answer to tools/call within 401 s",
            "the server answered tools/list with an error: -32001 401 Unauthorized",
        ] {
            assert_eq!(login_hint(&refused(words, None), u), None, "{words}");
        }
        // Another refusal (403, 500) is no login to offer.
        assert_eq!(
            login_hint(&refused("HTTP 403: forbidden", Some(403)), u),
            None
        );
        // Words that mention the command do not stop the hint; the typed mark does.
        let f = refused("see `mcpg auth login` docs", Some(401));
        assert!(login_hint(&f, u).is_some());
    }

    /// `--url url` and nothing else.
    fn url_connection(url: &str) -> Connection {
        Connection {
            target: crate::args::Target {
                stdio: None,
                url: Some(url.into()),
            },
            timeout: 1.0,
            verbose: false,
            protocol: crate::args::Protocol::Auto,
            transport: Default::default(),
            protocol_version: None,
            log_level: None,
            headers: Vec::new(),
            bearer_env: None,
            auth: crate::args::AuthFlags::default(),
            asks: Default::default(),
            apps: false,
            tasks_extension: true,
        }
    }

    #[test]
    fn a_run_that_told_the_user_adds_no_second_hint() {
        let conn = url_connection("http://h/mcp");
        let told = ToldToLogIn::default();
        let f = explain(&conn, &told, refused("said no", Some(401)));
        assert_eq!(
            f.message,
            "said no; run `mcpg auth login http://h/mcp` (or pass --login, --header or --bearer-env)"
        );
        assert!(f.names_login);
        // Explained twice, it is hinted once.
        let again = explain(&conn, &told, f);
        assert_eq!(again.message.matches("mcpg auth login").count(), 1);
        told.tell();
        let f = explain(&conn, &told, refused("needs a new login", Some(401)));
        assert_eq!(f.message, "needs a new login");
        assert!(f.names_login);
    }
}
