//! `mcpg auth login` against a hostile authorization server: a protected MCP
//! endpoint (401 + `WWW-Authenticate`), its protected resource metadata and an
//! authorization server whose metadata names a `javascript:`, `data:`, plain-http
//! or user-info "authorization endpoint", an endless metadata document, or a
//! registration refusal full of terminal escapes. The real binary runs with
//! `PATH` leading to fake `xdg-open` and `open` that write a marker file: every
//! run must be refused with a message naming the rule, exit non-zero, spawn
//! nothing, and print the server's words escaped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::guarded;
use crate::mcpg_run;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use guarded::mcpg;
use serde_json::{Value, json};

/// What the hostile authorization server answers.
#[derive(Clone)]
enum Trick {
    /// Metadata naming this authorization endpoint.
    Endpoint(&'static str),
    /// A metadata document over the CLI's ceiling.
    Endless,
    /// Registration refused with this `error`.
    Refuse(&'static str),
}

#[derive(Clone)]
struct Peer {
    base: String,
    trick: Trick,
    seen: Arc<Mutex<Vec<String>>>,
}

async fn handle(State(p): State<Peer>, uri: Uri) -> Response {
    let path = uri.path().to_owned();
    p.seen.lock().unwrap().push(path.clone());
    let base = &p.base;
    let json_ok = |v: Value| {
        (
            StatusCode::OK,
            [("content-type", "application/json")],
            v.to_string(),
        )
            .into_response()
    };
    match path.as_str() {
        "/mcp" => (
            StatusCode::UNAUTHORIZED,
            [(
                "www-authenticate",
                format!(
                    r#"Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp""#
                ),
            )],
            "",
        )
            .into_response(),
        "/.well-known/oauth-protected-resource/mcp" => {
            json_ok(json!({"resource": format!("{base}/mcp"), "authorization_servers": [base]}))
        }
        "/.well-known/oauth-authorization-server" => {
            let mut meta = json!({
                "issuer": base,
                "authorization_endpoint": format!("{base}/authorize"),
                "token_endpoint": format!("{base}/token"),
                "registration_endpoint": format!("{base}/register"),
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"],
            });
            match &p.trick {
                Trick::Endpoint(e) => meta["authorization_endpoint"] = json!(e),
                Trick::Endless => meta["padding"] = json!("x".repeat(2 * 1024 * 1024)),
                Trick::Refuse(_) => {}
            }
            json_ok(meta)
        }
        "/register" => match &p.trick {
            Trick::Refuse(error) => (
                StatusCode::BAD_REQUEST,
                [("content-type", "application/json")],
                json!({"error": error}).to_string(),
            )
                .into_response(),
            _ => (
                StatusCode::CREATED,
                [("content-type", "application/json")],
                json!({"client_id": "hostile-client"}).to_string(),
            )
                .into_response(),
        },
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Serves the hostile peer on a free loopback port; its base URL and request log.
async fn hostile(trick: Trick) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let peer = Peer {
        base: base.clone(),
        trick,
        seen: seen.clone(),
    };
    let app = Router::new().fallback(any(handle)).with_state(peer);
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, seen)
}

/// A directory holding `xdg-open` and `open` that write the URL they get to
/// `marker`.
fn fake_openers(dir: &Path, marker: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in ["xdg-open", "open"] {
        let script = bin.join(name);
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\n",
                marker.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// `mcpg auth login URL` (the browser allowed, so the opener would run) with
/// the fake openers first on `PATH` and a private config directory.
async fn login(base: &str) -> (mcpg_run::Run, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("opened");
    let bin = fake_openers(dir.path(), &marker);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let config = dir.path().join("config");
    let url = format!("{base}/mcp");
    let r = mcpg(
        &["auth", "login", &url, "--login-timeout", "5"],
        &[
            ("PATH", path.as_str()),
            ("MCPG_CONFIG_DIR", config.to_str().unwrap()),
        ],
    )
    .await;
    (r, marker, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_authorization_endpoint_is_refused_and_nothing_is_spawned() {
    for (endpoint, rule) in [
        (
            "javascript:alert(document.domain)",
            "https or loopback http only",
        ),
        (
            "data:text/html,<script>alert(1)</script>",
            "https or loopback http only",
        ),
        // Plain http to a host that only looks local.
        (
            "http://127.0.0.1.attacker.example/authorize",
            "https or loopback http only",
        ),
        (
            "http://localhost.attacker.example/authorize",
            "https or loopback http only",
        ),
        // Loopback before an `@`: the host is the attacker's.
        (
            "http://127.0.0.1@attacker.example/authorize",
            "no user name or password in a URL",
        ),
        ("file:///etc/passwd", "https or loopback http only"),
    ] {
        let (base, seen) = hostile(Trick::Endpoint(endpoint)).await;
        let (r, marker, _dir) = login(&base).await;
        assert_ne!(r.code, 0, "{endpoint}: {r:?}");
        assert!(
            r.stderr.contains("authorization_endpoint") && r.stderr.contains(rule),
            "{endpoint}: the refusal names the field and the rule: {r:?}"
        );
        assert!(
            !r.stderr.contains("open this URL in a browser"),
            "{endpoint}: offered as a link: {r:?}"
        );
        assert!(
            !marker.exists(),
            "{endpoint}: an opener ran: {:?}",
            std::fs::read_to_string(&marker)
        );
        // Refused at the metadata: no registration, no token request.
        let seen = seen.lock().unwrap();
        assert!(
            !seen.iter().any(|p| p == "/register" || p == "/token"),
            "{endpoint}: {seen:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_metadata_document_is_refused_naming_the_limit() {
    let (base, _) = hostile(Trick::Endless).await;
    let (r, marker, _dir) = login(&base).await;
    assert_ne!(r.code, 0, "{r:?}");
    assert!(
        r.stderr
            .contains(&format!("{}-byte limit", mcpg_auth::MAX_ANSWER_BYTES)),
        "{r:?}"
    );
    assert!(!marker.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_authorization_servers_words_are_escaped() {
    // OSC 52 writes the clipboard; CSI 2J clears the screen; OSC 0 retitles.
    let (base, _) = hostile(Trick::Refuse(
        "nope\u{1b}]52;c;cm0gLXJmIH4=\u{7}\u{1b}[2J\u{1b}]0;pwned\u{7}",
    ))
    .await;
    let (r, marker, _dir) = login(&base).await;
    assert_ne!(r.code, 0, "{r:?}");
    assert!(!marker.exists());
    assert!(
        !r.all().contains('\u{1b}') && !r.all().contains('\u{7}'),
        "raw escapes reached the terminal: {r:?}"
    );
    assert!(
        r.stderr
            .contains("nope\\u{1b}]52;c;cm0gLXJmIH4=\\u{7}\\u{1b}[2J"),
        "{r:?}"
    );
}
