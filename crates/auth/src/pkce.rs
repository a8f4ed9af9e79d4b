//! PKCE S256 (RFC 7636 §4): the verifier and `state` come from the driver's entropy.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// The verifier (43 characters from 32 bytes, RFC 7636 §4.1) and its S256 challenge.
/// `Debug` hides the verifier.
#[derive(Clone)]
pub(crate) struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

impl std::fmt::Debug for Pkce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pkce { verifier: •••, .. }")
    }
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

/// 64 bytes for authorization run `run`: `SHA-256(entropy ‖ run ‖ 0) ‖
/// SHA-256(entropy ‖ run ‖ 1)`, so every run gets its own verifier and `state`
/// from the driver's one seed.
pub(crate) fn derive(entropy: &[u8; 64], run: u32) -> [u8; 64] {
    let mut out = [0u8; 64];
    for (half, chunk) in out.chunks_mut(32).enumerate() {
        let mut h = Sha256::new();
        h.update(entropy);
        h.update(run.to_be_bytes());
        h.update([half as u8]);
        chunk.copy_from_slice(&h.finalize());
    }
    out
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
            challenge_of("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        let p = Pkce::from_entropy(&[7u8; 32]);
        assert_eq!(p.verifier.len(), 43);
        assert_eq!(p.challenge, challenge_of(&p.verifier));
    }
}
