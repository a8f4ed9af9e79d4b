//! The page's file names and its `index.html`, as pure functions of the built
//! bytes, so they are tested without building anything.

use crate::util::{Result, fingerprint};

/// The content-hashed name of a file: `stem-HASH.ext` (`HASH` is 16 hex digits
/// of FNV-1a over the bytes). A new build that changes a file changes its name,
/// so browsers may cache every hashed file forever (`mcpg serve` says so).
pub fn hashed_name(stem: &str, ext: &str, bytes: &[u8]) -> String {
    format!("{stem}-{}.{ext}", fingerprint(bytes))
}

/// The names of wasm-bindgen's two files once hashed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assets {
    /// wasm-bindgen's JS glue (`mcpg-web-HASH.js`).
    pub js: String,
    /// The optimized module (`mcpg-web-HASH.wasm`).
    pub wasm: String,
    /// The module that starts the page (`boot-HASH.js`, see [`boot_module`]).
    pub boot: String,
    /// What the glue imports as the wasm split's link module
    /// (`__wasm_split-HASH.js`, a shim that loads the real one when a lazy part is
    /// first needed), when the page has lazy chunks. The link module names every
    /// chunk, and the shim names it: the service worker follows those names (so
    /// the lists weigh on neither index.html nor the first load).
    pub link: Option<String>,
}

impl Assets {
    /// What `{{lazy}}` becomes: a `modulepreload` of the link module (the glue
    /// imports it, so the browser fetches it beside the glue, not after).
    fn lazy(&self) -> String {
        let Some(link) = &self.link else {
            return String::new();
        };
        format!("<link rel=\"modulepreload\" href=\"./{link}\">")
    }
}

/// The module `index.html` loads to start the page: it imports the glue `js` and
/// runs it with the wasm module `wasm`. A file rather than an inline `<script>`, so
/// the page's Content-Security-Policy allows scripts from its own origin only
/// (issue 26: a hostile server's `javascript:` URL or injected markup runs nothing).
/// Its URLs are relative to the page's folder, where it lives too.
///
/// First it runs [`EARLY_SOCKET`]; the glue is imported after it (`import()`, not a
/// static `import`, which would hold the whole module until the glue came).
pub fn boot_module(js: &str, wasm: &str) -> Result<String> {
    let text = format!(
        "{EARLY_SOCKET}\
         const bindings = await import('./{js}');\n\
         await bindings.default({{ module_or_path: './{wasm}' }});\n\
         // The e2e tests reach a few exported helpers through window.wasmBindings.\n\
         window.wasmBindings = bindings;\n"
    );
    check_relative(&text)?;
    Ok(text)
}

/// Opens the socket of the bridge server a page served by `mcpg serve` names
/// (`?server=NAME`, with the bridge's token in `?token=` or kept in this tab), as
/// soon as this module runs: the bridge starts the server's process when its socket
/// opens, and a real server takes most of a second to start (the Python SDK's, issue
/// #33). Opened by the page's wasm, the socket waited for the glue, the main
/// module's compile and the page's start (0.15-0.35 s after navigation on
/// localhost). The page adopts the socket and what it fired when it opens that link
/// (`web/src/effects/early_ws.rs`; its link checks that the socket's URL is the one
/// it would open, and closes it otherwise); this keeps at most 1,000 messages, as
/// the page's own early socket does. A page with a fragment (a session link, a hosted
/// bridge), a bridge kept in its hosted form, or no `http(s)` origin (the
/// constructor throws) opens nothing here. The token goes only into the bridge's
/// own URL, on this page's origin.
const EARLY_SOCKET: &str = "try {\n\
const q = new URLSearchParams(location.search), s = q.get('server'), t = q.get('token') || sessionStorage.getItem('mcpg.bridge-token');\n\
if (s && t && !location.hash && !sessionStorage.getItem('mcpg.bridge')) {\n\
const e = encodeURIComponent, c = 'page-' + Math.random().toString(36).slice(2), w = new WebSocket(`ws${location.origin.slice(4)}/ws?server=${e(s)}&channel=${c}&token=${e(t)}`, 'mcp');\n\
const h = window.__mcpgEarlyWs = { ws: w, channel: c, fired: [], flooded: false };\n\
let n = 0;\n\
w.onopen = w.onclose = w.onmessage = (v) => { if (h.flooded) return; if (v.type === 'message' && ++n > 1000) { h.flooded = true; w.close(); } else h.fired.push(v); };\n\
}\n\
} catch {}\n";

