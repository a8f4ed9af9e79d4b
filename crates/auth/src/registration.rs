//! Who the client is to the authorization server, in the spec's order: a
//! pre-registered client ID; a client ID metadata document (the `client_id` is its
//! HTTPS URL, the AS fetches it); dynamic client registration (RFC 7591); else the
//! user must register one by hand. Registrations are kept per issuer and never
//! presented to another authorization server.

use mcpg_core::diag::Severity;
use serde_json::{Value, json};

use crate::cards::Card;
use crate::state::{Answer, Client, Purpose};
use crate::{AuthError, AuthFlow, AuthRequest, ClientIdentity, Step};

/// The token endpoint authentication to use with a secret, from what the AS
/// advertises (RFC 8414 default: `client_secret_basic`).
pub(crate) fn method_for(secret: bool, supported: &[String]) -> String {
    let has = |m: &str| supported.iter().any(|s| s == m);
    let m = if !secret {
        "none"
    } else if supported.is_empty() || has("client_secret_basic") {
        "client_secret_basic"
    } else if has("client_secret_post") {
        "client_secret_post"
    } else if has("none") {
        "none"
    } else {
        "client_secret_basic"
    };
    m.to_owned()
}

/// A loopback redirect is a native app's (RFC 8252 §7.3); anything else a web one.
fn application_type(redirect_uri: &str) -> &'static str {
    let loopback = mcpg_safe_url::check(redirect_uri).is_ok_and(|c| c.is_loopback());
    if loopback { "native" } else { "web" }
}

/// The client an identity brings with it (no registration needed), if any.
fn given_client(identity: &ClientIdentity, supported: &[String]) -> Option<Client> {
    let (id, secret, method) = match identity {
        ClientIdentity::Auto { .. } => return None,
        ClientIdentity::PreRegistered {
            client_id,
            client_secret,
        }
        | ClientIdentity::Enterprise {
            client_id,
            client_secret,
            ..
        } => (client_id, client_secret.clone(), None),
        ClientIdentity::WorkloadJwt { client_id, .. } => (client_id, None, None),
        ClientIdentity::PrivateKeyJwt { client_id, .. } => {
            (client_id, None, Some("private_key_jwt".to_owned()))
        }
    };
    Some(Client {
        id: id.clone(),
        auth_method: method.unwrap_or_else(|| method_for(secret.is_some(), supported)),
        secret,
    })
}

impl AuthFlow {
    /// The registration for the current authorization server, if there is one.
    pub(crate) fn client_for_current(&self) -> Option<&Client> {
        let issuer = &self.asm.as_ref()?.issuer;
        self.clients
            .iter()
            .find(|(i, _)| i == issuer)
            .map(|(_, c)| c)
    }

    fn remember(&mut self, client: Client) {
        let Some(issuer) = self.asm.as_ref().map(|a| a.issuer.clone()) else {
            return;
        };
        self.clients.retain(|(i, _)| *i != issuer);
        self.clients.push((issuer, client));
    }

    /// Makes sure a client is registered with the current AS, then authorizes.
    pub(crate) fn start_registration(&mut self) {
        let Some(asm) = self.asm.clone() else {
            return;
        };
        if self.client_for_current().is_some() {
            self.start_authorization();
            return;
        }
        if let Some(client) = given_client(&self.cfg.identity, &asm.token_endpoint_auth_methods) {
            self.remember(client);
            self.start_authorization();
            return;
        }
        match self.cfg.identity.clone() {
            ClientIdentity::Auto {
                metadata_url: Some(url),
                ..
            } if asm.cimd_supported => {
                let mut card = Card::plain(
                    Step::ClientMetadataDocument,
                    crate::cards::spec_for(Step::ClientMetadataDocument, &self.cfg.revision),
                    "The authorization server accepts client ID metadata documents: the client's client_id is the URL of its metadata, which the server fetches itself (no registration request).".into(),
                    format!("client_id = {url}"),
                );
                card.response = Some("(fetched by the authorization server)".into());
                self.emit_card(card);
                self.remember(Client {
                    id: url,
                    secret: None,
                    auth_method: "none".into(),
                });
                self.start_authorization();
            }
            ClientIdentity::Auto { client_name, .. } => match asm.registration_endpoint.clone() {
                Some(endpoint) => {
                    self.register(endpoint, &client_name, &asm.token_endpoint_auth_methods)
                }
                None => {
                    let mut card = Card::plain(
                        Step::Registration,
                        crate::cards::spec_for(Step::Registration, &self.cfg.revision),
                        "The authorization server offers neither client ID metadata documents nor dynamic registration: a client ID registered by hand is needed.".into(),
                        "(no registration possible)".into(),
                    );
                    card.finding(
                        "auth-no-registration",
                        Severity::Info,
                        "client_id_metadata_document_supported or a registration_endpoint",
                        "neither",
                    );
                    self.emit_card(card);
                    self.fail(AuthError::NeedsClientId);
                }
            },
            // The others brought their client (`given_client`).
            _ => {}
        }
    }

