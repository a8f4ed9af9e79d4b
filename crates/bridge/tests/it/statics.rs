//! The page as `mcpg serve` sends it: the `.br` or `.gz` that `cargo xtask dist`
//! wrote, chosen by `Accept-Encoding`, with `Vary` and `Cache-Control` right.
//! Driven with `oneshot` on `app(state)`, no sockets.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::io::{Read as _, Write as _};
use std::path::Path;

use axum::body::Body;
use axum::http::HeaderMap;
use mcpg_bridge::{AppState, app};
use support::{get, state_with};
use tower::ServiceExt;

const CONFIG: &str = "";

const HTML: &str = "<!DOCTYPE html><title>MCP Playground</title><p>the page</p>";
const JS: &str = "export default function init() { return 'tools/list'; }";
const JS_NAME: &str = "mcpg-web-0123456789abcdef.js";

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
    enc.write_all(bytes).unwrap();
    drop(enc);
    out
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// Writes `name` and its `.gz` and `.br` siblings, as `cargo xtask dist` does.
fn with_siblings(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
    std::fs::write(dir.join(format!("{name}.gz")), gzip(text.as_bytes())).unwrap();
    std::fs::write(dir.join(format!("{name}.br")), brotli(text.as_bytes())).unwrap();
}

/// A built page: index.html and a hashed script with siblings, a service
/// worker and a file without them.
fn page() -> (tempfile::TempDir, AppState) {
    let dist = tempfile::tempdir().unwrap();
    with_siblings(dist.path(), "index.html", HTML);
    with_siblings(dist.path(), JS_NAME, JS);
    with_siblings(
        dist.path(),
        "sw.js",
        "self.addEventListener('fetch', () => {});",
    );
    std::fs::write(dist.path().join("notes.txt"), "plain").unwrap();
    let st = state_with(CONFIG, dist.path().to_owned());
    (dist, st)
}

/// GETs `path` with `Accept-Encoding: accept` (none when empty).
async fn fetch(st: &AppState, path: &str, accept: &str) -> (u16, HeaderMap, Vec<u8>) {
    let mut req = get(path);
    if !accept.is_empty() {
        req = req.header("accept-encoding", accept);
    }
    let res = app(st.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, headers, body.to_vec())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(|v| v.to_str().unwrap())
}

#[tokio::test]
async fn brotli_is_sent_when_accepted_and_decodes_to_the_file() {
    let (_dist, st) = page();
    for (path, text, kind) in [
        ("/", HTML, "text/html"),
        ("/index.html", HTML, "text/html"),
        (&format!("/{JS_NAME}") as &str, JS, "text/javascript"),
    ] {
        let (status, headers, body) = fetch(&st, path, "gzip, deflate, br").await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(header(&headers, "content-encoding"), Some("br"), "{path}");
        assert_eq!(header(&headers, "vary"), Some("accept-encoding"), "{path}");
        // The type is the file's, not the encoding's.
        assert!(
            header(&headers, "content-type").unwrap().starts_with(kind),
            "{path}: {headers:?}"
        );
        assert_ne!(body, text.as_bytes(), "{path}: sent uncompressed");
        assert_eq!(unbrotli(&body), text.as_bytes(), "{path}");
    }
}

#[tokio::test]
async fn gzip_is_sent_when_only_gzip_is_accepted() {
    let (_dist, st) = page();
    let (status, headers, body) = fetch(&st, "/", "gzip").await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(header(&headers, "vary"), Some("accept-encoding"));
    assert_eq!(gunzip(&body), HTML.as_bytes());
}

#[tokio::test]
async fn without_accept_encoding_the_file_is_sent_as_is() {
    let (_dist, st) = page();
    for accept in ["", "identity"] {
        let (status, headers, body) = fetch(&st, "/", accept).await;
        assert_eq!(status, 200, "{accept:?}");
        assert_eq!(header(&headers, "content-encoding"), None, "{accept:?}");
        assert_eq!(header(&headers, "vary"), Some("accept-encoding"));
        assert_eq!(body, HTML.as_bytes(), "{accept:?}");
    }
    // Every encoding is the same file.
    let identity = fetch(&st, &format!("/{JS_NAME}"), "").await.2;
    let br = unbrotli(&fetch(&st, &format!("/{JS_NAME}"), "br").await.2);
    let gz = gunzip(&fetch(&st, &format!("/{JS_NAME}"), "gzip").await.2);
    assert_eq!(
        (identity.as_slice(), br.as_slice()),
        (JS.as_bytes(), JS.as_bytes())
    );
    assert_eq!(gz, JS.as_bytes());
}

#[tokio::test]
async fn a_file_without_siblings_is_sent_as_is_even_when_br_is_accepted() {
    let (_dist, st) = page();
    let (status, headers, body) = fetch(&st, "/notes.txt", "br, gzip").await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-encoding"), None);
    assert_eq!(body, b"plain");
}

#[tokio::test]
async fn hashed_files_are_cached_for_good_and_the_rest_revalidated() {
    let (_dist, st) = page();
    let (_, headers, _) = fetch(&st, &format!("/{JS_NAME}"), "br").await;
    assert_eq!(
        header(&headers, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    for path in ["/", "/index.html", "/sw.js", "/notes.txt"] {
        let (status, headers, _) = fetch(&st, path, "br").await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            header(&headers, "cache-control"),
            Some("no-cache"),
            "{path}"
        );
    }
    // A missing file is not cached as if it existed.
    let (status, headers, _) = fetch(&st, "/mcpg-web-fedcba9876543210.js", "br").await;
    assert_eq!(status, 404);
    assert_eq!(header(&headers, "cache-control"), None);
}
