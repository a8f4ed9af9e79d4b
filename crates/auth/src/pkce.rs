//! PKCE S256 (RFC 7636 §4): the verifier and `state` come from the driver's entropy.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// The verifier (43 characters from 32 bytes, RFC 7636 §4.1) and its S256 challenge.
#[derive(Clone)]
pub(crate) struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

impl Pkce {
    pub fn from_entropy(bytes: &[u8]) -> Self {
        let verifier = URL_SAFE_NO_PAD.encode(bytes);
        Pkce {
            challenge: challenge_of(&verifier),
            verifier,
        }
    }
}

/// `BASE64URL(SHA256(ASCII(verifier)))`.
pub(crate) fn challenge_of(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// A `state` value from 16 bytes of entropy.
pub(crate) fn state_from(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7636_appendix_b_vector() {
        assert_eq!(
            challenge_of("dBjftJeZ4CVP-1mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        let p = Pkce::from_entropy(&[7u8; 32]);
        assert_eq!(p.verifier.len(), 43);
        assert_eq!(p.challenge, challenge_of(&p.verifier));
    }
}
