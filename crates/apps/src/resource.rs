//! A view's resource, as `resources/read` returned it: checked (scheme, MIME type,
//! text or base64, size) and its declared CSP turned into the policy the page
//! applies, nothing it does not declare.

use base64::Engine as _;
use serde_json::Value;

use crate::meta::UI_SCHEME;

/// The one MIME type a view's HTML may have.
pub const MIME: &str = "text/html;profile=mcp-app";

/// The largest view the page hosts (bytes of HTML).
pub const MAX_HTML_BYTES: usize = 2 * 1024 * 1024;

/// Why a resource cannot be hosted as a view.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    /// The URI does not start with `ui://`.
    #[error("the URI {0:?} does not use the ui:// scheme")]
    NotUi(String),
    /// `resources/read` returned no contents for it.
    #[error("resources/read returned no contents")]
    Empty,
    /// The MIME type is not `text/html;profile=mcp-app`.
    #[error("the MIME type is {0:?}, not {MIME}")]
    Mime(String),
    /// Neither `text` nor a base64 `blob` that decodes to UTF-8.
    #[error("the contents have neither text nor a base64 blob of UTF-8 HTML")]
    NoHtml,
    /// Bigger than [`MAX_HTML_BYTES`].
    #[error("the HTML is {0} bytes, over the {MAX_HTML_BYTES}-byte limit")]
    TooLarge(usize),
}

/// The origins a view declares (`_meta.ui.csp`), each checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csp {
    /// `connect-src`: fetch, XHR, WebSocket.
    pub connect: Vec<String>,
    /// `script-src`, `style-src`, `img-src`, `font-src`, `media-src`.
    pub resources: Vec<String>,
    /// `frame-src` (none when empty).
    pub frames: Vec<String>,
    /// `base-uri` (`'self'` when empty).
    pub base_uris: Vec<String>,
    /// Declared sources left out because they are not an origin, in words.
    pub refused: Vec<String>,
}

/// A view's resource, ready to host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UiResource {
    /// `ui://…`.
    pub uri: String,
    /// The HTML.
    pub html: String,
    /// What it declares it loads.
    pub csp: Csp,
    /// `_meta.ui.prefersBorder`, when said.
    pub prefers_border: Option<bool>,
    /// `_meta.ui.permissions` asked for (camera, microphone, geolocation,
    /// clipboardWrite): shown, never granted by the page.
    pub permissions: Vec<String>,
}

impl UiResource {
    /// Reads `resources/read`'s result for `uri`.
    pub fn from_read(uri: &str, result: &Value) -> Result<UiResource, ResourceError> {
        if !uri.starts_with(UI_SCHEME) {
            return Err(ResourceError::NotUi(uri.to_owned()));
        }
        let contents = result.get("contents").and_then(Value::as_array);
        let item = contents
            .and_then(|c| {
                c.iter()
                    .find(|i| i.get("uri").and_then(Value::as_str) == Some(uri))
                    .or_else(|| c.first())
            })
            .ok_or(ResourceError::Empty)?;
        let mime = item.get("mimeType").and_then(Value::as_str).unwrap_or("");
        if !same_mime(mime) {
            return Err(ResourceError::Mime(mime.to_owned()));
        }
        let html = match (item.get("text"), item.get("blob")) {
            (Some(Value::String(t)), _) => t.clone(),
            (_, Some(Value::String(b))) => base64::engine::general_purpose::STANDARD
                .decode(b.as_bytes())
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok())
                .ok_or(ResourceError::NoHtml)?,
            _ => return Err(ResourceError::NoHtml),
        };
        if html.len() > MAX_HTML_BYTES {
            return Err(ResourceError::TooLarge(html.len()));
        }
        let ui = item.get("_meta").and_then(|m| m.get("ui"));
        let csp = Csp::from_meta(ui.and_then(|u| u.get("csp")));
        let permissions = ui
            .and_then(|u| u.get("permissions"))
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        Ok(UiResource {
            uri: uri.to_owned(),
            html,
            csp,
            prefers_border: ui
                .and_then(|u| u.get("prefersBorder"))
                .and_then(Value::as_bool),
            permissions,
        })
    }
}

