//! DPoP (RFC 9449; MCP extension SEP-1932): a key the client proves it holds with
//! every token request and every request to the resource, binding the access token
//! to it. The key comes from the driver's entropy; signing needs the `jwt` feature
//! (without it the flow never asks for DPoP and stays with Bearer tokens).

use serde_json::{Value, json};

use crate::state::{Answer, Purpose};
use crate::{AuthFlow, AuthRequest};

/// A DPoP key pair (P-256, ES256). `Debug` shows only the public key.
#[derive(Clone)]
pub struct DpopKey {
    #[cfg(feature = "jwt")]
    key: p256::ecdsa::SigningKey,
    jwk: Value,
}

impl std::fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DpopKey").field("jwk", &self.jwk).finish()
    }
}

impl DpopKey {
    /// A key from 32 random bytes (`None` without the `jwt` feature, or in the
    /// negligible case the bytes are not a valid scalar).
    pub fn from_seed(seed: &[u8; 32]) -> Option<DpopKey> {
        #[cfg(feature = "jwt")]
        {
            use base64::Engine;
            use base64::engine::general_purpose::URL_SAFE_NO_PAD;
            let key = p256::ecdsa::SigningKey::from_slice(seed).ok()?;
            let point = key.verifying_key().to_encoded_point(false);
            let jwk = json!({
                "crv": "P-256", "kty": "EC",
                "x": URL_SAFE_NO_PAD.encode(point.x()?),
                "y": URL_SAFE_NO_PAD.encode(point.y()?),
            });
            Some(DpopKey { key, jwk })
        }
        #[cfg(not(feature = "jwt"))]
        {
            let _ = (seed, json!(null));
            None
        }
    }

    /// The public key as a JWK.
    pub fn jwk(&self) -> &Value {
        &self.jwk
    }

    /// A proof for one request (RFC 9449 §4.2): `htm`, `htu` (no query or
    /// fragment), `iat` in seconds, a unique `jti`, `ath` when presenting
    /// `access_token`, and the server's `nonce` when it gave one.
    pub fn proof(
        &self,
        method: &str,
        url: &str,
        iat_secs: u64,
        jti: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> String {
        let htu = url.split(['?', '#']).next().unwrap_or(url);
        let mut claims = json!({"jti": jti, "htm": method, "htu": htu, "iat": iat_secs});
        if let Some(t) = access_token {
            use base64::Engine;
            use sha2::Digest;
            let ath = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(sha2::Sha256::digest(t.as_bytes()));
            claims["ath"] = json!(ath);
        }
        if let Some(n) = nonce {
            claims["nonce"] = json!(n);
        }
        self.sign(&claims)
    }

    #[cfg(feature = "jwt")]
    fn sign(&self, claims: &Value) -> String {
        let header = json!({"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk});
        crate::jwt::sign_es256(&self.key, &header, claims)
    }

    #[cfg(not(feature = "jwt"))]
    fn sign(&self, _claims: &Value) -> String {
        String::new()
    }
}

impl AuthFlow {
    /// The DPoP key, once the AS advertised ES256 DPoP (drivers sign resource
    /// requests with it when the token type is `DPoP`).
    pub fn dpop_key(&self) -> Option<&DpopKey> {
        self.dpop.as_ref()
    }

    /// Makes the DPoP key when the current AS supports ES256 DPoP and the resource
    /// server takes DPoP tokens (its challenge used the `DPoP` scheme, or its
    /// metadata says so), once per flow: the token is bound to it. A DPoP-bound
    /// token is useless at a resource server that only knows `Bearer` (the Python
    /// SDK's, behind an oidc-provider that offers DPoP), so the AS alone does not
    /// decide.
    pub(crate) fn maybe_dpop(&mut self) {
        let as_offers = self
            .asm
            .as_ref()
            .is_some_and(|a| a.dpop_algs.iter().any(|x| x == "ES256"));
        let rs_takes = self.challenge.dpop || self.prm.as_ref().is_some_and(|p| p.dpop);
        let wants = as_offers && rs_takes;
        if wants && self.dpop.is_none() {
            self.dpop = DpopKey::from_seed(&self.derived(1));
        }
    }

    /// Adds a `DPoP` proof header to a token request, when there is a key.
    pub(crate) fn add_dpop_proof(&mut self, req: &mut AuthRequest) {
        self.maybe_dpop();
        let Some(key) = self.dpop.clone() else {
            return;
        };
        let (_, jti) = self.next_secrets();
        let proof = key.proof(
            req.method,
            &req.url,
            self.now.as_millis() / 1000,
            &jti,
            None,
            self.dpop_nonce.as_deref(),
        );
        req.headers.push(("DPoP".into(), proof));
    }

    /// A token endpoint's `use_dpop_nonce` (RFC 9449 §8): remember the nonce and
    /// say whether the request should go again (once per nonce).
    pub(crate) fn dpop_nonce_retry(&mut self, a: &Answer<'_>, purpose: &Purpose) -> bool {
        if self.dpop.is_none() || !matches!(purpose, Purpose::Token | Purpose::Refresh(_)) {
            return false;
        }
        let asked = a.status == 400
            && a.json()
                .and_then(|d| d.get("error").and_then(Value::as_str).map(str::to_owned))
                .is_some_and(|e| e == "use_dpop_nonce");
        let Some(nonce) = a.header("dpop-nonce").map(str::to_owned) else {
            return false;
        };
        if !asked || self.dpop_nonce.as_deref() == Some(nonce.as_str()) {
            return false;
        }
        self.dpop_nonce = Some(nonce);
        true
    }
}
