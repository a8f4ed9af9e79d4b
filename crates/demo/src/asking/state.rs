//! The demo's 2026-07-28 `requestState`: readable, and tamper-evident without a
//! secret key. It is `mcpg1.TOOL.KEY.DIGEST`, where DIGEST is FNV-1a (64 bits, hex)
//! over the tool, the input key and the call's arguments as JSON text. On the retry
//! the server recomputes it from the retry's own name and arguments: a state that
//! was edited, or that belongs to another call, does not match.
//!
//! This is a demo: anyone can compute FNV, so it detects accidents and casual edits,
//! not an attacker. A real server would sign (HMAC) or encrypt the state, because
//! the client holds it between the rounds.

use mcpg_core::model::JsonObject;

/// The `requestState` for a call of `tool` with `args`, asking `key`.
pub fn encode(tool: &str, key: &str, args: &JsonObject) -> String {
    format!("mcpg1.{tool}.{key}.{:016x}", digest(tool, key, args))
}

/// Whether `state` is exactly what [`encode`] gives for this call.
pub fn verify(state: &str, tool: &str, key: &str, args: &JsonObject) -> bool {
    state == encode(tool, key, args)
}

fn digest(tool: &str, key: &str, args: &JsonObject) -> u64 {
    let args = serde_json::Value::Object(args.clone()).to_string();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [tool, "\n", key, "\n", &args] {
        for b in part.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn args(v: serde_json::Value) -> JsonObject {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_state_verifies_for_its_own_call_only() {
        let a = args(json!({"topic": "errors"}));
        let s = encode("reserve_table", "booking", &a);
        assert!(s.starts_with("mcpg1.reserve_table.booking."));
        assert!(verify(&s, "reserve_table", "booking", &a));
        assert!(!verify(&s, "summarize_note", "booking", &a));
        assert!(!verify(
            &s,
            "reserve_table",
            "booking",
            &args(json!({"topic": "progress"}))
        ));
        let mut edited = s.clone();
        edited.pop();
        edited.push(if s.ends_with('0') { '1' } else { '0' });
        assert!(!verify(&edited, "reserve_table", "booking", &a));
    }
}