/// `text/html;profile=mcp-app`, compared as a MIME type (case of the type and
/// the parameter name, spaces around `;`).
fn same_mime(mime: &str) -> bool {
    let mut parts = mime.split(';').map(str::trim);
    let base = parts.next().unwrap_or("");
    let params: Vec<_> = parts.collect();
    base.eq_ignore_ascii_case("text/html")
        && params.len() == 1
        && params[0]
            .split_once('=')
            .is_some_and(|(k, v)| k.trim().eq_ignore_ascii_case("profile") && v.trim() == "mcp-app")
}

impl Csp {
    /// Reads `_meta.ui.csp`; a source that is not an origin is left out (and named
    /// in `refused`).
    pub fn from_meta(csp: Option<&Value>) -> Csp {
        let mut out = Csp::default();
        let Some(csp) = csp else { return out };
        let read = |key: &str, refused: &mut Vec<String>| -> Vec<String> {
            let mut kept = Vec::new();
            for v in csp.get(key).and_then(Value::as_array).into_iter().flatten() {
                match v.as_str().map(source) {
                    Some(Ok(s)) => kept.push(s),
                    Some(Err(why)) => refused.push(format!("{key}: {why}")),
                    None => refused.push(format!("{key}: {v} is not a string")),
                }
            }
            kept
        };
        let mut refused = Vec::new();
        out.connect = read("connectDomains", &mut refused);
        out.resources = read("resourceDomains", &mut refused);
        out.frames = read("frameDomains", &mut refused);
        out.base_uris = read("baseUriDomains", &mut refused);
        out.refused = refused;
        out
    }

    /// The policy for the view's document: the spec's restrictive default widened
    /// only by the origins declared (and checked).
    pub fn policy(&self) -> String {
        let with = |base: &str, extra: &[String]| {
            let mut s = base.to_owned();
            for e in extra {
                s.push(' ');
                s.push_str(e);
            }
            s
        };
        let or_none = |list: &[String], none: &str| {
            if list.is_empty() {
                none.to_owned()
            } else {
                list.join(" ")
            }
        };
        [
            "default-src 'none'".to_owned(),
            with("script-src 'self' 'unsafe-inline'", &self.resources),
            with("style-src 'self' 'unsafe-inline'", &self.resources),
            with("img-src 'self' data:", &self.resources),
            with("font-src 'self'", &self.resources),
            with("media-src 'self' data:", &self.resources),
            format!("connect-src {}", or_none(&self.connect, "'none'")),
            format!("frame-src {}", or_none(&self.frames, "'none'")),
            "object-src 'none'".to_owned(),
            format!("base-uri {}", or_none(&self.base_uris, "'self'")),
            "form-action 'none'".to_owned(),
        ]
        .join("; ")
    }
}

/// One declared source, checked: `https://host[:port]`, `wss://host[:port]`
/// (or `http`/`ws` to `localhost` or `127.0.0.1`), a leading `*.` allowed in the host; no
/// path, query, keyword, wildcard alone or character that would end the
/// directive. Returned as written, lower-cased.
pub fn source(raw: &str) -> Result<String, String> {
    let s = raw.trim();
    if s.is_empty()
        || s.chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, ';' | ',' | '\'' | '"'))
    {
        return Err(format!("{raw:?} is not a single source"));
    }
    let (scheme, rest) = s
        .split_once("://")
        .ok_or_else(|| format!("{raw:?} has no scheme (write https://host)"))?;
    let scheme = scheme.to_ascii_lowercase();
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains(['/', '?', '#', '@']) {
        return Err(format!("{raw:?} is more than an origin"));
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) if !h.contains(']') || h.ends_with(']') => {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("{raw:?} has a bad port"));
            }
            (h, Some(p))
        }
        _ => (rest, None),
    };
    let host = host.to_ascii_lowercase();
    let bare = host.strip_prefix("*.").unwrap_or(&host);
    // A CSP host-source has no IPv6 literal: `[::1]` is not a loopback it can name.
    let loopback = matches!(bare, "localhost" | "127.0.0.1");
    match scheme.as_str() {
        "https" | "wss" => {}
        "http" | "ws" if loopback => {}
        _ => {
            return Err(format!(
                "{raw:?}: only https:// and wss:// (http:// to loopback)"
            ));
        }
    }
    let label_ok =
        |l: &str| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let ok = (bare.contains('.') || bare == "localhost") && bare.split('.').all(label_ok);
    if !ok || bare.contains('*') {
        return Err(format!("{raw:?} has no usable host"));
    }
    Ok(match port {
        Some(p) => format!("{scheme}://{host}:{p}"),
        None => format!("{scheme}://{host}"),
    })
}