/// Fills the template's placeholders: `{{js}}`, `{{wasm}}` and `{{boot}}` (all
/// required) with `assets`, `{{lazy}}` with what the lazy chunks need (see
/// `Assets::lazy`), and `{{file:web/PATH}}` with `file("web/PATH")`, the hashed name
/// of that file once copied (stylesheets, images: any number). Anything else in
/// double braces, or a URL that is not relative, is an error: a page that works
/// on one host and not under a path prefix must not build. The template's HTML
/// comments are for its readers and are left out (index.html comes before every
/// other byte of the first load).
pub fn render(
    template: &str,
    assets: &Assets,
    mut file: impl FnMut(&str) -> Result<String>,
) -> Result<String> {
    for key in ["js", "wasm", "boot"] {
        if !template.contains(&format!("{{{{{key}}}}}")) {
            return Err(format!("index.html has no {{{{{key}}}}} placeholder"));
        }
    }
    let template = &without_comments(template)?;
    let mut html = String::with_capacity(template.len());
    let mut rest = template.as_str();
    while let Some(at) = rest.find("{{") {
        html.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find("}}").ok_or("index.html: a {{ is never closed")?;
        let key = &after[..end];
        match key {
            "js" => html.push_str(&assets.js),
            "wasm" => html.push_str(&assets.wasm),
            "boot" => html.push_str(&assets.boot),
            "lazy" => html.push_str(&assets.lazy()),
            _ => match key.strip_prefix("file:") {
                Some(path) => html.push_str(&file(path)?),
                None => return Err(format!("index.html: unknown placeholder {{{{{key}}}}}")),
            },
        }
        rest = &after[end + 2..];
    }
    html.push_str(rest);
    check_relative(&html)?;
    Ok(html)
}

