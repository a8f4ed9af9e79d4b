//! The cards of the OAuth lesson: each exchange as masked text, the spec section
//! that asked for it, and what the server got wrong.

use mcpg_core::diag::Severity;

use crate::{AuthRequest, Exchange, Finding, Step, mask};

/// How much of a response body a card shows.
const MAX_BODY: usize = 4096;

/// An exchange being written.
#[derive(Debug)]
pub(crate) struct Card {
    step: Step,
    spec: &'static str,
    why: String,
    request: String,
    pub response: Option<String>,
    findings: Vec<Finding>,
}

impl Card {
    /// A card for `req` (masked at once).
    pub fn new(step: Step, spec: &'static str, why: String, req: &AuthRequest) -> Card {
        Card::plain(step, spec, why, request_text(req))
    }

    /// A card whose "request" is not an HTTP request (a challenge, a metadata
    /// document the AS fetches, the browser leg).
    pub fn plain(step: Step, spec: &'static str, why: String, request: String) -> Card {
        Card {
            step,
            spec,
            why,
            request: mask(&request),
            response: None,
            findings: Vec::new(),
        }
    }

    /// Adds a finding (the `got` text is masked).
    pub fn finding(&mut self, rule: &'static str, severity: Severity, expected: &str, got: &str) {
        self.findings.push(Finding {
            rule,
            severity,
            expected: expected.to_owned(),
            got: mask(got),
        });
    }

    pub fn into_exchange(self) -> Exchange {
        Exchange {
            step: self.step,
            spec: self.spec,
            why: self.why,
            request: self.request,
            response: self.response.map(|r| mask(&r)),
            findings: self.findings,
        }
    }
}

/// `GET url` / `POST url`, the headers and the body, masked.
pub(crate) fn request_text(req: &AuthRequest) -> String {
    let mut t = format!("{} {}", req.method, req.url);
    for (k, v) in &req.headers {
        t.push_str(&format!("\n{k}: {v}"));
    }
    if let Some(b) = &req.body {
        t.push_str("\n\n");
        t.push_str(b);
    }
    mask(&t)
}

/// `HTTP status`, the headers worth reading, and the body (cut), masked.
pub(crate) fn response_text(status: u16, headers: &[(String, String)], body: &str) -> String {
    let mut t = format!("HTTP {status}");
    for (k, v) in headers {
        let k = k.to_ascii_lowercase();
        if matches!(
            k.as_str(),
            "content-type" | "location" | "www-authenticate" | "cache-control"
        ) {
            t.push_str(&format!("\n{k}: {v}"));
        }
    }
    if !body.is_empty() {
        t.push_str("\n\n");
        if body.len() > MAX_BODY {
            let mut end = MAX_BODY;
            while !body.is_char_boundary(end) {
                end -= 1;
            }
            t.push_str(&body[..end]);
            t.push_str(&format!("\n… ({} more bytes)", body.len() - end));
        } else {
            t.push_str(body);
        }
    }
    mask(&t)
}

/// The card for the refusal that started (or stepped up) the flow.
pub(crate) fn challenge_card(status: u16, www: Option<&str>, step_up: bool) -> Card {
    let (step, why) = if step_up {
        (
            Step::StepUp,
            "The server refused the token for want of scope (403 insufficient_scope): the client asks the user again, for the union of the scopes it had and the ones challenged.",
        )
    } else {
        (
            Step::ProtectedResourceMetadata,
            "The MCP server refused the request without a valid token (401): the flow starts from its WWW-Authenticate challenge.",
        )
    };
    let spec = if step_up {
        "MCP Authorization §Scope Challenge Handling; RFC 6750 §3.1"
    } else {
        "MCP Authorization §Authorization Server Location; RFC 9728 §5.1"
    };
    let mut c = Card::plain(step, spec, why.to_owned(), "(the MCP request)".into());
    c.response = Some(match www {
        Some(w) => format!("HTTP {status}\nwww-authenticate: {w}"),
        None => format!("HTTP {status}"),
    });
    c
}

/// The spec section that asks for each step.
pub(crate) fn spec_for(step: Step, revision: &str) -> &'static str {
    let draft = revision >= "2026-07-28";
    match step {
        Step::ProtectedResourceMetadata => {
            "MCP Authorization §Protected Resource Metadata Discovery Requirements; RFC 9728 §3"
        }
        Step::AuthorizationServerMetadata => {
            "MCP Authorization §Authorization Server Metadata Discovery; RFC 8414 §3, OpenID Connect Discovery 1.0 §4"
        }
        Step::ClientMetadataDocument => {
            "MCP Authorization §Client ID Metadata Documents; draft-ietf-oauth-client-id-metadata-document"
        }
        Step::Registration => "MCP Authorization §Dynamic Client Registration; RFC 7591 §3",
        Step::Authorization if draft => {
            "MCP Authorization §Authorization Code Protection; OAuth 2.1 §4.1, RFC 7636, RFC 8707, RFC 9207"
        }
        Step::Authorization => {
            "MCP Authorization §Authorization Code Protection; OAuth 2.1 §4.1, RFC 7636, RFC 8707"
        }
        Step::TokenExchange => "MCP Authorization §Token Requests; OAuth 2.1 §4.1.3, RFC 8707 §2.2",
        Step::Refresh => "OAuth 2.1 §4.3 (refresh token grant); RFC 8707 §2.2",
        Step::StepUp => "MCP Authorization §Scope Challenge Handling; RFC 6750 §3.1",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_mask_secrets_in_requests_and_responses() {
        let req = AuthRequest {
            id: 0,
            step: Step::TokenExchange,
            method: "POST",
            url: "http://as/token".into(),
            headers: vec![("Authorization".into(), "Basic Y2xpZW50OnNlY3JldA==".into())],
            body: Some("grant_type=authorization_code&code=THE-CODE-123456&code_verifier=VERIFIER-abcdefghijkl".into()),
        };
        let mut c = Card::new(Step::TokenExchange, "x", "why".into(), &req);
        c.response = Some(response_text(
            200,
            &[("Content-Type".into(), "application/json".into())],
            r#"{"access_token":"AT-secret-0123456789","refresh_token":"RT-secret-0123456789"}"#,
        ));
        let x = c.into_exchange();
        let all = format!("{}\n{}", x.request, x.response.unwrap_or_default());
        for secret in [
            "Y2xpZW50OnNlY3Jl",
            "THE-CODE",
            "VERIFIER-abc",
            "AT-secret",
            "RT-secret",
        ] {
            assert!(!all.contains(secret), "{secret} leaked: {all}");
        }
        assert!(all.contains("grant_type=authorization_code"));
    }
}
