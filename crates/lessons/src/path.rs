//! A field of a step's JSON, named the way the lessons name it: members by name,
//! array items as `[i]` (`result.isError`, `params._meta.progressToken`,
//! `[20].function.name`).

use serde_json::Value;

/// The value at `path` in `v`; `None` when any part is missing. An empty path is
/// `v` itself.
pub fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = v;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (name, rest) = part.split_once('[').unwrap_or((part, ""));
        if !name.is_empty() {
            cur = cur.get(name)?;
        }
        for idx in rest.split('[').filter(|s| !s.is_empty()) {
            let i: usize = idx.strip_suffix(']')?.parse().ok()?;
            cur = cur.get(i)?;
        }
    }
    Some(cur)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::at;
    use serde_json::json;

    #[test]
    fn members_items_and_misses() {
        let v = json!({"result": {"content": [{"text": "hi"}], "isError": true}});
        assert_eq!(at(&v, "result.isError"), Some(&json!(true)));
        assert_eq!(at(&v, "result.content[0].text"), Some(&json!("hi")));
        assert_eq!(at(&v, "result.content[1].text"), None);
        assert_eq!(at(&v, "error.code"), None);
        assert_eq!(at(&v, "result.content[x]"), None);
        assert_eq!(at(&json!([1, [2, 3]]), "[1][0]"), Some(&json!(2)));
        assert_eq!(at(&v, ""), Some(&v));
    }
}
