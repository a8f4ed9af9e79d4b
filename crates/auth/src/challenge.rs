//! `WWW-Authenticate: Bearer …` (RFC 6750 §3, RFC 9728 §5.1).

/// What a Bearer challenge says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BearerChallenge {
    /// RFC 9728 §5.1: where the protected resource metadata is.
    pub resource_metadata: Option<String>,
    /// The scopes the resource wants (space separated, as sent).
    pub scope: Option<String>,
    /// `invalid_token`, `insufficient_scope`, …
    pub error: Option<String>,
    /// `error_description`.
    pub error_description: Option<String>,
    /// The challenge's scheme was `DPoP` (RFC 9449 §7.1): the resource server
    /// takes DPoP-bound tokens.
    pub dpop: bool,
}

/// Parses a `WWW-Authenticate` value and returns its `Bearer` (or `DPoP`) challenge,
/// if any.
/// Other schemes in the same header are skipped; parameter names are case-insensitive;
/// values may be tokens or quoted strings.
pub fn parse_www_authenticate(value: &str) -> Option<BearerChallenge> {
    let mut p = Parser {
        s: value.as_bytes(),
        i: 0,
    };
    let mut found: Option<BearerChallenge> = None;
    let mut in_bearer = false;
    loop {
        p.skip(b" \t,");
        let Some(tok) = p.token() else { break };
        p.skip(b" \t");
        if p.peek() == Some(b'=') && !p.is_token68_end() {
            // A parameter of the current challenge.
            p.i += 1;
            p.skip(b" \t");
            let val = if p.peek() == Some(b'"') {
                p.quoted()
            } else {
                p.token().unwrap_or_default()
            };
            if in_bearer && let Some(c) = found.as_mut() {
                match tok.to_ascii_lowercase().as_str() {
                    "resource_metadata" => c.resource_metadata = Some(val),
                    "scope" => c.scope = Some(val),
                    "error" => c.error = Some(val),
                    "error_description" => c.error_description = Some(val),
                    _ => {}
                }
            }
        } else {
            // A new scheme.
            if in_bearer {
                break;
            }
            // RFC 9449 §7.1: a DPoP challenge carries the same parameters.
            in_bearer = tok.eq_ignore_ascii_case("bearer") || tok.eq_ignore_ascii_case("dpop");
            if in_bearer {
                found = Some(BearerChallenge {
                    dpop: tok.eq_ignore_ascii_case("dpop"),
                    ..BearerChallenge::default()
                });
            }
        }
    }
    found
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip(&mut self, set: &[u8]) {
        while self.peek().is_some_and(|c| set.contains(&c)) {
            self.i += 1;
        }
    }

    /// `token=` followed by `=` or end: a token68 (`abc==`), not a parameter.
    fn is_token68_end(&self) -> bool {
        let rest = &self.s[self.i..];
        let eqs = rest.iter().take_while(|c| **c == b'=').count();
        rest[eqs..].iter().all(|c| *c == b' ' || *c == b'\t') || rest.get(eqs) == Some(&b',')
    }

    fn token(&mut self) -> Option<String> {
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| !matches!(c, b' ' | b'\t' | b',' | b'=' | b'"'))
        {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    fn quoted(&mut self) -> String {
        self.i += 1;
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    if let Some(n) = self.peek() {
                        out.push(n);
                        self.i += 1;
                    }
                }
                _ => out.push(c),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_resource_metadata_scope_and_error() {
        let c = parse_www_authenticate(
            r#"Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp""#,
        );
        let c = c.unwrap_or_default();
        assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(c.scope.as_deref(), Some("files:read files:write"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("https://x/.well-known/oauth-protected-resource/mcp")
        );
    }

    #[test]
    fn skips_other_schemes_and_reads_tokens() {
        let c = parse_www_authenticate(r#"Basic realm="a", bearer Error=invalid_token, realm="b""#)
            .unwrap_or_default();
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(c.resource_metadata, None);
        assert_eq!(parse_www_authenticate(r#"Basic realm="a""#), None);
        assert_eq!(
            parse_www_authenticate("Bearer"),
            Some(BearerChallenge::default())
        );
    }

    #[test]
    fn quoted_escapes_are_unescaped() {
        let c =
            parse_www_authenticate(r#"Bearer error_description="say \"hi\"""#).unwrap_or_default();
        assert_eq!(c.error_description.as_deref(), Some(r#"say "hi""#));
    }
}
