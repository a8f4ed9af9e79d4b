//! Differences between two JSON values, as paths a person can read.

use serde_json::Value;

/// Keys that legitimately differ between runs and are not compared.
const VOLATILE: [&str; 2] = ["_meta", "resultType"];

/// Up to `limit` differences between `recorded` and `live`, as `path: recorded → live`.
pub fn diff(recorded: &Value, live: &Value, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    walk("$", recorded, live, &mut out, limit);
    out
}

fn short(v: Option<&Value>) -> String {
    let Some(v) = v else { return "(absent)".into() };
    let s = v.to_string();
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

fn walk(path: &str, a: &Value, b: &Value, out: &mut Vec<String>, limit: usize) {
    if out.len() >= limit {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x
                .keys()
                .chain(y.keys())
                .filter(|k| !VOLATILE.contains(&k.as_str()))
                .collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => walk(&format!("{path}.{k}"), p, q, out, limit),
                    (p, q) => out.push(format!("{path}.{k}: {} → {}", short(p), short(q))),
                }
                if out.len() >= limit {
                    return;
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                match (x.get(i), y.get(i)) {
                    (Some(p), Some(q)) => walk(&format!("{path}[{i}]"), p, q, out, limit),
                    (p, q) => out.push(format!("{path}[{i}]: {} → {}", short(p), short(q))),
                }
                if out.len() >= limit {
                    return;
                }
            }
        }
        _ if a == b => {}
        _ => out.push(format!("{path}: {} → {}", short(Some(a)), short(Some(b)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_name_the_change() {
        let a =
            json!({"content": [{"type": "text", "text": "Austin: 91F, sunny"}], "_meta": {"x": 1}});
        let b = json!({"content": [{"type": "text", "text": "Austin: 90F, sunny"}], "_meta": {"x": 2}, "isError": true});
        assert_eq!(
            diff(&a, &b, 10),
            vec![
                "$.content[0].text: \"Austin: 91F, sunny\" → \"Austin: 90F, sunny\"",
                "$.isError: (absent) → true"
            ]
        );
        assert!(diff(&a, &a, 10).is_empty());
    }
}
