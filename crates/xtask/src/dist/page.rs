//! The page's file names and its `index.html`, as pure functions of the built
//! bytes, so they are tested without building anything.

use crate::util::{Result, fingerprint};

/// The content-hashed name of a file: `stem-HASH.ext` (`HASH` is 16 hex digits
/// of FNV-1a over the bytes). A new build that changes a file changes its name,
/// so browsers may cache every hashed file forever (`mcpg serve` says so).
pub fn hashed_name(stem: &str, ext: &str, bytes: &[u8]) -> String {
    format!("{stem}-{}.{ext}", fingerprint(bytes))
}

/// The names the template refers to, once the files are hashed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assets {
    /// The stylesheet (`style-HASH.css`).
    pub css: String,
    /// wasm-bindgen's JS glue (`mcpg-web-HASH.js`).
    pub js: String,
    /// The optimized module (`mcpg-web-HASH.wasm`).
    pub wasm: String,
}

/// Fills `{{css}}`, `{{js}}` and `{{wasm}}` in the template. Anything else in
/// double braces, a placeholder the template lacks, or a URL that is not
/// relative is an error: a page that works on one host and not under a path
/// prefix must not build.
pub fn render(template: &str, assets: &Assets) -> Result<String> {
    for key in ["css", "js", "wasm"] {
        if !template.contains(&format!("{{{{{key}}}}}")) {
            return Err(format!("web/index.html has no {{{{{key}}}}} placeholder"));
        }
    }
    let html = template
        .replace("{{css}}", &assets.css)
        .replace("{{js}}", &assets.js)
        .replace("{{wasm}}", &assets.wasm);
    if let Some(at) = html.find("{{") {
        let rest: String = html[at..].chars().take(30).collect();
        return Err(format!("web/index.html: unknown placeholder at {rest:?}"));
    }
    check_relative(&html)?;
    Ok(html)
}

/// Every `href`, `src` and module path must be relative (`./x`) or a `data:` URL:
/// a leading `/` would break a host that serves the page under a prefix, and a
/// scheme would be an external fetch.
fn check_relative(html: &str) -> Result<()> {
    for attr in ["href=\"", "src=\"", "from '", "module_or_path: '"] {
        for (at, _) in html.match_indices(attr) {
            let url = &html[at + attr.len()..];
            let ok = url.starts_with("./") || url.starts_with("data:");
            if !ok {
                let shown: String = url.chars().take(40).collect();
                return Err(format!(
                    "web/index.html: `{attr}{shown}` is not a relative URL (start it with ./)"
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
            css: "style-1.css".into(),
            js: "mcpg-web-2.js".into(),
            wasm: "mcpg-web-3.wasm".into(),
        }
    }

    #[test]
    fn the_real_template_renders_with_relative_urls_only() {
        let template = include_str!("../../../../web/index.html");
        let html = render(template, &assets()).unwrap();
        assert!(html.contains("href=\"./style-1.css\""), "{html}");
        assert!(html.contains("from './mcpg-web-2.js'"), "{html}");
        assert!(
            html.contains("module_or_path: './mcpg-web-3.wasm'"),
            "{html}"
        );
        assert!(html.contains("<noscript>"), "{html}");
        assert!(html.contains("name=\"description\""), "{html}");
        assert!(!html.contains("http"), "no external fetch: {html}");
    }

    #[test]
    fn placeholders_must_all_be_there_and_known() {
        let all = "./{{css}} ./{{js}} ./{{wasm}}";
        assert!(render("./{{css}} ./{{js}}", &assets()).is_err());
        let err = render(&format!("{all} {{{{other}}}}"), &assets()).unwrap_err();
        assert!(err.contains("unknown placeholder"), "{err}");
        assert!(render(all, &assets()).is_ok());
    }

    #[test]
    fn an_absolute_url_fails_the_build() {
        let base = "<link href=\"./{{css}}\"><script src=\"./{{js}}\"></script>./{{wasm}}";
        assert!(render(base, &assets()).is_ok());
        for bad in [
            "<link href=\"/{{css}}\">",
            "<script src=\"https://cdn.example/x.js\"></script>",
            "import x from '/{{js}}';",
        ] {
            let err = render(&format!("{base}{bad}"), &assets()).unwrap_err();
            assert!(err.contains("not a relative URL"), "{bad}: {err}");
        }
    }

    #[test]
    fn names_follow_the_content() {
        let a = hashed_name("style", "css", b"a{}");
        assert_eq!(a, hashed_name("style", "css", b"a{}"));
        assert_ne!(a, hashed_name("style", "css", b"b{}"));
        assert!(a.starts_with("style-") && a.ends_with(".css") && a.len() == 26);
    }
}
