//! A field of a step's JSON, named the way the lessons name it: members by name,
//! array items as `[i]` (`result.isError`, `params._meta.progressToken`,
//! `[20].function.name`).

use serde_json::Value;

/// The value at `path` in `v`; `None` when any part is missing. An empty path is
/// `v` itself. A member whose name holds a dot is written `["name"]`
/// (`params._meta["io.modelcontextprotocol/logLevel"]`).
pub fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = v;
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("[\"") {
            let (name, after) = r.split_once("\"]")?;
            cur = cur.get(name)?;
            rest = after;
        } else if let Some(r) = rest.strip_prefix('[') {
            let (index, after) = r.split_once(']')?;
            cur = cur.get(index.parse::<usize>().ok()?)?;
            rest = after;
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            let (name, after) = rest.split_at(end);
            cur = cur.get(name)?;
            rest = after;
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
        let m = json!({"params": {"_meta": {"io.x/logLevel": "warning"}}});
        assert_eq!(
            at(&m, "params._meta[\"io.x/logLevel\"]"),
            Some(&json!("warning"))
        );
        assert_eq!(at(&m, "params._meta.io"), None);
        assert_eq!(at(&m, "params._meta[\"io.x"), None);
    }
}
