//! Sealing the 2026-07-28 `requestState` (SEP-2322): the client holds it between
//! the rounds of a multi-round-trip request and echoes it back, so what comes
//! back is client input, and a server that keeps anything in it that it would not
//! take straight off the wire must be able to tell it was not changed.
//!
//! A sealed state is `mcpgs1.ISSUED.TAG.PAYLOAD`: ISSUED the server's clock (ms)
//! when it was sealed, PAYLOAD the application's own text, unchanged, and TAG the
//! HMAC-SHA256 (hex) under the server's [`StateKey`] over ISSUED, PAYLOAD and a
//! digest of the request it answers (method, tool or prompt name or resource URI,
//! arguments). So an edited state, one minted for another call (another tool,
//! other arguments), or one older than [`STATE_LIFETIME`] does not open.
//!
//! (`mcpgs1`, "sealed", apart from the lessons demo's own unkeyed `mcpg1.` states.)
//!
//! Why a keyed tag, not state kept server-side under an unguessable id: the
//! 2026-07-28 generation is stateless so that any instance can answer any round;
//! a tag needs only the key (shared by the instances), no store to fill, bound
//! and expire, and nothing a client can exhaust by starting rounds it never ends.
//! The price: the payload is readable by the client (integrity, not secrecy), so
//! an application keeps no secret in it. The key comes from the I/O layer: the
//! core draws no random numbers.

use std::time::Duration;

#[cfg(feature = "sealed-state")]
use hmac::digest::KeyInit;
#[cfg(feature = "sealed-state")]
use hmac::{Hmac, Mac};
use serde_json::Value;
#[cfg(feature = "sealed-state")]
use sha2::{Digest, Sha256};

use crate::time::Timestamp;

/// How long a sealed state opens after it was sealed: a round waits on a person
/// (a form, a sampling approval), so minutes, not seconds.
pub const STATE_LIFETIME: Duration = Duration::from_secs(30 * 60);

#[cfg(feature = "sealed-state")]
/// The prefix naming this format (and its version).
const PREFIX: &str = "mcpgs1";

/// The server's secret for sealing `requestState`: 32 bytes the I/O layer draws
/// from the operating system's random source (or shares between instances).
#[derive(Clone)]
// Read only by the sealing, which the `sealed-state` feature brings.
#[cfg_attr(not(feature = "sealed-state"), allow(dead_code))]
pub struct StateKey([u8; 32]);

impl StateKey {
    /// A key from 32 secret bytes.
    pub fn new(bytes: [u8; 32]) -> Self {
        StateKey(bytes)
    }
}

impl std::fmt::Debug for StateKey {
    // Never print the secret (the server's Debug output reaches logs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateKey(..)")
    }
}

/// Why a state did not open: told to the application as a diagnostic, never to
/// the client, which gets one and the same `-32602` whatever the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// Not of the `mcpgs1.ISSUED.TAG.PAYLOAD` form.
    #[error("requestState is not a state this server seals")]
    Malformed,
    /// The tag does not match: edited, sealed under another key, or for another call.
    #[error("requestState fails its integrity check (edited, another server's, or another call's)")]
    Forged,
    /// Sealed longer ago than [`STATE_LIFETIME`] (or, impossibly, in the future).
    #[error("requestState has expired")]
    Expired,
}

#[cfg(feature = "sealed-state")]
type HmacSha256 = Hmac<Sha256>;

/// The key with the code that uses it, reached only through these pointers: a
/// host that never calls `Server::set_state_key` (the page) never names them, so
/// the hashing stays out of its download, as `RequestHandlers` keeps the
/// handlers out of its first load.
#[derive(Clone)]
pub(super) struct Sealer {
    pub(super) key: StateKey,
    /// [`binding`].
    pub(super) binding: fn(&str, Option<&Value>) -> [u8; 32],
    /// [`seal`].
    pub(super) seal: fn(&StateKey, Timestamp, &[u8; 32], &str) -> String,
    /// [`open`].
    pub(super) open: fn(&StateKey, Timestamp, &[u8; 32], &str) -> Result<String, StateError>,
}

