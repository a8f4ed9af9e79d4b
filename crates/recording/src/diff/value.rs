//! Differences between two JSON values, one [`FieldChange`] per place that
//! differs, named by its JSON pointer (RFC 6901).

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

/// Members that legitimately differ between runs and are never compared: `_meta`
/// (a server's per-answer metadata), `resultType` (2026-07-28's envelope tag) and
/// `lastModified` (MCP's one timestamp, in annotations). Ids sit in the JSON-RPC
/// envelope, which is never compared.
pub const VOLATILE: [&str; 3] = ["_meta", "resultType", "lastModified"];

/// One place where two values differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldChange {
    /// Where, as a JSON pointer from the compared value's root (`""` is the root).
    pub pointer: String,
    /// The value in A (absent: the member or element is not there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    /// The value in B (absent: the member or element is not there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

/// Every difference between `a` and `b`, in a deterministic order: object members
/// by sorted key, array elements by index. A member present on one side only, or a
/// value whose type changed, is one change carrying the whole values; objects and
/// arrays on both sides are descended into. Members in [`VOLATILE`] are skipped at
/// every depth.
pub fn value_changes(a: &Value, b: &Value) -> Vec<FieldChange> {
    let mut out = Vec::new();
    walk(&mut String::new(), a, b, &mut out);
    out
}

/// `segment` escaped for a JSON pointer: `~` as `~0`, `/` as `~1`.
pub fn pointer_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

fn walk(path: &mut String, a: &Value, b: &Value, out: &mut Vec<FieldChange>) {
    let at = path.len();
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            // Sorted and each once.
            let keys: BTreeSet<&String> = x
                .keys()
                .chain(y.keys())
                .filter(|k| !VOLATILE.contains(&k.as_str()))
                .collect();
            for k in keys {
                path.push('/');
                path.push_str(&pointer_segment(k));
                pair(path, x.get(k.as_str()), y.get(k.as_str()), out);
                path.truncate(at);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                path.push('/');
                path.push_str(&i.to_string());
                pair(path, x.get(i), y.get(i), out);
                path.truncate(at);
            }
        }
        _ if a == b => {}
        _ => out.push(FieldChange {
            pointer: path.clone(),
            before: Some(strip(a)),
            after: Some(strip(b)),
        }),
    }
}

fn pair(path: &mut String, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<FieldChange>) {
    match (a, b) {
        (Some(p), Some(q)) => walk(path, p, q, out),
        (p, q) => out.push(FieldChange {
            pointer: path.clone(),
            before: p.map(strip),
            after: q.map(strip),
        }),
    }
}

/// `v` without its [`VOLATILE`] members, at every depth: what a change reports is
/// what was compared.
pub fn strip(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !VOLATILE.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), strip(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
        v => v.clone(),
    }
}

/// `v` with every object's members in sorted order, printed compactly: two values
/// equal as JSON print the same (the workspace keeps members in insertion order).
pub fn canonical(v: &Value) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&m[k])))
                        .collect(),
                )
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            v => v.clone(),
        }
    }
    sorted(v).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_name_each_change_and_volatile_members_are_skipped() {
        let a = json!({"content": [{"type": "text", "text": "91F"}], "_meta": {"x": 1}});
        let b = json!({"content": [{"type": "text", "text": "90F"}], "_meta": {"x": 2}, "isError": true, "a/b": 1});
        let got = value_changes(&a, &b);
        let pointers: Vec<&str> = got.iter().map(|c| c.pointer.as_str()).collect();
        assert_eq!(pointers, ["/a~1b", "/content/0/text", "/isError"]);
        assert_eq!(got[1].before, Some(json!("91F")));
        assert_eq!(got[2].before, None);
        assert_eq!(got[2].after, Some(json!(true)));
        assert!(value_changes(&a, &a).is_empty());
    }

    #[test]
    fn a_type_change_is_one_change_and_canonical_ignores_member_order() {
        let got = value_changes(&json!({"x": [1]}), &json!({"x": {"_meta": 1, "y": 2}}));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].after, Some(json!({"y": 2})));
        assert_eq!(
            canonical(&json!({"b": 1, "a": [{"d": 1, "c": 2}]})),
            r#"{"a":[{"c":2,"d":1}],"b":1}"#
        );
        assert_eq!(
            canonical(&json!({"a": 1, "b": 2})),
            canonical(&json!({"b": 2, "a": 1}))
        );
    }
}
