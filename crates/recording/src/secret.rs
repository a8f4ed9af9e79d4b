//! What counts as a secret in a session's settings: never accepted, never kept.

/// Setting names that may hold secrets; they are never accepted in a session.
pub const SECRET_KEYS: [&str; 8] = [
    "api_key",
    "apikey",
    "key",
    "token",
    "authorization",
    "password",
    "secret",
    "bearer",
];

/// Whether a setting named `k` may hold a secret (one of [`SECRET_KEYS`], in any
/// case and with or without `-`/`_`, or a name ending in api key, token or secret).
pub(crate) fn is_secret_key(k: &str) -> bool {
    let k = k.to_ascii_lowercase().replace(['-', '_'], "");
    SECRET_KEYS.iter().any(|s| {
        k == s.replace('_', "")
            || k.ends_with("apikey")
            || k.ends_with("token")
            || k.ends_with("secret")
    })
}