#[cfg(feature = "sealed-state")]
impl Sealer {
    pub(super) fn new(key: StateKey) -> Sealer {
        Sealer {
            key,
            binding,
            seal,
            open,
        }
    }
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.key.fmt(f)
    }
}

#[cfg(feature = "sealed-state")]
/// The digest a state is bound to: the request's method, its target (tool or
/// prompt name, resource URI) and its arguments, in a canonical form (object keys
/// sorted: the client may re-serialize them in another order on the retry).
pub(super) fn binding(method: &str, params: Option<&Value>) -> [u8; 32] {
    let target_key = if method == "resources/read" {
        "uri"
    } else {
        "name"
    };
    let target = params
        .and_then(|p| p.get(target_key))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut h = Sha256::new();
    for part in [method, target] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part.as_bytes());
    }
    canonical(&mut h, params.and_then(|p| p.get("arguments")));
    h.finalize().into()
}

#[cfg(feature = "sealed-state")]
/// Feeds `v` to `h` unambiguously: a tag byte per kind, lengths before contents,
/// object members sorted by key.
fn canonical(h: &mut Sha256, v: Option<&Value>) {
    match v {
        None | Some(Value::Null) => h.update(b"n"),
        Some(Value::Bool(b)) => h.update(if *b { b"t" } else { b"f" }),
        Some(Value::Number(n)) => text(h, b'#', &n.to_string()),
        Some(Value::String(s)) => text(h, b'"', s),
        Some(Value::Array(items)) => {
            h.update(b"[");
            h.update((items.len() as u64).to_be_bytes());
            for item in items {
                canonical(h, Some(item));
            }
        }
        Some(Value::Object(o)) => {
            let mut members: Vec<(&String, &Value)> = o.iter().collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            h.update(b"{");
            h.update((members.len() as u64).to_be_bytes());
            for (k, item) in members {
                text(h, b'"', k);
                canonical(h, Some(item));
            }
        }
    }
}

#[cfg(feature = "sealed-state")]
fn text(h: &mut Sha256, tag: u8, s: &str) {
    h.update([tag]);
    h.update((s.len() as u64).to_be_bytes());
    h.update(s.as_bytes());
}

#[cfg(feature = "sealed-state")]
fn tag(key: &StateKey, bound: &[u8; 32], issued: u64, payload: &str) -> HmacSha256 {
    // HMAC pads a key shorter than the hash's 64-byte block with zeros: done
    // here, so the fixed-size constructor (which cannot fail) takes it.
    let mut block = [0u8; 64];
    block[..32].copy_from_slice(&key.0);
    let mut mac = <HmacSha256 as KeyInit>::new(&block.into());
    mac.update(PREFIX.as_bytes());
    mac.update(bound);
    mac.update(&issued.to_be_bytes());
    mac.update(payload.as_bytes());
    mac
}

#[cfg(feature = "sealed-state")]
/// Seals `payload` for the request whose [`binding`] is `bound`, at `now`.
pub(super) fn seal(key: &StateKey, now: Timestamp, bound: &[u8; 32], payload: &str) -> String {
    let issued = now.as_millis();
    let code = tag(key, bound, issued, payload).finalize().into_bytes();
    let mut hex = String::with_capacity(code.len() * 2);
    for b in code {
        hex.push(char::from(HEX[usize::from(b >> 4)]));
        hex.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    format!("{PREFIX}.{issued}.{hex}.{payload}")
}

#[cfg(feature = "sealed-state")]
const HEX: &[u8; 16] = b"0123456789abcdef";

#[cfg(feature = "sealed-state")]
/// Opens a state [`seal`] made for the request whose [`binding`] is `bound`:
/// the application's payload, if the tag matches and it has not expired.
pub(super) fn open(
    key: &StateKey,
    now: Timestamp,
    bound: &[u8; 32],
    state: &str,
) -> Result<String, StateError> {
    let mut parts = state.splitn(4, '.');
    let (Some(PREFIX), Some(issued), Some(hex), Some(payload)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(StateError::Malformed);
    };
    // Canonical digits only ("+5", "05" read as 5 too): one state, one spelling.
    let issued = match issued.parse::<u64>() {
        Ok(n) if n.to_string() == issued => n,
        _ => return Err(StateError::Malformed),
    };
    let code = unhex(hex).ok_or(StateError::Malformed)?;
    // Compared in constant time by the MAC itself.
    tag(key, bound, issued, payload)
        .verify_slice(&code)
        .map_err(|_| StateError::Forged)?;
    let sealed = Timestamp::from_millis(issued);
    if sealed > now || now.since(sealed) > STATE_LIFETIME {
        return Err(StateError::Expired);
    }
    Ok(payload.to_owned())
}

#[cfg(feature = "sealed-state")]
fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() != 64 {
        return None;
    }
    let digit = |c: u8| HEX.iter().position(|&h| h == c);
    s.as_bytes()
        .chunks(2)
        .map(|pair| match pair {
            [hi, lo] => Some((digit(*hi)? as u8) << 4 | digit(*lo)? as u8),
            _ => None,
        })
        .collect()
}

