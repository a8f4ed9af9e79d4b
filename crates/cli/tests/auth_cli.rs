//! `mcpg auth login|logout|status` and the token cache, as a user runs them: the
//! cache's file modes, logout, status without a token in sight, commands using the
//! cache; and, against the real authorization server (oidc-provider) in front of the
//! protected MCP server (peer15's `auth_support`), a headless login (this test plays
//! the browser and comes back to mcpg's loopback redirect), a protected call, a
//! refresh, and a step-up.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../transport/tests/support/peers.rs"]
mod peers;

// peer15's helpers re-export more than this file uses.
#[allow(unused_imports)]
mod auth_support;
mod guarded;
mod mcpg_run;

use std::path::{Path, PathBuf};
use std::time::Duration;

use auth_support::{AuthPeerOptions, AuthPeers, browse};
use guarded::{Run, guarded, mcpg};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};

/// The cache file of `url` under `config` (the CLI's naming: a slug and the URL's
/// fingerprint).
fn cache_file(config: &Path, url: &str) -> PathBuf {
    let slug: String = url
        .split_once("://")
        .unwrap()
        .1
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(60)
        .collect();
    let hash = mcpg_session::fingerprint(url);
    config.join("tokens").join(format!("{slug}-{hash}.json"))
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn read(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

const CACHED: &str = "cached-access-token-0123456789";

/// A cache entry for `url` as the CLI writes it (expiry in Unix ms).
fn entry(url: &str, expires_at: u64) -> Value {
    json!({"url": url, "saved_at": 1, "tokens": {
        "access_token": CACHED, "token_type": "Bearer", "refresh_token": "refresh-secret-0123456789",
        "expires_at": expires_at, "scope": "mcp:tools", "issuer": "http://127.0.0.1:9",
        "token_endpoint": "http://127.0.0.1:9/token", "client_id": "client-1",
        "client_secret": null, "token_endpoint_auth_method": "none", "resource": url}})
}

fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_masks_logout_removes_and_then_a_401_says_to_log_in() {
    let config = tempfile::tempdir().unwrap();
    let dir = config.path().to_str().unwrap();
    let env = [("MCPG_CONFIG_DIR", dir)];
    let (url, _) = guarded(
        vec![("authorization", format!("Bearer {CACHED}"))],
        String::new(),
    )
    .await;
    let empty = mcpg(&["auth", "status"], &env).await;
    assert_eq!(empty.code, 0, "{empty:?}");
    assert!(
        empty.stdout.starts_with("no cached logins in "),
        "{empty:?}"
    );

    let file = cache_file(config.path(), &url);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let hour = unix_ms() + 3_600_000;
    std::fs::write(&file, entry(&url, hour).to_string()).unwrap();
    for args in [vec!["auth", "status"], vec!["auth", "status", url.as_str()]] {
        let r = mcpg(&args, &env).await;
        assert_eq!(r.code, 0, "{r:?}");
        let want = format!(
            "{url}: token •••6789, expires in 59 min, refreshable, scope mcp:tools, issuer http://127.0.0.1:9, client client-1"
        );
        assert_eq!(r.stdout.trim(), want, "{r:?}");
        assert!(
            !r.all().contains(CACHED) && !r.all().contains("refresh-secret"),
            "{r:?}"
        );
    }

    let out = mcpg(&["auth", "logout", &url], &env).await;
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.stdout.trim(),
        format!("logged out of {url} (cached tokens removed)")
    );
    assert!(!file.exists());
    let again = mcpg(&["auth", "logout", &url], &env).await;
    assert_eq!(again.stdout.trim(), format!("no cached login for {url}"));

    let refused = mcpg(&["tools", "list", "--url", &url], &env).await;
    assert_eq!(refused.code, 4, "{refused:?}");
    assert!(
        refused
            .stderr
            .contains(&format!("run `mcpg auth login {url}`")),
        "{refused:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_send_the_cached_token() {
    let config = tempfile::tempdir().unwrap();
    let dir = config.path().to_str().unwrap();
    let (url, seen) = guarded(
        vec![("authorization", format!("Bearer {CACHED}"))],
        String::new(),
    )
    .await;
    let file = cache_file(config.path(), &url);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, entry(&url, unix_ms() + 3_600_000).to_string()).unwrap();
    let r = mcpg(
        &["tools", "list", "--url", &url, "-v"],
        &[("MCPG_CONFIG_DIR", dir)],
    )
    .await;
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.all().contains(CACHED), "{r:?}");
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .all(|s| s.header("authorization") == Some(format!("Bearer {CACHED}").as_str()))
    );
}

