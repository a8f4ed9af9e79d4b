//! ES256 JWTs for `private_key_jwt` (RFC 7523 §2.2), behind the `jwt` feature so
//! the page's build carries no elliptic-curve code.

use serde_json::Value;

use crate::AuthError;

/// `claims` signed with the P-256 key in `pem` (PKCS#8): a compact JWS.
#[cfg(feature = "jwt")]
pub(crate) fn es256(pem: &str, claims: &Value) -> Result<String, AuthError> {
    use p256::ecdsa::SigningKey;
    use p256::pkcs8::DecodePrivateKey;

    let key = SigningKey::from_pkcs8_pem(pem).map_err(|e| AuthError::Malformed {
        what: format!("private key (PKCS#8 PEM, P-256): {e}"),
    })?;
    let header = serde_json::json!({"alg": "ES256", "typ": "JWT"});
    Ok(sign_es256(&key, &header, claims))
}

/// A compact JWS of `claims` under `header`, signed with `key`.
#[cfg(feature = "jwt")]
pub(crate) fn sign_es256(key: &p256::ecdsa::SigningKey, header: &Value, claims: &Value) -> String {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use p256::ecdsa::Signature;
    use p256::ecdsa::signature::Signer;

    let input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    // RFC 6979 deterministic signing: no randomness needed here.
    let sig: Signature = key.sign(input.as_bytes());
    format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
}

/// Without the `jwt` feature: refused.
#[cfg(not(feature = "jwt"))]
pub(crate) fn es256(_pem: &str, _claims: &Value) -> Result<String, AuthError> {
    Err(AuthError::Unsupported(
        "private_key_jwt signing (build mcpg-auth with the `jwt` feature)",
    ))
}

// Signing exists only with the `jwt` feature.
#[cfg(test)]
#[cfg(feature = "jwt")]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier;
    use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
    use p256::pkcs8::{EncodePrivateKey, LineEnding};

    #[test]
    fn signs_a_verifiable_compact_jws() {
        let key = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let pem = key.to_pkcs8_pem(LineEnding::LF).unwrap();
        let jwt = es256(&pem, &serde_json::json!({"iss": "c"})).unwrap();
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        use base64::Engine;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let sig = Signature::from_slice(&b64.decode(parts[2]).unwrap()).unwrap();
        let input = format!("{}.{}", parts[0], parts[1]);
        assert!(
            VerifyingKey::from(&key)
                .verify(input.as_bytes(), &sig)
                .is_ok()
        );
        assert!(es256("not a key", &serde_json::json!({})).is_err());
    }
}