#[cfg(all(test, feature = "sealed-state"))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn key(b: u8) -> StateKey {
        StateKey::new([b; 32])
    }

    #[test]
    fn a_state_opens_for_its_own_call_and_key_only() {
        let p = json!({"name": "t", "arguments": {"a": 1, "b": [true, null]}});
        let bound = binding("tools/call", Some(&p));
        let at = Timestamp::from_millis(5_000);
        let s = seal(&key(1), at, &bound, "round.2");
        assert!(s.starts_with("mcpgs1.5000."));
        assert_eq!(open(&key(1), at, &bound, &s), Ok("round.2".into()));
        assert_eq!(open(&key(2), at, &bound, &s), Err(StateError::Forged));
        let other = json!({"name": "t", "arguments": {"a": 2, "b": [true, null]}});
        let other = binding("tools/call", Some(&other));
        assert_eq!(open(&key(1), at, &other, &s), Err(StateError::Forged));
        let tampered = format!("{s}-TAMPERED");
        assert_eq!(
            open(&key(1), at, &bound, &tampered),
            Err(StateError::Forged)
        );
        assert_eq!(
            open(&key(1), at, &bound, "opaque"),
            Err(StateError::Malformed)
        );
        let respelled = s.replacen("mcpgs1.5000.", "mcpgs1.+5000.", 1);
        assert_eq!(
            open(&key(1), at, &bound, &respelled),
            Err(StateError::Malformed)
        );
        let upper = s.replacen(&s[12..20], &s[12..20].to_uppercase(), 1);
        assert_ne!(upper, s);
        assert_eq!(
            open(&key(1), at, &bound, &upper),
            Err(StateError::Malformed)
        );
    }

    #[test]
    fn the_binding_ignores_member_order_only() {
        let a = json!({"name": "t", "arguments": {"a": 1, "b": {"x": 1, "y": 2}}});
        let b = json!({"arguments": {"b": {"y": 2, "x": 1}, "a": 1}, "name": "t"});
        assert_eq!(
            binding("tools/call", Some(&a)),
            binding("tools/call", Some(&b))
        );
        assert_ne!(
            binding("tools/call", Some(&a)),
            binding("prompts/get", Some(&a))
        );
        let s = json!({"name": "t", "arguments": {"a": "1"}});
        let n = json!({"name": "t", "arguments": {"a": 1}});
        assert_ne!(
            binding("tools/call", Some(&s)),
            binding("tools/call", Some(&n))
        );
    }

    #[test]
    fn a_state_expires_on_the_virtual_clock() {
        let bound = binding("tools/call", None);
        let at = Timestamp::from_millis(1_000);
        let s = seal(&key(3), at, &bound, "");
        let last = at.after(STATE_LIFETIME);
        assert_eq!(open(&key(3), last, &bound, &s), Ok(String::new()));
        let late = last.after(Duration::from_millis(1));
        assert_eq!(open(&key(3), late, &bound, &s), Err(StateError::Expired));
        let before = Timestamp::from_millis(999);
        assert_eq!(open(&key(3), before, &bound, &s), Err(StateError::Expired));
    }
}
