//! `mcpg doctor URL` with a cached `mcpg auth login`: the POSTs still show the
//! server's 401 (they carry no token), and the session checks run signed in with
//! the cached token, which never appears in the report.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::doctor::check;
use crate::guarded::cache::{CACHED, cache_file, entry, unix_ms};
use crate::guarded::{guarded, mcpg};
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cached_login_signs_the_session_checks_in() {
    let config = tempfile::tempdir().unwrap();
    let dir = config.path().to_str().unwrap();
    let env = [("MCPG_CONFIG_DIR", dir)];
    let (url, _) = guarded(
        vec![("authorization", format!("Bearer {CACHED}"))],
        String::new(),
    )
    .await;

    // Signed out: the session checks are skipped, saying why.
    let out = mcpg(&["doctor", "--json", &url, "--timeout", "5"], &env).await;
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        check(&v, "http-post").1,
        "HTTP 401: the server wants a sign-in (see sign-in discovery)"
    );
    assert_eq!(
        check(&v, "initialize"),
        ("skip", "the server wants a sign-in first", "")
    );

    // Signed in through the cache.
    let file = cache_file(config.path(), &url);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, entry(&url, unix_ms() + 3_600_000).to_string()).unwrap();
    let out = mcpg(&["doctor", "--json", &url, "--timeout", "5"], &env).await;
    let v: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    // The scripted server serves no metadata: discovery warns, names what is
    // missing, and says the cached login is in use.
    let (verdict, evidence, fix) = check(&v, "auth-discovery");
    assert_eq!(verdict, "warn");
    assert!(
        evidence.contains("; the checks below use the cached login; but: auth-prm-missing"),
        "{evidence}"
    );
    assert!(fix.starts_with("Serve RFC 9728 metadata"), "{fix}");
    assert!(fix.ends_with(&format!("The cached login is in use; `mcpg auth login --url {url}` renews it (the page signs in from its Server panel).")), "{fix}");
    assert_eq!(
        check(&v, "initialize"),
        ("pass", "agreed on 2025-11-25", "")
    );
    assert_eq!(check(&v, "tools-list").1, "1 tool in 1 page");
    assert!(!out.all().contains(CACHED), "{out:?}");
}
