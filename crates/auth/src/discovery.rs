//! Discovery, in the spec's order (MCP 2025-11-25 Authorization): protected
//! resource metadata (RFC 9728) from `resource_metadata` in the challenge, else the
//! well-known URL with the MCP path inserted, then at the root; then the
//! authorization server's metadata (RFC 8414 path-inserted, OpenID Connect
//! path-inserted, OpenID Connect path-appended; for an issuer without a path the
//! two root URLs). Without any protected resource metadata, the 2025-03-26
//! fallbacks: the MCP server's origin is the authorization server, and without its
//! metadata the default endpoints `/authorize`, `/token`, `/register`.

use mcpg_core::diag::Severity;

use crate::as_metadata::as_candidates;
use crate::cards::Card;
use crate::checks;
use crate::state::{Answer, AsMetadata, Prm, Purpose, string, strings};
use crate::url;
use crate::{AuthError, AuthFlow, AuthRequest, Step};

/// The PRM URLs to try, in order.
pub(crate) fn prm_candidates(resource_url: &str, from_challenge: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = from_challenge.into_iter().map(str::to_owned).collect();
    if let Some(u) = url::web_url(resource_url) {
        let (o, path) = (url::origin(&u), url::trimmed_path(&u));
        if !path.is_empty() {
            out.push(format!("{o}/.well-known/oauth-protected-resource{path}"));
        }
        out.push(format!("{o}/.well-known/oauth-protected-resource"));
    }
    out.dedup();
    out
}

/// Whether PRM `resource` may stand for the MCP endpoint: the same origin, and the
/// endpoint's path at or under the resource's path (RFC 9728 §3.3; a server's
/// root metadata names its origin). Origins and paths as the WHATWG parser reads
/// them, so a look-alike spelling cannot pass for the endpoint's origin.
pub(crate) fn resource_covers(resource: &str, mcp: &str) -> bool {
    let (Some(r), Some(m)) = (url::web_url(resource), url::web_url(mcp)) else {
        return resource == mcp;
    };
    let (rp, mp) = (url::trimmed_path(&r), url::trimmed_path(&m));
    url::origin(&r) == url::origin(&m)
        && (rp == mp || mp.starts_with(&format!("{rp}/")) || rp.is_empty())
}

fn get(url: String) -> AuthRequest {
    AuthRequest {
        id: 0,
        step: Step::ProtectedResourceMetadata,
        method: "GET",
        url,
        headers: vec![("Accept".into(), "application/json".into())],
        body: None,
    }
}

impl AuthFlow {
    /// From the top: protected resource metadata.
    pub(crate) fn start_discovery(&mut self) {
        let candidates = prm_candidates(
            &self.cfg.resource_url,
            self.challenge.resource_metadata.as_deref(),
        );
        self.prm = None;
        // The server's own pointer is checked before anything is fetched from it.
        if let Some(u) = self.challenge.resource_metadata.clone()
            && !self.url_ok(Step::ProtectedResourceMetadata, "resource_metadata", &u)
        {
            return;
        }
        self.ask_prm(candidates, 0);
    }

    fn ask_prm(&mut self, candidates: Vec<String>, at: usize) {
        let Some(url) = candidates.get(at).cloned() else {
            return;
        };
        let why = if at == 0 && self.challenge.resource_metadata.is_some() {
            "The 401's WWW-Authenticate named the protected resource metadata: it says which authorization server protects this MCP server.".to_owned()
        } else {
            "No usable metadata URL yet: the client tries the RFC 9728 well-known location (the MCP path inserted first, then the root).".to_owned()
        };
        self.request(Purpose::Prm { candidates, at }, why, get(url));
    }

    fn ask_as(&mut self, issuer: String, candidates: Vec<String>, at: usize, legacy: bool) {
        let Some(url) = candidates.get(at).cloned() else {
            return;
        };
        let why = format!(
            "The client needs the endpoints and capabilities of the authorization server {issuer}: RFC 8414 first, then OpenID Connect discovery."
        );
        let mut req = get(url);
        req.step = Step::AuthorizationServerMetadata;
        self.request(
            Purpose::AsMeta {
                issuer,
                candidates,
                at,
                legacy,
            },
            why,
            req,
        );
    }

