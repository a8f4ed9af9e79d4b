//! `mcpg auth login` against the real authorization server (oidc-provider) in front
//! of the protected MCP server (peer15's `auth_support`): a headless login (this
//! test plays the browser and comes back to mcpg's loopback redirect), the cache's
//! file modes, a protected call, a refresh, a step-up, a pre-registered client.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::auth_support;
use crate::guarded;

use std::time::Duration;

use auth_support::{AuthPeerOptions, AuthPeers, browse};
use guarded::cache::{cache_file, mode, read, unix_ms};
use guarded::{Run, mcpg};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};

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

    // The server refuses the cached token although the cache thinks it valid (as
    // when a short-lived token ran out early): the 401 leads to a refresh, no browser.
    let mut refused = renewed.clone();
    refused["tokens"]["access_token"] = json!("not-a-token-the-server-knows");
    std::fs::write(&file, refused.to_string()).unwrap();
    let who = mcpg(&["tools", "call", "--url", &url, "whoami"], &env).await;
    assert_eq!(who.code, 0, "{who:?}");
    assert!(who.stdout.contains("alice"), "{who:?}");
    let again = read(&file)["tokens"]["access_token"].clone();
    assert_ne!(again, json!("not-a-token-the-server-knows"));

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

    // The loop with the cached login: neither its output nor its link nor its saved
    // session carries the token.
    let saved = config.path().join("run.json");
    let looped = mcpg(
        &[
            "loop",
            "whoami?",
            "--url",
            &url,
            "--share",
            "--save",
            saved.to_str().unwrap(),
            "-v",
        ],
        &env,
    )
    .await;
    assert_eq!(looped.code, 0, "{looped:?}");
    assert!(looped.stdout.contains("alice"), "the tool ran: {looped:?}");
    let token = read(&file)["tokens"]["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let (shared, file_text) = guarded::shared_and_saved(&looped, &saved);
    for text in [&looped.all(), &shared, &file_text] {
        assert!(!text.contains(&token), "{text}");
        assert!(!text.contains("Bearer"), "{text}");
    }

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
