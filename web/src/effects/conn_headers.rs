//! Headers per Streamable HTTP connection (issue 15): the rows the learner adds and
//! the bearer token an OAuth sign-in obtained, kept like the LLM API keys.
//!
//! They live here, in the shell, and are added to each request by the shell's HTTP
//! executor (`http.rs`) as it runs it: the driver never sees them, so no output, wire
//! row, recording, share link or export can carry them (the same absence as
//! `mcpg_page`'s "the key never enters the driver"). Memory by default; the rows are
//! written to sessionStorage or localStorage only when the learner asks
//! (`persist`), and only the storage functions' callers in the headers' chunk
//! reach them.

use std::cell::RefCell;
use std::collections::HashMap;

use mcpg_core::client::is_transport_header;
use mcpg_page::HttpTarget;

use super::llm::storage;

use crate::model_state::KeyKeep;

/// The header a relayed remote's `Authorization` travels in: the bridge's own token
/// is in the query, and the bridge forwards this one to the remote as
/// `Authorization` (issue 15).
pub const RELAY_AUTHORIZATION: &str = "Mcpg-Remote-Authorization";

/// One header row, as the learner typed it.
pub type Row = (String, String);

thread_local! {
    static ROWS: RefCell<HashMap<String, Vec<Row>>> = RefCell::new(HashMap::new());
    static BEARERS: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

/// The key a connection's headers are kept under: the URL itself, or the relay's
/// remote name.
pub fn key_of(target: &HttpTarget) -> String {
    match target {
        HttpTarget::Url(u) => format!("url:{u}"),
        HttpTarget::Relay(n) => format!("relay:{n}"),
    }
}

/// The rows kept for `key`.
pub fn rows(key: &str) -> Vec<Row> {
    ROWS.with(|r| r.borrow().get(key).cloned().unwrap_or_default())
}

/// Replaces the rows kept for `key`.
pub fn set_rows(key: &str, rows: Vec<Row>) {
    ROWS.with(|r| {
        let mut r = r.borrow_mut();
        if rows.is_empty() {
            r.remove(key);
        } else {
            r.insert(key.to_owned(), rows);
        }
    });
}

/// Sets (or forgets) the bearer token OAuth obtained for `key`: it replaces an
/// `Authorization` row from then on.
pub fn set_bearer(key: &str, token: Option<String>) {
    BEARERS.with(|b| match token {
        Some(t) => b.borrow_mut().insert(key.to_owned(), t),
        None => b.borrow_mut().remove(key),
    });
}

/// Why a row cannot be sent, in words (`None`: it can). The machine's own headers
/// are refused: the protocol decides them, not the learner.
pub fn problem(name: &str, value: &str) -> Option<&'static str> {
    let lower = name.trim().to_ascii_lowercase();
    if lower.is_empty() {
        Some("a header needs a name")
    } else if !lower
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
    {
        Some("a header name is letters, digits and - only")
    } else if is_transport_header(&lower) || lower == "content-length" {
        Some("the protocol sets this header itself")
    } else if lower.starts_with("mcpg-") {
        Some("Mcpg- headers are the bridge's own")
    } else if value.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
        Some("a header value cannot hold a line break")
    } else {
        None
    }
}

/// What the executor adds to each request of the connection kept under `key`:
/// the rows that can be sent, with OAuth's token as `Authorization` over a typed
/// one; for a relay, `Authorization` renamed [`RELAY_AUTHORIZATION`] and no other
/// row (the bridge forwards only that; a remote's other headers belong in its
/// `[[remote]]` config).
pub fn extra(key: &str, relay: bool) -> Vec<Row> {
    let bearer = BEARERS.with(|b| b.borrow().get(key).cloned());
    let mut out: Vec<Row> = rows(key)
        .into_iter()
        .filter(|(n, v)| problem(n, v).is_none())
        .filter(|(n, _)| !(bearer.is_some() && n.trim().eq_ignore_ascii_case("authorization")))
        .map(|(n, v)| (n.trim().to_owned(), v))
        .collect();
    if let Some(t) = bearer {
        out.push(("Authorization".to_owned(), format!("Bearer {t}")));
    }
    if relay {
        out.retain(|(n, _)| n.eq_ignore_ascii_case("authorization"));
        for (n, _) in &mut out {
            *n = RELAY_AUTHORIZATION.to_owned();
        }
    }
    out
}

const STORAGE_KEY: &str = "mcpg-conn-headers";

/// Writes every connection's rows where `keep` says, and removes them from the other
/// storage (memory only: from both).
pub fn persist(keep: KeyKeep) {
    let all = ROWS.with(|r| serde_json::to_string(&*r.borrow()).unwrap_or_default());
    for other in [KeyKeep::Tab, KeyKeep::Browser] {
        let Some(s) = storage(other) else { continue };
        // Storage can refuse (quota, privacy mode); the rows still work from memory.
        let _ = if other == keep && all != "{}" {
            s.set_item(STORAGE_KEY, &all)
        } else {
            s.remove_item(STORAGE_KEY)
        };
    }
}

/// Reads rows kept by an earlier visit (this tab first, then this browser) into
/// memory, and says where they were kept.
pub fn load() -> KeyKeep {
    for keep in [KeyKeep::Tab, KeyKeep::Browser] {
        let Some(text) = storage(keep).and_then(|s| s.get_item(STORAGE_KEY).ok().flatten()) else {
            continue;
        };
        if let Ok(found) = serde_json::from_str::<HashMap<String, Vec<Row>>>(&text) {
            ROWS.with(|r| {
                let mut r = r.borrow_mut();
                for (k, v) in found {
                    r.entry(k).or_insert(v);
                }
            });
            return keep;
        }
    }
    KeyKeep::Nowhere
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_the_protocol_owns_or_cannot_carry_are_refused() {
        assert_eq!(problem("X-Api-Key", "abc"), None);
        assert!(problem("Mcp-Session-Id", "x").is_some());
        assert!(problem("mcp-param-city", "x").is_some());
        assert!(problem("Mcpg-Remote-Authorization", "x").is_some());
        assert!(problem("Bad Name", "x").is_some());
        assert!(problem("X-Ok", "a\r\nInjected: 1").is_some());
        assert!(problem(" ", "x").is_some());
    }

    #[test]
    fn the_oauth_token_replaces_a_typed_authorization_and_a_relay_renames_it() {
        let key = key_of(&HttpTarget::Url("http://h/mcp".into()));
        set_rows(
            &key,
            vec![
                ("Authorization".into(), "Bearer typed".into()),
                ("X-Team".into(), "blue".into()),
                ("Accept".into(), "nope".into()),
            ],
        );
        assert_eq!(
            extra(&key, false),
            vec![
                ("Authorization".to_owned(), "Bearer typed".to_owned()),
                ("X-Team".to_owned(), "blue".to_owned())
            ]
        );
        set_bearer(&key, Some("oauth".into()));
        assert_eq!(
            extra(&key, false),
            vec![
                ("X-Team".to_owned(), "blue".to_owned()),
                ("Authorization".to_owned(), "Bearer oauth".to_owned())
            ]
        );
        assert_eq!(
            extra(&key, true),
            vec![(RELAY_AUTHORIZATION.to_owned(), "Bearer oauth".to_owned())]
        );
        set_bearer(&key, None);
        set_rows(&key, Vec::new());
        assert!(extra(&key, false).is_empty());
    }
}