/// Runs `mcpg args…`, playing the browser as `user` for every authorization URL it
/// prints (a login, then maybe a step-up); returns the run and how many logins.
async fn with_browser(args: &[&str], env: &[(&str, &str)], user: &str) -> (Run, usize) {
    let mut child = guarded::command(args, env).spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let stdout = tokio::spawn(async move {
        let mut s = String::new();
        out.read_to_string(&mut s).await.unwrap();
        s
    });
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut stderr = String::new();
    let mut logins = 0;
    let mut next_is_url = false;
    let play = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            stderr.push_str(&line);
            stderr.push('\n');
            if next_is_url {
                next_is_url = false;
                let back = browse(&line, user).await;
                // The browser comes back to mcpg's loopback redirect.
                let page = reqwest::get(&back.redirect).await.unwrap();
                assert!(page.status().is_success(), "{}", back.redirect);
                logins += 1;
            }
            next_is_url = line.ends_with("open this URL in a browser:");
        }
    };
    tokio::time::timeout(Duration::from_secs(90), play)
        .await
        .unwrap_or_else(|_| panic!("mcpg {args:?} did not finish; stderr so far:\n{stderr}"));
    let status = child.wait().await.unwrap();
    let run = Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.await.unwrap(),
        stderr,
    };
    (run, logins)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_call_refresh_and_step_up_against_the_real_authorization_server() {
    let Some(peers) = AuthPeers::start(&AuthPeerOptions::default()) else {
        return;
    };
    let url = peers.mcp_url.clone();
    let config = tempfile::tempdir().unwrap();
    let dir = config.path().to_str().unwrap();
    let env = [("MCPG_CONFIG_DIR", dir)];

    // Login: one browser round, tokens cached privately.
    let (r, logins) = with_browser(&["auth", "login", &url, "--no-browser"], &env, "alice").await;
    assert_eq!((r.code, logins), (0, 1), "{r:?}");
    assert!(
        r.stdout.starts_with(&format!("logged in to {url}")),
        "{r:?}"
    );
    let file = cache_file(config.path(), &url);
    assert_eq!(mode(file.parent().unwrap()), 0o700);
    assert_eq!(mode(&file), 0o600);
    let first = read(&file);
    let access = first["tokens"]["access_token"].as_str().unwrap().to_owned();
    let refresh = first["tokens"]["refresh_token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        !r.all().contains(&access) && !r.all().contains(&refresh),
        "{r:?}"
    );

    // A protected call with the cached token, no browser.
    let who = mcpg(&["tools", "call", "--url", &url, "whoami", "--json"], &env).await;
    assert_eq!(who.code, 0, "{who:?}");
    assert!(who.stdout.contains("alice"), "{who:?}");
    assert_eq!(read(&file), first, "a valid cached token is used as is");

    // The cached token has expired (by the cache's clock): the command refreshes it
    // at the token endpoint and writes the new tokens back.
    let mut stale = first.clone();
    stale["tokens"]["expires_at"] = json!(unix_ms() - 1_000);
    std::fs::write(&file, stale.to_string()).unwrap();
    let who = mcpg(&["tools", "call", "--url", &url, "whoami", "-v"], &env).await;
    assert_eq!(who.code, 0, "{who:?}");
    assert!(
        !who.all().contains(&access) && !who.all().contains(&refresh),
        "{who:?}"
    );
    assert!(who.stderr.contains("auth: Token refresh"), "{who:?}");
    let renewed = read(&file);
    assert_ne!(
        renewed["tokens"]["access_token"],
        first["tokens"]["access_token"]
    );
    assert!(renewed["tokens"]["expires_at"].as_u64().unwrap() > unix_ms());
    assert_eq!(mode(&file), 0o600);

    // Step-up: admin_report needs mcp:admin. Without --login the command stops and
    // says what to do; with it, a second browser round grants the scope.
    let denied = mcpg(&["tools", "call", "--url", &url, "admin_report"], &env).await;
    assert_ne!(denied.code, 0, "{denied:?}");
    assert!(denied.stderr.contains("mcpg auth login"), "{denied:?}");
    let (r, logins) = with_browser(
        &[
            "tools",
            "call",
            "--url",
            &url,
            "admin_report",
            "--login",
            "--no-browser",
        ],
        &env,
        "alice",
    )
    .await;
    assert_eq!((r.code, logins), (0, 1), "{r:?}");
    let stepped = read(&file);
    let token = stepped["tokens"]["access_token"].as_str().unwrap();
    assert!(!r.all().contains(token), "{r:?}");
    let scope = stepped["tokens"]["scope"].as_str().unwrap().to_owned();
    assert!(scope.split(' ').any(|s| s == "mcp:admin"), "{scope}");

    // Logout forgets it; the next command needs a login again.
    assert_eq!(mcpg(&["auth", "logout", &url], &env).await.code, 0);
    let after = mcpg(&["tools", "call", "--url", &url, "whoami"], &env).await;
    assert_eq!(after.code, 4, "{after:?}");
    assert!(
        after.stderr.contains(&format!("mcpg auth login {url}")),
        "{after:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_with_a_pre_registered_confidential_client() {
    let Some(peers) = AuthPeers::start(&AuthPeerOptions::default()) else {
        return;
    };
    let url = peers.mcp_url.clone();
    let config = tempfile::tempdir().unwrap();
    let secret = "mcpg-confidential-secret";
    let env = [
        ("MCPG_CONFIG_DIR", config.path().to_str().unwrap()),
        ("MCPG_T_CLIENT_SECRET", secret),
    ];
    let (r, logins) = with_browser(
        &[
            "auth",
            "login",
            &url,
            "--no-browser",
            "-v",
            "--client-id",
            "mcpg-confidential",
            "--client-secret-env",
            "MCPG_T_CLIENT_SECRET",
        ],
        &env,
        "bob",
    )
    .await;
    assert_eq!((r.code, logins), (0, 1), "{r:?}");
    // The secret went to the token endpoint (client_secret_basic), never to the terminal.
    assert!(r.stderr.contains("auth: Token exchange"), "{r:?}");
    assert!(
        r.stderr.contains("auth:   Authorization: Basic •••"),
        "{r:?}"
    );
    assert!(
        !r.stderr.contains("auth: Dynamic client registration"),
        "{r:?}"
    );
    assert!(!r.all().contains(secret), "{r:?}");
    let cached = read(&cache_file(config.path(), &url));
    assert_eq!(cached["tokens"]["client_id"], "mcpg-confidential");
    assert_eq!(
        cached["tokens"]["token_endpoint_auth_method"],
        "client_secret_basic"
    );
    let who = mcpg(&["tools", "call", "--url", &url, "whoami"], &env).await;
    assert_eq!(who.code, 0, "{who:?}");
    assert!(
        who.stdout.contains("bob") && who.stdout.contains("mcpg-confidential"),
        "{who:?}"
    );

    let missing = mcpg(
        &[
            "auth",
            "login",
            &url,
            "--client-id",
            "x",
            "--client-secret-env",
            "MCPG_T_UNSET_VAR",
        ],
        &env,
    )
    .await;
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(missing.stderr.contains("MCPG_T_UNSET_VAR"), "{missing:?}");
}
