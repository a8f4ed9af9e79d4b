//! The CLI's [`Authorizer`]: a loopback redirect (RFC 8252 §7.3). It listens on
//! 127.0.0.1 on a port the system picks, prints the authorization URL, opens it in
//! the browser when it can, and waits for the browser to come back to
//! `http://127.0.0.1:PORT/callback`, which it answers with a short plain page.
//! A URL that breaks the one URL rule (`mcpg_safe_url`) is neither printed as a
//! link nor handed to the opener: a `javascript:` or `file:` URL given to
//! `xdg-open`/`open` is the class of mcp-remote's CVE-2025-6514.

use std::net::TcpListener as StdListener;
use std::sync::Arc;
use std::time::Duration;

use mcpg_transport::Authorizer;
use mcpg_transport::http::BoxFuture;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::escape;

/// The path the authorization server sends the browser back to.
const CALLBACK: &str = "/callback";

/// A bound loopback redirect listener.
#[derive(Clone)]
pub struct Loopback {
    listener: Arc<StdListener>,
    port: u16,
    open_browser: bool,
    wait: Duration,
}

impl Loopback {
    /// Binds 127.0.0.1 on a free port. `open_browser`: try `xdg-open` / `open`.
    pub fn bind(open_browser: bool, wait: Duration) -> std::io::Result<Loopback> {
        let listener = StdListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        Ok(Loopback {
            listener: Arc::new(listener),
            port,
            open_browser,
            wait,
        })
    }

    /// The redirect URI to register and send.
    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}{CALLBACK}", self.port)
    }

    /// Waits for the browser's request to the callback path; other requests (a
    /// favicon) get 404 and the wait goes on.
    async fn wait_for_callback(&self) -> Result<String, String> {
        let std = self
            .listener
            .try_clone()
            .map_err(|e| format!("the loopback listener: {e}"))?;
        let listener =
            TcpListener::from_std(std).map_err(|e| format!("the loopback listener: {e}"))?;
        loop {
            let (mut sock, _) = listener
                .accept()
                .await
                .map_err(|e| format!("the loopback listener: {e}"))?;
            let Some(target) = request_target(&mut sock).await else {
                continue;
            };
            let (path, query) = target.split_once('?').unwrap_or((&target, ""));
            if path != CALLBACK {
                let _ = respond(&mut sock, "404 Not Found", "Not the mcpg login callback.").await;
                continue;
            }
            let page = if query.split('&').any(|kv| kv.starts_with("error=")) {
                "mcpg: the authorization server refused the login. See the terminal."
            } else {
                "mcpg: login received. You can close this tab and go back to the terminal."
            };
            let _ = respond(&mut sock, "200 OK", page).await;
            return Ok(format!("http://127.0.0.1:{}{target}", self.port));
        }
    }
}

impl Authorizer for Loopback {
    fn authorize(&self, url: String) -> BoxFuture<Result<String, String>> {
        let me = self.clone();
        Box::pin(async move {
            // The flow refuses such URLs already; this is the last gate before a spawn.
            if let Err(refusal) = mcpg_safe_url::check(&url) {
                let why = refused(&url, &refusal);
                eprintln!("mcpg: {}", escape::line(&why));
                return Err(why);
            }
            eprintln!(
                "mcpg: to log in, open this URL in a browser:\n{}",
                escape::line(&url)
            );
            if me.open_browser {
                let _ = open_in_browser(&url);
            }
            let secs = me.wait.as_secs();
            tokio::time::timeout(me.wait, me.wait_for_callback())
                .await
                .unwrap_or_else(|_| {
                    Err(format!(
                        "no browser came back to {} within {secs} s (--login-timeout)",
                        me.redirect_uri()
                    ))
                })
        })
    }
}

