//! What a driver must not let a request or its failure carry elsewhere (issue 26):
//! secrets in headers must not follow a redirect to another origin, and a secret in
//! a URL must not reach an error text (which the page shows, records and hands to
//! the model as a tool's result). Pure functions, so they are tested natively; the
//! browser's executor (`fetch`) applies them.

/// Headers the machine writes itself: the protocol's, none of them a credential.
/// A request with any other header (a learner's `--header`, an OAuth bearer token,
/// the bridge's token for its relay) carries something its sender chose to give to
/// this endpoint only.
const PROTOCOL_HEADERS: &[&str] = &[
    "accept",
    "content-type",
    "last-event-id",
    "mcp-session-id",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
];

/// The prefix of the machine's per-parameter headers (`Mcp-Param-*`).
const PARAM_PREFIX: &str = "mcp-param-";

/// Whether a request with `headers` may follow a redirect: only when it carries
/// nothing but the protocol's own headers. Otherwise a redirect is refused rather
/// than followed, since a browser sends custom headers on to wherever a redirect
/// points, another origin included.
pub fn may_follow_redirects(headers: &[(String, String)]) -> bool {
    headers.iter().all(|(name, _)| {
        let name = name.trim().to_ascii_lowercase();
        PROTOCOL_HEADERS.contains(&name.as_str()) || name.starts_with(PARAM_PREFIX)
    })
}

/// The failure text for a request that got no answer at all (`why`: the browser's
/// words), with any secret in `url` redacted.
pub fn unreachable(url: &str, why: &str) -> String {
    redact(&format!(
        "could not reach {url} ({why}): the server is down, or the browser blocked the request (CORS)"
    ))
}

/// The failure text for a redirect that was not followed.
pub fn redirect_refused(url: &str) -> String {
    format!(
        "{} answered with a redirect, which the page does not follow for a request that carries headers or a token (a redirect could hand them to another site); connect to the address it redirects to instead",
        redact(url)
    )
}

/// Query parameter names whose values are secrets (matched at the end of a name,
/// so `token`, `access_token`, `api_key` all count).
const SECRET_PARAMS: &[&str] = &["token", "key", "secret", "password", "code"];

/// `text` with the value of every secret-looking URL query parameter (`token=…`,
/// `api_key=…`, …) replaced by `…`, wherever in the text a URL appears.
pub fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(eq) = rest.find('=') {
        let (before, after) = rest.split_at(eq);
        out.push_str(before);
        out.push('=');
        let after = &after[1..];
        let name_start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .map_or(0, |i| i + 1);
        let in_query = before[..name_start].ends_with(['?', '&', '#', ';']);
        let name = before[name_start..].to_ascii_lowercase();
        let secret = in_query && SECRET_PARAMS.iter().any(|s| name.ends_with(s));
        let value_len = after
            .find(|c: char| c == '&' || c == '#' || c.is_whitespace() || "\"'<>()".contains(c))
            .unwrap_or(after.len());
        if secret && value_len > 0 {
            out.push('…');
            rest = &after[value_len..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(names: &[&str]) -> Vec<(String, String)> {
        names
            .iter()
            .map(|n| ((*n).to_owned(), "v".to_owned()))
            .collect()
    }

    #[test]
    fn only_the_protocols_own_headers_may_follow_a_redirect() {
        assert!(may_follow_redirects(&h(&[
            "Accept",
            "Content-Type",
            "Mcp-Session-Id",
            "MCP-Protocol-Version",
            "Last-Event-ID",
            "Mcp-Method",
            "Mcp-Name",
            "Mcp-Param-City",
        ])));
        for secret in [
            "Authorization",
            "X-Api-Key",
            "Mcpg-Remote-Authorization",
            "Cookie",
        ] {
            assert!(
                !may_follow_redirects(&h(&["Accept", secret])),
                "{secret} must not follow a redirect"
            );
        }
        assert!(redirect_refused("https://a.example/mcp?token=s3cr3t").contains("…"));
        assert!(!redirect_refused("https://a.example/mcp?token=s3cr3t").contains("s3cr3t"));
    }

    #[test]
    fn a_failed_fetch_to_the_relay_names_no_token() {
        let token = "k9Vq2-LmTfX_7aZ";
        let text = unreachable(
            &format!("http://127.0.0.1:4000/relay/everything?token={token}"),
            "Failed to fetch",
        );
        assert!(!text.contains(token), "{text}");
        assert!(text.contains("http://127.0.0.1:4000/relay/everything?token=…"));
        let text = redirect_refused(&format!("https://a.example/mcp?x=1&token={token}"));
        assert!(!text.contains(token), "{text}");
    }

    #[test]
    fn a_token_in_a_url_never_reaches_the_text() {
        let token = "Zq8-9_xYtOkEn";
        for text in [
            format!(
                "could not reach http://127.0.0.1:4000/relay/x?token={token} (Failed to fetch)"
            ),
            format!("http://h/api/events?channel=c&token={token}&x=1"),
            format!("see \"http://h/ws?server=a&token={token}\""),
            format!("http://h/?api_key={token}#frag"),
            format!("http://h/?Access_Token={token}"),
            format!("http://h/cb?code={token}&state=s"),
        ] {
            let shown = redact(&text);
            assert!(!shown.contains(token), "{shown}");
            assert!(shown.contains('…'), "{shown}");
        }
        // Nothing else changes.
        for plain in [
            "could not reach https://example.com/mcp?x=1&y=2 (Failed to fetch)",
            "a = b, token = 3",
            "x=1",
            "",
        ] {
            assert_eq!(redact(plain), plain);
        }
        assert_eq!(
            redact("http://h/?server=a&token=t&channel=c"),
            "http://h/?server=a&token=…&channel=c"
        );
    }
}
