//! Authorization server metadata (RFC 8414 §3, OpenID Connect Discovery 1.0 §4):
//! where to look for an issuer, and what a document must say before the flow uses
//! it (the issuer it was fetched for, PKCE S256, both endpoints).

use mcpg_core::diag::Severity;
use serde_json::Value;

use crate::cards::Card;
use crate::checks;
use crate::state::{Answer, AsMetadata, Purpose, string, strings};
use crate::url;
use crate::{AuthError, AuthFlow};

/// The AS metadata URLs to try for `issuer`, in order.
pub(crate) fn as_candidates(issuer: &str) -> Vec<String> {
    let Some(u) = url::web_url(issuer) else {
        return Vec::new();
    };
    let (o, p) = (url::origin(&u), url::trimmed_path(&u).to_owned());
    if p.is_empty() {
        vec![
            format!("{o}/.well-known/oauth-authorization-server"),
            format!("{o}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{o}/.well-known/oauth-authorization-server{p}"),
            format!("{o}/.well-known/openid-configuration{p}"),
            format!("{o}{p}/.well-known/openid-configuration"),
        ]
    }
}

/// The metadata's URL members the flow fetches or opens (or could be led to), each
/// checked before the document is used.
const URL_FIELDS: [&str; 4] = [
    "authorization_endpoint",
    "token_endpoint",
    "registration_endpoint",
    "jwks_uri",
];

impl AuthFlow {
    pub(crate) fn on_as_metadata(&mut self, mut card: Card, purpose: Purpose, a: &Answer<'_>) {
        let Purpose::AsMeta { issuer, legacy, .. } = &purpose else {
            return;
        };
        let (issuer, legacy) = (issuer.clone(), *legacy);
        let Some(doc) = a.json().filter(|_| a.ok()) else {
            self.emit_card(card);
            self.next_candidate(purpose);
            return;
        };
        let got = string(&doc, "issuer").unwrap_or_default();
        // RFC 8414 §3.3: identical. A lone trailing slash is tolerated (some
        // resource servers normalise the issuer URL they publish) but reported.
        if got != issuer {
            // 2025-03-26 (no PRM): nobody named the issuer; the MCP server's origin
            // serves the metadata, so its `issuer` is taken as it comes, noted.
            if legacy || got.trim_end_matches('/') == issuer.trim_end_matches('/') {
                let rule = if legacy {
                    "auth-legacy-issuer-differs"
                } else {
                    "auth-issuer-trailing-slash"
                };
                card.finding(rule, Severity::Warning, &issuer, &got);
            } else {
                card.finding("auth-issuer-mismatch", Severity::Error, &issuer, &got);
                self.emit_card(card);
                self.fail(AuthError::IssuerMismatch {
                    expected: issuer,
                    got,
                });
                return;
            }
        }
        let methods = strings(&doc, "code_challenge_methods_supported");
        if !methods.iter().any(|m| m == "S256") {
            card.finding(
                "auth-no-pkce-s256",
                Severity::Error,
                "code_challenge_methods_supported containing S256",
                &format!("{methods:?}"),
            );
            self.emit_card(card);
            self.fail(AuthError::NoPkceS256);
            return;
        }
        let (Some(authz), Some(token)) = (
            string(&doc, "authorization_endpoint"),
            string(&doc, "token_endpoint"),
        ) else {
            card.finding(
                "auth-as-metadata-incomplete",
                Severity::Error,
                "authorization_endpoint and token_endpoint",
                "missing",
            );
            self.emit_card(card);
            self.fail(AuthError::Malformed {
                what: "authorization server metadata (no endpoints)".into(),
            });
            return;
        };
        for field in URL_FIELDS {
            if let Some(u) = string(&doc, field)
                && let Err(e) = checks::check(&mut card, field, &u)
            {
                self.refuse(card, e);
                return;
            }
        }
        self.emit_card(card);
        self.asm = Some(AsMetadata {
            issuer: got,
            authorization_endpoint: authz,
            token_endpoint: token,
            registration_endpoint: string(&doc, "registration_endpoint"),
            scopes_supported: strings(&doc, "scopes_supported"),
            token_endpoint_auth_methods: strings(&doc, "token_endpoint_auth_methods_supported"),
            grant_types: strings(&doc, "grant_types_supported"),
            cimd_supported: doc
                .get("client_id_metadata_document_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            dpop_algs: strings(&doc, "dpop_signing_alg_values_supported"),
            iss_supported: doc
                .get("authorization_response_iss_parameter_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        });
        self.start_registration();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_order_follows_the_spec() {
        assert_eq!(
            as_candidates("https://as/tenant1/"),
            [
                "https://as/.well-known/oauth-authorization-server/tenant1",
                "https://as/.well-known/openid-configuration/tenant1",
                "https://as/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            as_candidates("https://as"),
            [
                "https://as/.well-known/oauth-authorization-server",
                "https://as/.well-known/openid-configuration"
            ]
        );
    }
}