/// The request target of the first line (`GET /callback?… HTTP/1.1`), read up to
/// the end of the headers (bounded: 16 KiB, 10 s).
async fn request_target(sock: &mut tokio::net::TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    let read = async {
        while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 16 * 1024 {
            let n = sock.read(&mut chunk).await.ok()?;
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        Some(())
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .ok()??;
    let text = String::from_utf8_lossy(&buf);
    let mut words = text.lines().next()?.split_whitespace();
    match (words.next(), words.next()) {
        (Some("GET"), Some(target)) if target.starts_with('/') => Some(target.to_owned()),
        _ => None,
    }
}

/// A short plain-text answer, then the connection closes.
async fn respond(
    sock: &mut tokio::net::TcpStream,
    status: &str,
    body: &str,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    sock.write_all(head.as_bytes()).await?;
    sock.write_all(body.as_bytes()).await?;
    sock.shutdown().await
}

/// Why `url` is not opened, naming the rule it broke (the URL cut short: a
/// `data:` URL can be long).
fn refused(url: &str, refusal: &mcpg_safe_url::Refusal) -> String {
    let shown: String = url.chars().take(160).collect();
    format!(
        "refusing to open the authorization URL {shown:?}: {refusal} (rule: {}; {})",
        refusal.rule(),
        mcpg_safe_url::RULE
    )
}

/// Tries the system opener; never required (a headless machine has none), so a
/// failed spawn is silent: the URL is printed already.
fn open_in_browser(url: &str) -> Result<(), mcpg_safe_url::Refusal> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    open_with(opener.as_ref(), url)
}

/// Hands `url` to `program`, only when it passes the one URL rule (the opener
/// runs whatever scheme handler the URL names). On a refusal nothing is spawned
/// and stderr says why.
fn open_with(program: &std::ffi::OsStr, url: &str) -> Result<(), mcpg_safe_url::Refusal> {
    if let Err(refusal) = mcpg_safe_url::check(url) {
        eprintln!("mcpg: {}", escape::line(&refused(url, &refusal)));
        return Err(refusal);
    }
    let _ = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    Ok(())
}

/// For commands run without `--login`: a login the cache cannot renew ends here,
/// with what to do instead of a browser opening on its own.
pub struct NoLogin {
    /// The server's URL, for the message.
    pub url: String,
    /// Set when the message (which names `mcpg auth login`) was given.
    pub told: super::ToldToLogIn,
}

impl Authorizer for NoLogin {
    fn authorize(&self, _url: String) -> BoxFuture<Result<String, String>> {
        let msg = format!(
            "{} needs a new login: add --login to log in now, or run `mcpg auth login {}`",
            self.url, self.url
        );
        self.told.tell();
        Box::pin(async move { Err(msg) })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    async fn get(port: u16, target: &str) -> String {
        let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        s.write_all(format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    }

    #[tokio::test]
    async fn returns_the_redirect_and_answers_the_browser() {
        let lb = Loopback::bind(false, Duration::from_secs(20)).unwrap();
        let port = lb.port;
        let waiting = tokio::spawn(lb.authorize("https://as.example/authorize".into()));
        let other = get(port, "/favicon.ico").await;
        assert!(other.starts_with("HTTP/1.1 404"), "{other}");
        let page = get(port, "/callback?code=c1&state=s1").await;
        assert!(
            page.starts_with("HTTP/1.1 200") && page.contains("login received"),
            "{page}"
        );
        let back = waiting.await.unwrap().unwrap();
        assert_eq!(
            back,
            format!("http://127.0.0.1:{port}/callback?code=c1&state=s1")
        );
    }

    /// A fake opener that writes the URL it was given to `marker`.
    fn fake_opener(dir: &std::path::Path, marker: &std::path::Path) -> std::path::PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.join("opener");
        std::fs::write(
            &script,
            format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", marker.display()),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        script
    }

    #[test]
    fn the_opener_is_never_spawned_for_a_url_that_breaks_the_rule() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("opened");
        let opener = fake_opener(dir.path(), &marker);
        for bad in [
            "javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "http://evil.example/authorize",
            "https://127.0.0.1@evil.example/",
            "ms-settings:",
        ] {
            assert!(open_with(opener.as_os_str(), bad).is_err(), "{bad}");
        }
        std::thread::sleep(Duration::from_millis(300));
        assert!(!marker.exists(), "the opener ran");
        // The same opener runs for a URL that passes.
        let good = "https://as.example/authorize?x=1";
        assert!(open_with(opener.as_os_str(), good).is_ok());
        let mut got = String::new();
        for _ in 0..50 {
            got = std::fs::read_to_string(&marker).unwrap_or_default();
            if got == good {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        assert_eq!(got, good);
    }

    #[tokio::test]
    async fn a_refused_authorization_url_fails_the_login_naming_the_rule() {
        let lb = Loopback::bind(false, Duration::from_secs(20)).unwrap();
        let e = lb
            .authorize("javascript:alert(1)".into())
            .await
            .unwrap_err();
        assert!(e.contains("https or loopback http only"), "{e}");
    }

    #[tokio::test]
    async fn gives_up_after_the_wait_with_a_clear_error() {
        let lb = Loopback::bind(false, Duration::from_millis(50)).unwrap();
        let e = lb
            .authorize("https://as.example/authorize".into())
            .await
            .unwrap_err();
        assert!(
            e.contains("no browser came back") && e.contains("--login-timeout"),
            "{e}"
        );
    }

    #[tokio::test]
    async fn no_login_says_what_to_do_and_records_that_it_did() {
        let told = super::super::ToldToLogIn::default();
        let n = NoLogin {
            url: "http://h/mcp".into(),
            told: told.clone(),
        };
        assert!(!told.told());
        let e = n.authorize("https://as.example/authorize".into()).await;
        assert!(e.unwrap_err().contains("`mcpg auth login http://h/mcp`"));
        assert!(told.told());
    }
}
