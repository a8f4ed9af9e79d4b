//! Opaque cursors shared by every `*/list` answer.

use serde_json::Value;

use crate::jsonrpc::{RpcError, code};
use crate::version::ProtocolVersion;

/// One page of a list: the item range to send and the cursor of the next page.
pub(super) struct Page {
    /// First item of the page.
    pub start: usize,
    /// One past the last item.
    pub end: usize,
    /// `nextCursor`, when items remain.
    pub next: Option<String>,
}

/// Reads `params.cursor` for a list of `len` items, `size` per page. A cursor the
/// server did not hand out (or one past the end, after the list shrank) is `-32602`,
/// as the spec's pagination section asks.
pub(super) fn page(params: Option<&Value>, len: usize, size: usize) -> Result<Page, RpcError> {
    let start = match params.and_then(|p| p.get("cursor")) {
        None | Some(Value::Null) => 0,
        Some(Value::String(c)) => c
            .strip_prefix("page-")
            .and_then(|n| n.parse().ok())
            .filter(|&n| n < len)
            .ok_or_else(|| RpcError::new(code::INVALID_PARAMS, format!("invalid cursor {c:?}")))?,
        Some(_) => {
            return Err(RpcError::new(
                code::INVALID_PARAMS,
                "cursor must be a string",
            ));
        }
    };
    let end = (start + size.max(1)).min(len);
    let next = (end < len).then(|| format!("page-{end}"));
    Ok(Page { start, end, next })
}

/// `{ key: items, nextCursor? }`.
pub(super) fn result(key: &str, items: Value, next: Option<String>) -> Value {
    let mut o = serde_json::Map::new();
    o.insert(key.into(), items);
    if let Some(c) = next {
        o.insert("nextCursor".into(), Value::from(c));
    }
    Value::Object(o)
}

/// `items` as a revision knows them: members introduced later (`title` in
/// 2025-06-18, `icons` in 2025-11-25, on the item and on a prompt's arguments)
/// are left out, so an older client sees no field its revision does not define.
pub(super) fn for_revision(items: &[Value], version: ProtocolVersion) -> Value {
    let mut drop: Vec<&str> = Vec::new();
    if version < ProtocolVersion::V2025_06_18 {
        drop.push("title");
    }
    if version < ProtocolVersion::V2025_11_25 {
        drop.push("icons");
    }
    if drop.is_empty() {
        return Value::from(items);
    }
    items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            if let Value::Object(o) = &mut item {
                o.retain(|k, _| !drop.contains(&k.as_str()));
                // A prompt's arguments got their `title` with the prompt's own.
                let args = o.get_mut("arguments").and_then(Value::as_array_mut);
                for a in args.into_iter().flatten() {
                    if let Value::Object(a) = a {
                        a.retain(|k, _| !drop.contains(&k.as_str()));
                    }
                }
            }
            item
        })
        .collect()
}

/// One page of a list of JSON items (resources, templates, prompts) under `key`,
/// as `version` knows them.
pub(super) fn list(
    items: &[Value],
    params: Option<&Value>,
    size: usize,
    version: ProtocolVersion,
    key: &str,
) -> Result<Value, RpcError> {
    let p = page(params, items.len(), size)?;
    let shown = for_revision(items.get(p.start..p.end).unwrap_or_default(), version);
    Ok(result(key, shown, p.next))
}
