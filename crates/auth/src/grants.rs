//! Extensions that get a token without a browser, from an assertion (RFC 7523
//! JWT-bearer grant): a workload identity JWT (SEP-1933), or an ID-JAG the
//! enterprise IdP issues for the user's ID token by RFC 8693 token exchange
//! (SEP-990).

use mcpg_core::diag::Severity;
use serde_json::Value;

use crate::cards::Card;
use crate::state::{Answer, AsMetadata, Client, Purpose};
use crate::token::Grant;
use crate::{AuthError, AuthFlow, ClientIdentity, Step};

const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";

impl AuthFlow {
    /// Starts the grant of an assertion identity; false for the browser ones.
    pub(crate) fn start_extension_grant(
        &mut self,
        asm: &AsMetadata,
        client: &Client,
        scopes: &[String],
    ) -> bool {
        match self.cfg.identity.clone() {
            ClientIdentity::WorkloadJwt { assertion, .. } => {
                self.jwt_bearer(asm, client, assertion, scopes);
            }
            ClientIdentity::PrivateKeyJwt {
                private_key_pem, ..
            } => self.private_key_jwt(asm, client, &private_key_pem, scopes),
            ClientIdentity::Enterprise {
                idp_token_endpoint,
                idp_client_id,
                id_token,
                ..
            } => {
                let idp = Client {
                    id: idp_client_id,
                    secret: None,
                    auth_method: "none".into(),
                };
                let grant = Grant {
                    purpose: Purpose::IdJag,
                    step: Step::TokenExchange,
                    endpoint: &idp_token_endpoint,
                    client: &idp,
                    form: vec![
                        ("grant_type", TOKEN_EXCHANGE.to_owned()),
                        ("subject_token", id_token),
                        ("subject_token_type", ID_TOKEN.to_owned()),
                        ("requested_token_type", ID_JAG.to_owned()),
                        ("audience", asm.issuer.clone()),
                        ("resource", self.resource()),
                    ],
                    why: "Enterprise-managed authorization (SEP-990): the client exchanges the user's ID token at the enterprise IdP (RFC 8693) for an identity assertion grant (ID-JAG) addressed to this authorization server.".into(),
                };
                self.post_grant(grant, scopes);
            }
            _ => return false,
        }
        true
    }

    fn jwt_bearer(
        &mut self,
        asm: &AsMetadata,
        client: &Client,
        assertion: String,
        scopes: &[String],
    ) {
        let grant = Grant {
            purpose: Purpose::JwtBearer,
            step: Step::TokenExchange,
            endpoint: &asm.token_endpoint,
            client,
            form: vec![
                ("grant_type", JWT_BEARER.to_owned()),
                ("assertion", assertion),
                ("resource", self.resource()),
            ],
            why: "The client presents a signed assertion as an RFC 7523 JWT-bearer grant: a token without a browser.".into(),
        };
        self.post_grant(grant, scopes);
    }

    /// Client credentials, authenticated by an ES256 JWT whose audience is the
    /// issuer (RFC 7523 §3).
    fn private_key_jwt(&mut self, asm: &AsMetadata, client: &Client, pem: &str, scopes: &[String]) {
        let (_, jti) = self.next_secrets();
        let iat = self.now.as_millis() / 1000;
        let claims = serde_json::json!({
            "iss": client.id, "sub": client.id, "aud": asm.issuer,
            "iat": iat, "exp": iat + 300, "jti": jti,
        });
        let assertion = match crate::jwt::es256(pem, &claims) {
            Ok(a) => a,
            Err(e) => {
                self.fail(e);
                return;
            }
        };
        self.client_credentials(asm, client, scopes, Some(assertion));
    }

    /// The IdP's answer: the ID-JAG goes to the AS.
    pub(crate) fn on_id_jag(&mut self, mut card: Card, a: &Answer<'_>) {
        let jag = a.json().filter(|_| a.ok()).and_then(|d| {
            d.get("access_token")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        let (Some(jag), Some(asm), Some(client)) =
            (jag, self.asm.clone(), self.client_for_current().cloned())
        else {
            card.finding(
                "auth-token-exchange-refused",
                Severity::Error,
                "HTTP 200 with an ID-JAG as access_token (RFC 8693 §2.2.1)",
                &format!("HTTP {}", a.status),
            );
            self.emit_card(card);
            self.fail(AuthError::TokenRefused {
                status: a.status,
                error: a
                    .json()
                    .and_then(|d| d.get("error").and_then(Value::as_str).map(str::to_owned)),
            });
            return;
        };
        self.emit_card(card);
        let scopes = self.scopes.clone();
        self.jwt_bearer(&asm, &client, jag, &scopes);
    }
}