/// `html` without its `<!-- … -->` comments (each with the blank line it leaves).
fn without_comments(html: &str) -> Result<String> {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<!--") {
        let end = rest[at..]
            .find("-->")
            .ok_or("index.html: a <!-- is never closed")?;
        let before = &rest[..at];
        // A comment alone on its lines leaves no blank line behind.
        let kept = before.trim_end_matches([' ', '\t']);
        let after = &rest[at + end + 3..];
        if kept.ends_with('\n') && after.starts_with('\n') {
            out.push_str(kept);
            rest = &after[1..];
        } else {
            out.push_str(before);
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// A `{{file:PATH}}` path: relative to the template (the repository's top level)
/// and inside `web/`; returns the part under `web/`, which is the file's place in
/// `dist/`.
pub fn check_file_path(path: &str) -> Result<&str> {
    let inner = path.strip_prefix("web/").unwrap_or("");
    let inside = !inner.is_empty()
        && inner
            .split('/')
            .all(|part| !part.is_empty() && part != "..");
    if inside {
        Ok(inner)
    } else {
        Err(format!(
            "index.html: {{{{file:{path}}}}} must name a file inside web/ (web/NAME)"
        ))
    }
}

/// Every `href`, `src` and module path must be relative (`./x`) or a `data:` URL:
/// a leading `/` would break a host that serves the page under a prefix, and a
/// scheme would be an external fetch.
fn check_relative(html: &str) -> Result<()> {
    for attr in [
        "href=\"",
        "src=\"",
        "from '",
        "import('",
        "module_or_path: '",
    ] {
        for (at, _) in html.match_indices(attr) {
            let url = &html[at + attr.len()..];
            let ok = url.starts_with("./") || url.starts_with("data:");
            if !ok {
                let shown: String = url.chars().take(40).collect();
                return Err(format!(
                    "index.html: `{attr}{shown}` is not a relative URL (start it with ./)"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    fn assets() -> Assets {
        Assets {
            js: "mcpg-web-2.js".into(),
            wasm: "mcpg-web-3.wasm".into(),
            boot: "boot-4.js".into(),
            link: Some("__wasm_split-2.js".into()),
        }
    }

    /// Names `web/PATH` as the build would (its place under `web/`, hashed),
    /// recording what was asked for.
    fn files(asked: &mut Vec<String>) -> impl FnMut(&str) -> Result<String> + '_ {
        |path| {
            let inner = check_file_path(path)?;
            asked.push(path.to_owned());
            Ok(inner.replace(".css", "-1.css"))
        }
    }

    #[test]
    fn the_real_template_renders_with_relative_urls_only() {
        let template = include_str!("../../../../index.html");
        let mut asked = Vec::new();
        let html = render(template, &assets(), files(&mut asked)).unwrap();
        // Every file the template links is one of web/'s own, and the stylesheet is one.
        assert!(asked.iter().any(|f| f == "web/style.css"), "{asked:?}");
        let top = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        for f in &asked {
            assert!(
                f.starts_with("web/") && std::path::Path::new(top).join(f).is_file(),
                "{f} is not in web/"
            );
        }
        assert!(html.contains("href=\"./style-1.css\""), "{html}");
        assert!(
            html.contains("<script type=\"module\" src=\"./boot-4.js\"></script>"),
            "{html}"
        );
        // Issue 26: a policy that runs no inline script, and no inline script to run.
        let csp = html
            .split("http-equiv=\"Content-Security-Policy\" content=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        for part in [
            "script-src 'self' 'wasm-unsafe-eval';",
            "object-src 'none'",
            "base-uri 'none'",
            "default-src 'self'",
        ] {
            assert!(csp.contains(part), "{part} in {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert_eq!(
            html.matches("<script").count(),
            html.matches("<script type=\"module\" src=\"./").count(),
            "every script is a file: {html}"
        );
        assert!(
            html.contains("<meta name=\"referrer\" content=\"no-referrer\">"),
            "{html}"
        );
        assert!(html.contains("<noscript>"), "{html}");
        assert!(
            html.contains("<link rel=\"modulepreload\" href=\"./__wasm_split-2.js\">"),
            "{html}"
        );
        // The chunks are named by the link module alone, not in every first load.
        assert!(!html.contains("lazy-chunks"), "{html}");
        assert!(html.contains("name=\"description\""), "{html}");
        assert!(
            !html.replace(csp, "").contains("://"),
            "no external fetch: {html}"
        );
        assert!(!html.contains("{{"), "{html}");
        assert!(!html.contains("<!--"), "the comments are left out: {html}");
        assert!(!html.contains("\n\n"), "and leave no blank line: {html}");
    }

    #[test]
    fn placeholders_must_be_known_and_js_and_wasm_there() {
        let mut asked = Vec::new();
        let all = "./{{js}} ./{{wasm}} ./{{boot}} ./{{file:web/a.css}} ./{{file:web/b/c.css}}";
        let html = render(all, &assets(), files(&mut asked)).unwrap();
        assert_eq!(
            html,
            "./mcpg-web-2.js ./mcpg-web-3.wasm ./boot-4.js ./a-1.css ./b/c-1.css"
        );
        assert_eq!(asked, ["web/a.css", "web/b/c.css"]);
        let none = Assets {
            link: None,
            ..assets()
        };
        assert_eq!(
            render(
                "./{{js}} ./{{wasm}} ./{{boot}}{{lazy}}",
                &none,
                files(&mut asked)
            )
            .unwrap(),
            "./mcpg-web-2.js ./mcpg-web-3.wasm ./boot-4.js"
        );
        assert!(render("./{{js}}", &assets(), files(&mut asked)).is_err());
        assert!(render("./{{js}} ./{{wasm}}", &assets(), files(&mut asked)).is_err());
        let err = render(
            &format!("{all} {{{{other}}}}"),
            &assets(),
            files(&mut asked),
        );
        assert!(err.unwrap_err().contains("unknown placeholder"));
        let err = render(&format!("{all} {{{{js"), &assets(), files(&mut asked));
        assert!(err.unwrap_err().contains("never closed"));
        for bad in [
            "../Cargo.toml",
            "/etc/passwd",
            "a//b.css",
            "",
            "style.css",
            "web/",
            "web/../Cargo.toml",
            "web//b.css",
            "crates/x.css",
        ] {
            let t = format!("./{{{{js}}}} ./{{{{wasm}}}} ./{{{{boot}}}} ./{{{{file:{bad}}}}}");
            let err = render(&t, &assets(), files(&mut asked)).unwrap_err();
            assert!(err.contains("inside web/"), "{bad}: {err}");
        }
    }

    #[test]
    fn an_absolute_url_fails_the_build() {
        let base = "<script src=\"./{{js}}\"></script>./{{wasm}} ./{{boot}}";
        let mut asked = Vec::new();
        assert!(render(base, &assets(), files(&mut asked)).is_ok());
        for bad in [
            "<link href=\"/{{file:web/a.css}}\">",
            "<script src=\"https://cdn.example/x.js\"></script>",
            "import x from '/{{js}}';",
        ] {
            let err = render(&format!("{base}{bad}"), &assets(), files(&mut asked)).unwrap_err();
            assert!(err.contains("not a relative URL"), "{bad}: {err}");
        }
    }

    #[test]
    fn the_boot_module_starts_the_glue_with_relative_urls() {
        let boot = boot_module("mcpg-web-2.js", "mcpg-web-3.wasm").unwrap();
        assert!(boot.starts_with(EARLY_SOCKET));
        assert!(boot.contains("const bindings = await import('./mcpg-web-2.js');"));
        assert!(boot.contains("await bindings.default({ module_or_path: './mcpg-web-3.wasm' });"));
        assert!(boot.contains("window.wasmBindings = bindings;"));
    }

    #[test]
    fn names_follow_the_content() {
        let a = hashed_name("style", "css", b"a{}");
        assert_eq!(a, hashed_name("style", "css", b"a{}"));
        assert_ne!(a, hashed_name("style", "css", b"b{}"));
        assert!(a.starts_with("style-") && a.ends_with(".css") && a.len() == 26);
    }
}
