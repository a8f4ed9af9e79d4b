//! `mcpg auth login|logout|status`.

use std::time::Duration;

use super::{Cache, Entry, unix_now_ms};
use crate::args::{AuthCommand, Connection, LoginArgs, Protocol, Target};
use crate::escape;
use crate::exit::Failure;

/// Runs one `mcpg auth` command.
pub async fn run(command: &AuthCommand) -> Result<(), Failure> {
    match command {
        AuthCommand::Login(args) => login(args).await,
        AuthCommand::Logout { url } => logout(url),
        AuthCommand::Status { url } => status(url.as_deref()),
    }
}

/// Connects with `--login` forced and the cache ignored, so the flow runs from the
/// server's 401; lists the tools (a protected call, and the page's first request);
/// reports what was cached.
async fn login(args: &LoginArgs) -> Result<(), Failure> {
    let conn = Connection {
        target: Target {
            stdio: None,
            url: Some(args.url.clone()),
        },
        timeout: args.timeout,
        verbose: args.verbose,
        protocol: Protocol::Auto,
        transport: Default::default(),
        protocol_version: args.protocol_version.clone(),
        log_level: None,
        headers: Vec::new(),
        bearer_env: None,
        auth: crate::args::AuthFlags {
            login: true,
            ..args.auth.clone()
        },
        asks: Default::default(),
        apps: false,
        tasks_extension: true,
    };
    let (driver, obtained) = crate::connect::open_for_login(&conn)?;
    let outcome = async {
        driver.connect().await?;
        driver.list_tools().await?;
        Ok::<_, Failure>(())
    }
    .await;
    let _ = driver.close().await;
    outcome?;
    let tokens = obtained.lock().ok().and_then(|t| t.clone());
    let Some(t) = tokens else {
        println!("{} did not ask for a login; nothing cached", args.url);
        return Ok(());
    };
    let cache = Cache::from_env().map_err(|e| Failure::usage(e.to_string()))?;
    println!("{}", logged_in(&args.url, &t));
    println!("tokens cached in {}", cache.path(&args.url).display());
    Ok(())
}

/// The line after a login. The issuer, client ID and scope are the
/// authorization server's words: escaped for the terminal.
fn logged_in(url: &str, t: &mcpg_auth::Tokens) -> String {
    let scope = scope_suffix(t);
    escape::line(&format!(
        "logged in to {url} (issuer {}, client {}{scope})",
        t.issuer, t.client_id
    ))
}

/// Removes the cached login.
fn logout(url: &str) -> Result<(), Failure> {
    let cache = Cache::from_env().map_err(|e| Failure::usage(e.to_string()))?;
    if cache
        .remove(url)
        .map_err(|e| Failure::usage(e.to_string()))?
    {
        println!("logged out of {url} (cached tokens removed)");
    } else {
        println!("no cached login for {url}");
    }
    Ok(())
}

/// Lists the cached logins, tokens masked.
fn status(url: Option<&str>) -> Result<(), Failure> {
    let cache = Cache::from_env().map_err(|e| Failure::usage(e.to_string()))?;
    let entries: Vec<Result<Entry, _>> = match url {
        Some(u) => cache
            .load(u)
            .map_err(|e| Failure::usage(e.to_string()))?
            .into_iter()
            .map(Ok)
            .collect(),
        None => cache.list().map_err(|e| Failure::usage(e.to_string()))?,
    };
    if entries.is_empty() {
        println!("no cached logins in {}", cache.dir().display());
        return Ok(());
    }
    let now = unix_now_ms();
    for e in entries {
        match e {
            Ok(e) => println!("{}", describe(&e, now)),
            Err(err) => println!("{}", escape::line(&err.to_string())),
        }
    }
    Ok(())
}

/// One login on one line: URL, token (masked), expiry, refresh, scope, issuer;
/// escaped (the cache holds what the authorization server said).
fn describe(e: &Entry, now: u64) -> String {
    let t = &e.tokens;
    let expiry = match t.expires_at {
        None => "no expiry given".to_owned(),
        Some(at) if at > now => format!("expires in {}", human(at - now)),
        Some(at) => format!("expired {} ago", human(now - at)),
    };
    let refresh = if t.refresh_token.is_some() {
        "refreshable"
    } else {
        "no refresh token"
    };
    let scope = scope_suffix(t);
    escape::line(&format!(
        "{}: token {}, {expiry}, {refresh}{scope}, issuer {}, client {}",
        e.url,
        crate::headers::mask(&t.access_token),
        t.issuer,
        t.client_id
    ))
}

/// `1 h 5 min`, `42 s`.
fn human(ms: u64) -> String {
    let d = Duration::from_millis(ms).as_secs();
    match d {
        0..60 => format!("{d} s"),
        60..3600 => format!("{} min", d / 60),
        _ => format!("{} h {} min", d / 3600, d % 3600 / 60),
    }
}

/// `", scope S"` when the tokens name a scope, else nothing.
fn scope_suffix(t: &mcpg_auth::Tokens) -> String {
    t.scope
        .as_deref()
        .map(|s| format!(", scope {s}"))
        .unwrap_or_default()
}

#[cfg(test)]
// A test fails by panicking.
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Tokens whose every AS-chosen text carries terminal escapes: OSC 52 (writes
    /// the clipboard), a screen clear, a title change.
    fn hostile() -> mcpg_auth::Tokens {
        mcpg_auth::Tokens {
            access_token: "at-0123456789abcdef".into(),
            token_type: "Bearer".into(),
            refresh_token: None,
            expires_at: None,
            scope: Some("read\u{1b}[2J".into()),
            issuer: "https://as.example\u{1b}]52;c;cm0gLXJmIH4=\u{7}".into(),
            token_endpoint: "https://as.example/token".into(),
            client_id: "c\u{1b}]0;pwned\u{7}\u{9b}31m".into(),
            client_secret: None,
            token_endpoint_auth_method: "none".into(),
            resource: "https://rs.example/mcp".into(),
        }
    }

    fn assert_escaped(line: &str) {
        assert!(
            !line.chars().any(|c| c.is_control()),
            "raw control characters: {line:?}"
        );
        assert!(line.contains("\\u{1b}]52;c;"), "{line}");
    }

    #[test]
    fn what_the_authorization_server_said_is_escaped() {
        let t = hostile();
        assert_escaped(&logged_in("https://rs.example/mcp", &t));
        let e = Entry {
            url: "https://rs.example/mcp".into(),
            tokens: t,
            saved_at: 0,
        };
        let line = describe(&e, 0);
        assert_escaped(&line);
        assert!(
            line.contains("\\u{1b}[2J") && line.contains("\\u{9b}"),
            "{line}"
        );
    }
}