    fn register(&mut self, endpoint: String, client_name: &str, supported: &[String]) {
        // A public client (PKCE protects the code) unless the AS only takes secrets.
        let method = if supported.is_empty() || supported.iter().any(|m| m == "none") {
            "none".to_owned()
        } else {
            method_for(true, supported)
        };
        let mut body = json!({
            "client_name": client_name,
            "redirect_uris": [self.cfg.redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": method,
            "application_type": application_type(&self.cfg.redirect_uri),
        });
        if let Some(s) = self.cfg.scopes.as_ref().filter(|s| !s.is_empty())
            && let Some(o) = body.as_object_mut()
        {
            o.insert("scope".into(), Value::String(s.join(" ")));
        }
        let req = AuthRequest {
            id: 0,
            step: Step::Registration,
            method: "POST",
            url: endpoint,
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("Accept".into(), "application/json".into()),
            ],
            body: Some(body.to_string()),
        };
        self.request(
            Purpose::Register,
            "The client has no client ID at this authorization server and it offers dynamic client registration (RFC 7591): the client registers itself.".into(),
            req,
        );
    }

    pub(crate) fn on_registration(&mut self, mut card: Card, a: &Answer<'_>) {
        let doc = a.json().filter(|_| a.ok());
        let id = doc
            .as_ref()
            .and_then(|d| d.get("client_id"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let (Some(doc), Some(id)) = (doc, id) else {
            let error = a
                .json()
                .and_then(|d| d.get("error").and_then(Value::as_str).map(str::to_owned));
            card.finding(
                "auth-registration-refused",
                Severity::Error,
                "HTTP 201 with a client_id (RFC 7591 §3.2.1)",
                &format!("HTTP {}", a.status),
            );
            self.emit_card(card);
            self.fail(AuthError::RegistrationRefused {
                status: a.status,
                error,
            });
            return;
        };
        self.emit_card(card);
        let secret = doc
            .get("client_secret")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let supported = self
            .asm
            .as_ref()
            .map(|a| a.token_endpoint_auth_methods.clone())
            .unwrap_or_default();
        let auth_method = doc
            .get("token_endpoint_auth_method")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| {
                // The AS did not say: with a secret, what it advertises.
                if secret.is_some() && supported.iter().any(|m| m == "none") {
                    "none".to_owned()
                } else {
                    method_for(secret.is_some(), &supported)
                }
            });
        self.remember(Client {
            id,
            secret,
            auth_method,
        });
        self.start_authorization();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_advertised_method() {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert_eq!(method_for(false, &s(&["client_secret_basic"])), "none");
        assert_eq!(method_for(true, &s(&[])), "client_secret_basic");
        assert_eq!(
            method_for(true, &s(&["client_secret_post"])),
            "client_secret_post"
        );
        assert_eq!(
            method_for(true, &s(&["none", "client_secret_basic"])),
            "client_secret_basic"
        );
        assert_eq!(application_type("http://localhost:3000/callback"), "native");
        assert_eq!(
            application_type("https://app.example/oauth-callback.html"),
            "web"
        );
    }
}