    /// A discovery candidate gave nothing: try the next, or fall back.
    pub(crate) fn next_candidate(&mut self, purpose: Purpose) {
        match purpose {
            Purpose::Prm { candidates, at } if at + 1 < candidates.len() => {
                self.ask_prm(candidates, at + 1);
            }
            Purpose::Prm { .. } => {
                // 2025-03-26: no protected resource metadata; the MCP server's
                // origin is the authorization server.
                let Some(u) = url::web_url(&self.cfg.resource_url) else {
                    self.fail(AuthError::Malformed {
                        what: format!("MCP URL {}", self.cfg.resource_url),
                    });
                    return;
                };
                let mut card = Card::plain(
                    Step::ProtectedResourceMetadata,
                    "MCP 2025-03-26 Authorization §Server Metadata Discovery",
                    "No protected resource metadata anywhere: as in MCP 2025-03-26, the MCP server's origin is taken as the authorization server.".into(),
                    format!("(fallback) authorization server = {}", url::origin(&u)),
                );
                card.finding(
                    "auth-prm-missing",
                    if self.cfg.revision.as_str() >= "2025-06-18" {
                        Severity::Error
                    } else {
                        Severity::Info
                    },
                    "protected resource metadata (RFC 9728) at the WWW-Authenticate URL or the well-known location",
                    "no document",
                );
                self.emit_card(card);
                let issuer = url::origin(&u);
                let c = as_candidates(&issuer);
                self.ask_as(issuer, c, 0, true);
            }
            Purpose::AsMeta {
                issuer,
                candidates,
                at,
                legacy,
            } if at + 1 < candidates.len() => self.ask_as(issuer, candidates, at + 1, legacy),
            Purpose::AsMeta {
                issuer,
                legacy: true,
                ..
            } => {
                let mut card = Card::plain(
                    Step::AuthorizationServerMetadata,
                    "MCP 2025-03-26 Authorization §Fallbacks for Servers without Metadata Discovery",
                    "No authorization server metadata either: the 2025-03-26 default endpoints /authorize, /token and /register are used.".into(),
                    format!("(fallback) {issuer}/authorize, {issuer}/token, {issuer}/register"),
                );
                card.finding(
                    "auth-as-metadata-missing",
                    Severity::Warning,
                    "authorization server metadata (RFC 8414 or OpenID Connect discovery)",
                    "no document",
                );
                self.emit_card(card);
                self.asm = Some(AsMetadata {
                    authorization_endpoint: format!("{issuer}/authorize"),
                    token_endpoint: format!("{issuer}/token"),
                    registration_endpoint: Some(format!("{issuer}/register")),
                    issuer,
                    scopes_supported: Vec::new(),
                    token_endpoint_auth_methods: Vec::new(),
                    grant_types: Vec::new(),
                    cimd_supported: false,
                    iss_supported: false,
                    dpop_algs: Vec::new(),
                });
                self.start_registration();
            }
            Purpose::AsMeta { issuer, .. } => {
                self.fail(AuthError::NoMetadata { what: issuer });
            }
            _ => {}
        }
    }

    pub(crate) fn on_prm(&mut self, mut card: Card, purpose: Purpose, a: &Answer<'_>) {
        let doc = a.json().filter(|_| a.ok());
        let Some(doc) = doc else {
            if a.ok() {
                card.finding(
                    "auth-prm-malformed",
                    Severity::Error,
                    "a JSON object (RFC 9728 §3.2)",
                    &a.body.chars().take(80).collect::<String>(),
                );
            }
            self.emit_card(card);
            self.next_candidate(purpose);
            return;
        };
        let servers = strings(&doc, "authorization_servers");
        let resource = string(&doc, "resource").unwrap_or_default();
        if !resource_covers(&resource, &self.cfg.resource_url) {
            card.finding(
                "auth-resource-mismatch",
                Severity::Error,
                &format!(
                    "resource = {} (or a URL it is under)",
                    self.cfg.resource_url
                ),
                &resource,
            );
            self.emit_card(card);
            self.fail(AuthError::ResourceMismatch {
                expected: self.cfg.resource_url.clone(),
                got: resource,
            });
            return;
        }
        let Some(issuer) = servers.first().cloned() else {
            card.finding(
                "auth-prm-no-authorization-servers",
                Severity::Error,
                "authorization_servers with at least one issuer (MCP Authorization)",
                "none",
            );
            self.emit_card(card);
            self.fail(AuthError::NoMetadata {
                what: self.cfg.resource_url.clone(),
            });
            return;
        };
        // The issuer is where the metadata, and then the browser, go.
        if let Err(e) = checks::check(&mut card, "authorization_servers", &issuer) {
            self.refuse(card, e);
            return;
        }
        self.emit_card(card);
        self.prm = Some(Prm {
            resource,
            authorization_servers: servers,
            scopes_supported: strings(&doc, "scopes_supported"),
            dpop: strings(&doc, "dpop_signing_alg_values_supported")
                .iter()
                .any(|a| a == "ES256")
                || doc
                    .get("dpop_bound_access_tokens_required")
                    .and_then(serde_json::Value::as_bool)
                    .unwrap_or(false),
        });
        let c = as_candidates(&issuer);
        if c.is_empty() {
            self.fail(AuthError::Malformed {
                what: format!("authorization server URL {issuer}"),
            });
            return;
        }
        self.ask_as(issuer, c, 0, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prm_order_follows_the_spec() {
        assert_eq!(
            prm_candidates("http://h:1/mcp", None),
            [
                "http://h:1/.well-known/oauth-protected-resource/mcp",
                "http://h:1/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            prm_candidates("http://h/", Some("http://h/custom.json")),
            [
                "http://h/custom.json",
                "http://h/.well-known/oauth-protected-resource"
            ]
        );
    }

    #[test]
    fn resource_must_cover_the_endpoint() {
        assert!(resource_covers("http://h:1/mcp", "http://h:1/mcp"));
        assert!(resource_covers("http://h:1", "http://h:1/mcp"));
        assert!(resource_covers("http://h:1/", "http://h:1/mcp"));
        assert!(!resource_covers(
            "https://evil.example.com/mcp",
            "http://h:1/mcp"
        ));
        assert!(!resource_covers("http://h:1/mcp2", "http://h:1/mcp"));
        assert!(!resource_covers("http://h:1/other", "http://h:1/mcp"));
        // Userinfo and a backslash do not change whose origin it is.
        assert!(!resource_covers(
            "http://h:1@evil.example/",
            "http://h:1/mcp"
        ));
        assert!(resource_covers("HTTP://H:1/mcp/", "http://h:1/mcp"));
    }
}
