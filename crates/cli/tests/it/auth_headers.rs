//! `--header` and `--bearer-env` against a server that refuses requests without
//! them, and the rule that their values never show: not in `-v` output, not in
//! `mcpg loop --share` links, not in `--save`d sessions.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::guarded;

use guarded::{guarded, mcpg};

const TOKEN: &str = "tok-secret-0123456789abcdef";
const KEY: &str = "key-secret-9876543210";

/// The guarded server wanting both headers, echoing the token back.
async fn server() -> (
    String,
    std::sync::Arc<std::sync::Mutex<Vec<guarded::fake::Seen>>>,
) {
    guarded(
        vec![
            ("authorization", format!("Bearer {TOKEN}")),
            ("x-api-key", KEY.to_owned()),
        ],
        TOKEN.to_owned(),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_reach_every_request_and_never_show_in_verbose_output() {
    let (url, seen) = server().await;
    let header = format!("X-Api-Key: {KEY}");
    let r = mcpg(
        &[
            "tools",
            "list",
            "--url",
            &url,
            "-H",
            &header,
            "--bearer-env",
            "MCPG_T_TOKEN",
            "-v",
        ],
        &[("MCPG_T_TOKEN", TOKEN)],
    )
    .await;
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.lines().last(), Some("1 tool in 1 page"), "{r:?}");
    // The verbose wire log ran (the server's echo is in it), masked.
    assert!(r.stderr.contains("you sent •••cdef"), "{}", r.stderr);
    assert!(!r.all().contains(TOKEN) && !r.all().contains(KEY), "{r:?}");
    let seen = seen.lock().unwrap();
    assert!(seen.len() >= 3, "{seen:?}");
    for s in seen.iter() {
        assert_eq!(s.header("x-api-key"), Some(KEY));
        assert_eq!(
            s.header("authorization"),
            Some(format!("Bearer {TOKEN}").as_str())
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_headers_the_server_refuses() {
    let (url, _) = server().await;
    let r = mcpg(&["tools", "list", "--url", &url], &[]).await;
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("401"), "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_or_empty_variable_is_a_usage_error_naming_it() {
    let (url, seen) = server().await;
    let unset = mcpg(
        &[
            "info",
            "--url",
            &url,
            "--bearer-env",
            "MCPG_T_NOT_SET_ANYWHERE",
        ],
        &[],
    )
    .await;
    assert_eq!(unset.code, 2, "{unset:?}");
    assert_eq!(
        unset.stderr.trim(),
        "mcpg: --bearer-env: the environment variable MCPG_T_NOT_SET_ANYWHERE is not set"
    );
    let empty = mcpg(
        &["info", "--url", &url, "--bearer-env", "MCPG_T_EMPTY"],
        &[("MCPG_T_EMPTY", "")],
    )
    .await;
    assert_eq!(empty.code, 2, "{empty:?}");
    assert!(empty.stderr.contains("MCPG_T_EMPTY is empty"), "{empty:?}");
    assert!(seen.lock().unwrap().is_empty(), "nothing was sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_headers_and_headers_for_stdio_are_usage_errors() {
    let secret_ish = "Bad Name: not-shown-value";
    let r = mcpg(
        &["info", "--url", "http://127.0.0.1:9/mcp", "-H", secret_ish],
        &[],
    )
    .await;
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("header name"), "{r:?}");
    let r = mcpg(
        &["info", "--url", "http://127.0.0.1:9/mcp", "-H", "NoColon"],
        &[],
    )
    .await;
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("Name: value"), "{r:?}");
    let r = mcpg(&["info", "--stdio", "mcpg demo", "-H", "X-A: b"], &[]).await;
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--url only"), "{r:?}");
    let r = mcpg(&["info", "--stdio", "mcpg demo", "--login"], &[]).await;
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--url only"), "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loop_share_links_and_saved_sessions_carry_no_header() {
    let (url, _) = server().await;
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("run.json");
    let header = format!("X-Api-Key: {KEY}");
    let r = mcpg(
        &[
            "loop",
            "What's the weather in Austin?",
            "--url",
            &url,
            "--header",
            &header,
            "--bearer-env",
            "MCPG_T_TOKEN",
            "--share",
            "--save",
            saved.to_str().unwrap(),
            "-v",
        ],
        &[("MCPG_T_TOKEN", TOKEN)],
    )
    .await;
    assert_eq!(r.code, 0, "{r:?}");
    // The loop really called the guarded tool.
    assert!(r.stdout.contains("Austin: 91F"), "{}", r.stdout);
    assert!(!r.all().contains(TOKEN) && !r.all().contains(KEY), "{r:?}");
    let (shared, file) = guarded::shared_and_saved(&r, &saved);
    for (what, text) in [("share link", &shared), ("saved session", &file)] {
        assert!(text.contains("get_weather"), "{what} holds the run: {text}");
        for secret in [TOKEN, KEY, "Bearer", "X-Api-Key"] {
            assert!(!text.contains(secret), "{what} carries {secret}: {text}");
        }
    }
}
