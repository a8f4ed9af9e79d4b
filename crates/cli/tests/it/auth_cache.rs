//! `mcpg auth status|logout` and the token cache as a user meets them: status
//! without a token in sight, logout, the 401 that says to log in, and every command
//! sending the cached token (against the guarded scripted server).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::guarded;

use guarded::cache::{CACHED, cache_file, entry, unix_ms};
use guarded::{guarded, mcpg};

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
