//! The built page, from `dist/`. Before it is built, `/` says how to build it
//! rather than answering a bare 404.
//!
//! `cargo xtask dist` writes `.br` and `.gz` beside every compressible file, and
//! they are served when `Accept-Encoding` allows (`Vary: Accept-Encoding` says
//! so to caches): the page is ~1.2 MB as built and ~350 KB in brotli. Files with
//! a content hash in their name never change, so browsers may keep them for a
//! year; everything else (`index.html`, `sw.js`, `build-info.json`) is
//! revalidated on every load, so a new build is seen at once.
//!
//! Every file goes with the page's defences (issue 26): its Content-Security-Policy
//! (the one `index.html` carries as a `<meta>`, plus `frame-ancestors 'none'`,
//! which only a header can carry: no other site may frame the page and steer the
//! learner's clicks), `Referrer-Policy: no-referrer` (the page's address may hold
//! the bridge's token until it reads it) and `X-Content-Type-Options: nosniff`.

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::state::AppState;

const NOT_BUILT: &str = "MCP Playground bridge\n\n\
The page is not built yet: run `cargo xtask play` (or `cargo xtask dist`) in the \
workspace (it builds web/ into dist/), or pass --dist DIR pointing at a built copy.\n\n\
The bridge API works meanwhile: /api/servers, /ws, /api/events, /relay/NAME.\n";

/// For content-hashed files: a new build gives them new names.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// For everything else: use the cache only after asking whether it changed.
const REVALIDATE: &str = "no-cache";

/// The page's policy, as `index.html`'s `<meta>` has it (a test keeps the two
/// the same), and `frame-ancestors`, which a `<meta>` cannot carry.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
img-src 'self' data:; media-src 'self' data:; connect-src 'self' http: https: ws: wss:; \
object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The policy of `app-frame.html`, the frame MCP Apps' views run in (issue 29): its
/// `<meta>` (a test keeps the two the same), the widest a view may get, and
/// `frame-ancestors 'self'`: the page frames it (sandboxed, with an opaque origin),
/// no other site may.
const FRAME_CSP: &str = "default-src 'none'; \
script-src 'unsafe-inline' https: http://localhost:* http://127.0.0.1:*; \
style-src 'unsafe-inline' https: http://localhost:* http://127.0.0.1:*; \
img-src data: https: http://localhost:* http://127.0.0.1:*; \
font-src https: http://localhost:* http://127.0.0.1:*; \
media-src data: https: http://localhost:* http://127.0.0.1:*; \
connect-src https: wss: http://localhost:* http://127.0.0.1:* ws://localhost:* ws://127.0.0.1:*; \
frame-src https: http://localhost:* http://127.0.0.1:*; object-src 'none'; \
base-uri 'self' https: http://localhost:* http://127.0.0.1:*; form-action 'none'; \
frame-ancestors 'self'";

/// Serves a file from the dist folder, precompressed when the client accepts it.
pub(crate) async fn serve(State(st): State<AppState>, req: Request) -> Response {
    // Checked per request, so building the page while the bridge runs just works.
    let built = st.dist().join("index.html").is_file();
    if !built && req.uri().path() == "/" {
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            NOT_BUILT,
        )
            .into_response();
    }
    let cache = cache_control(req.uri().path());
    let frame = req.uri().path().ends_with("/app-frame.html");
    let files = ServeDir::new(st.dist())
        .precompressed_br()
        .precompressed_gzip();
    let mut res = match files.oneshot(req).await {
        Ok(res) => res.into_response(),
        Err(never) => match never {},
    };
    let status = res.status();
    let headers = res.headers_mut();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    }
    defend(headers, if frame { FRAME_CSP } else { CSP });
    res
}

/// Adds the page's defences to a static file's answer (see the module's notes).
fn defend(headers: &mut axum::http::HeaderMap, csp: &'static str) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(csp),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
}

/// The `Cache-Control` for a request path.
fn cache_control(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or_default();
    if is_hashed(name) {
        IMMUTABLE
    } else {
        REVALIDATE
    }
}

/// Whether a file name carries `cargo xtask dist`'s content hash:
/// `stem-HASH.ext`, `HASH` being 16 lowercase hex digits.
fn is_hashed(name: &str) -> bool {
    let Some((stem, _ext)) = name.split_once('.') else {
        return false;
    };
    let Some((_, hash)) = stem.rsplit_once('-') else {
        return false;
    };
    hash.len() == 16
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_policy_is_the_pages_own_with_frame_ancestors() {
        let meta_of = |html: &str| {
            html.split("http-equiv=\"Content-Security-Policy\" content=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .map(str::to_owned)
        };
        for page in [
            include_str!("../../../index.html"),
            include_str!("../../../web/oauth-callback.html"),
        ] {
            let meta = meta_of(page).expect("the page carries its policy");
            assert_eq!(format!("{meta}; frame-ancestors 'none'"), CSP);
        }
        let frame = meta_of(include_str!("../../../web/app-frame.html")).expect("its policy");
        assert_eq!(format!("{frame}; frame-ancestors 'self'"), FRAME_CSP);
        let mut headers = axum::http::HeaderMap::new();
        defend(&mut headers, CSP);
        assert_eq!(headers[header::CONTENT_SECURITY_POLICY], CSP);
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    }

    #[test]
    fn only_content_hashed_names_are_immutable() {
        for hashed in [
            "/mcpg-web-2add2a1d0d489279.wasm",
            "/prefix/style-ac82ffb4f58296c2.css",
            "/mcpg-web-b722a3e6c98ffb79.js",
        ] {
            assert_eq!(cache_control(hashed), IMMUTABLE, "{hashed}");
        }
        for plain in [
            "/",
            "/index.html",
            "/sw.js",
            "/build-info.json",
            "/mcpg-web-2ADD2A1D0D489279.wasm",
            "/mcpg-web-2add2a1d0d48927.wasm",
            "/snippets/x-1/inline0.js",
        ] {
            assert_eq!(cache_control(plain), REVALIDATE, "{plain}");
        }
    }
}
