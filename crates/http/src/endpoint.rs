//! The old HTTP+SSE transport's `endpoint` event: resolved against the SSE URL the
//! way reqwest and the browser will, bounded, and refused on another origin.

/// The longest `endpoint` event accepted (a path and a session id need far less).
pub(crate) const MAX_ENDPOINT: usize = 2048;

/// Why the old transport's `endpoint` event was refused (the session is then over).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    /// Longer than the bound.
    #[error("refused the server's endpoint event: {len} bytes, over the {limit}-byte limit")]
    TooLong {
        /// Its length.
        len: usize,
        /// The bound.
        limit: usize,
    },
    /// Not a URL, even relative to the SSE URL.
    #[error("refused the server's endpoint event {endpoint:?}: {why}")]
    Invalid {
        /// What the server sent (lossy UTF-8).
        endpoint: String,
        /// Why it does not resolve.
        why: String,
    },
    /// On another origin (scheme, host or port) than the SSE URL: a hostile server
    /// must not make the client POST (with its headers) elsewhere.
    #[error("refused the server's endpoint {endpoint}: it is not on the SSE URL's origin {origin}")]
    CrossOrigin {
        /// The resolved endpoint.
        endpoint: String,
        /// The SSE URL's origin.
        origin: String,
    },
}

/// Resolves the `endpoint` event's data against the SSE URL, refusing another origin.
pub(crate) fn resolve_endpoint(base: &str, data: &[u8]) -> Result<String, EndpointError> {
    let text = endpoint_text(data)?;
    let invalid = |why: String| EndpointError::Invalid {
        endpoint: text.to_owned(),
        why,
    };
    let base = url::Url::parse(base).map_err(|e| invalid(format!("the SSE URL: {e}")))?;
    let url = base.join(text).map_err(|e| invalid(e.to_string()))?;
    if url.origin() != base.origin() {
        return Err(EndpointError::CrossOrigin {
            endpoint: url.to_string(),
            origin: base.origin().ascii_serialization(),
        });
    }
    Ok(url.to_string())
}

/// Where to POST when the SSE URL is the bridge's relay (`/relay/NAME`): the relay
/// itself, with the event's text as `?endpoint=`. Only the bridge knows the remote's
/// URL, so it resolves the text and refuses another origin. Returns that URL and
/// the endpoint as shown.
pub(crate) fn relay_endpoint(relay: &str, data: &[u8]) -> Result<(String, String), EndpointError> {
    let text = endpoint_text(data)?;
    let encoded: String = url::form_urlencoded::byte_serialize(text.as_bytes()).collect();
    // Shown as the remote would see it: a path and the query's names.
    let shown = url::Url::parse("http://remote.invalid/")
        .and_then(|base| base.join(text))
        .map(|u| shown(u.as_str()))
        .unwrap_or_default();
    Ok((format!("{relay}?endpoint={encoded}"), shown))
}

/// The event's text: bounded, UTF-8, not empty, trimmed.
fn endpoint_text(data: &[u8]) -> Result<&str, EndpointError> {
    if data.len() > MAX_ENDPOINT {
        return Err(EndpointError::TooLong {
            len: data.len(),
            limit: MAX_ENDPOINT,
        });
    }
    let lossy = String::from_utf8_lossy(data);
    let invalid = |why: String| EndpointError::Invalid {
        endpoint: lossy.clone().into_owned(),
        why,
    };
    let text = std::str::from_utf8(data)
        .map_err(|_| invalid("not UTF-8".into()))?
        .trim();
    if text.is_empty() {
        return Err(invalid("empty".into()));
    }
    Ok(text)
}

/// The endpoint as shown to a person: path and query names, each query value cut
/// to 4 characters (a session id there lets anyone post into the session).
pub(crate) fn shown(endpoint: &str) -> String {
    let Ok(url) = url::Url::parse(endpoint) else {
        return String::new();
    };
    let mut s = url.path().to_owned();
    let mut sep = '?';
    for (k, v) in url.query_pairs() {
        let short: String = v.chars().take(4).collect();
        let more = if v.chars().count() > 4 { "…" } else { "" };
        s.push_str(&format!("{sep}{k}={short}{more}"));
        sep = '&';
    }
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const BASE: &str = "http://127.0.0.1:8000/sse";

    #[test]
    fn relative_absolute_and_hostile_endpoints() {
        assert_eq!(
            resolve_endpoint(BASE, b" /messages/?session_id=ab \n").unwrap(),
            "http://127.0.0.1:8000/messages/?session_id=ab"
        );
        assert_eq!(
            resolve_endpoint(BASE, b"post").unwrap(),
            "http://127.0.0.1:8000/post"
        );
        // The default port is the same origin written either way.
        assert!(resolve_endpoint("http://h.test/sse", b"http://h.test:80/m").is_ok());
        for hostile in [
            &b"javascript:alert(1)"[..],
            b"data:text/plain,x",
            b"//127.0.0.1:8001/m",
            b"http://localhost:8000/m",
            b"https://127.0.0.1:8000/m",
        ] {
            assert!(
                matches!(
                    resolve_endpoint(BASE, hostile),
                    Err(EndpointError::CrossOrigin { .. })
                ),
                "{hostile:?}"
            );
        }
        assert!(matches!(
            resolve_endpoint(BASE, b"  "),
            Err(EndpointError::Invalid { .. })
        ));
        assert!(matches!(
            resolve_endpoint(BASE, b"/\xff"),
            Err(EndpointError::Invalid { .. })
        ));
    }

    #[test]
    fn shown_cuts_query_values() {
        assert_eq!(
            shown("http://h.test/messages/?session_id=0123456789&x=ab"),
            "/messages/?session_id=0123…&x=ab"
        );
        assert_eq!(shown("http://h.test/m"), "/m");
    }
}
