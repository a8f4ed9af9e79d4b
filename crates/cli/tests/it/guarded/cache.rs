//! The token cache as the tests see it: where `mcpg` keeps a URL's login, its
//! modes, and entries written by hand.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The cache file of `url` under `config` (the CLI's naming: a slug and the URL's
/// fingerprint).
pub fn cache_file(config: &Path, url: &str) -> PathBuf {
    let slug: String = url
        .split_once("://")
        .unwrap()
        .1
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(60)
        .collect();
    let hash = mcpg_recording::fingerprint(url);
    config.join("tokens").join(format!("{slug}-{hash}.json"))
}

pub fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

pub fn read(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

pub const CACHED: &str = "cached-access-token-0123456789";

/// A cache entry for `url` as the CLI writes it (expiry in Unix ms).
pub fn entry(url: &str, expires_at: u64) -> Value {
    json!({"url": url, "saved_at": 1, "tokens": {
        "access_token": CACHED, "token_type": "Bearer", "refresh_token": "refresh-secret-0123456789",
        "expires_at": expires_at, "scope": "mcp:tools", "issuer": "http://127.0.0.1:9",
        "token_endpoint": "http://127.0.0.1:9/token", "client_id": "client-1",
        "client_secret": null, "token_endpoint_auth_method": "none", "resource": url}})
}

pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}
