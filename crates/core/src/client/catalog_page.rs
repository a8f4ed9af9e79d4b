//! Reading one page of `resources/list`, `resources/templates/list` or
//! `prompts/list`, without the session: a pure function from the result JSON and
//! the names seen so far to the typed items and their diagnostics (`catalog.rs`
//! applies it; the cursor rules are `list_page.rs`'s, shared with tools).

use std::collections::HashSet;

use serde_json::Value;

use super::answers::{ListItems, ListKind};
use super::list_page::{PageContext, read_cursor};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::model::{Prompt, Resource, ResourceTemplate};
use crate::validate::{self, truncate};
use crate::version::ProtocolVersion;

/// One page, read.
#[derive(Debug)]
pub(super) struct CatalogPage {
    /// The readable items, in the server's order (duplicates included).
    pub items: ListItems,
    /// Their keys (URI, template or name), first occurrence only.
    pub keys: HashSet<String>,
    /// Where the next page starts; `None` ends the listing.
    pub next_cursor: Option<String>,
    /// Everything worth saying about the page.
    pub diags: Vec<Diagnostic>,
}

/// How one kind of item is read, keyed and checked.
struct Reader<T> {
    read: fn(&Value) -> Result<T, crate::model::ModelError>,
    key: fn(&T) -> &str,
    check: fn(&T, ProtocolVersion, &mut Vec<Diagnostic>),
    /// The rule for an item that cannot be read.
    shape: Rule,
}

/// Reads a page of `kind`. `Err` is the diagnostic for a result that is not an
/// object at all, which fails the listing.
pub(super) fn read_catalog_page(
    kind: ListKind,
    result: &Value,
    cx: &PageContext<'_>,
) -> Result<CatalogPage, Diagnostic> {
    let Some(obj) = result.as_object() else {
        let d = Diagnostic::new(
            Rule::ResultShape,
            Severity::Error,
            format!("{} result is not an object", kind.method()),
        );
        return Err(d.with_raw(cx.raw.clone()));
    };
    let mut diags = Vec::new();
    let mut keys = HashSet::new();
    let raw_items: &[Value] = match obj.get(kind.member()) {
        Some(Value::Array(a)) => a,
        other => {
            let what = format!("{} result's {:?}", kind.method(), kind.member());
            let mut d = validate::wrong_member(Rule::ResultShape, &what, other);
            d.message.push_str(", not an array");
            diags.push(d);
            &[]
        }
    };
    let mut out = Out {
        kind,
        cx,
        keys: &mut keys,
        diags: &mut diags,
    };
    let items = match kind {
        ListKind::Resources => ListItems::Resources(out.read(raw_items, &RESOURCES)),
        ListKind::Templates => ListItems::Templates(out.read(raw_items, &TEMPLATES)),
        ListKind::Prompts => ListItems::Prompts(out.read(raw_items, &PROMPTS)),
    };
    for d in &mut diags {
        d.raw = Some(cx.raw.clone());
    }
    let next_cursor = read_cursor(obj, &mut diags);
    Ok(CatalogPage {
        items,
        keys,
        next_cursor,
        diags,
    })
}

const RESOURCES: Reader<Resource> = Reader {
    read: Resource::from_json,
    key: |r| &r.uri,
    check: validate::check_resource,
    shape: Rule::ResourceShape,
};

const TEMPLATES: Reader<ResourceTemplate> = Reader {
    read: ResourceTemplate::from_json,
    key: |t| &t.uri_template,
    check: validate::check_template,
    shape: Rule::ResourceShape,
};

const PROMPTS: Reader<Prompt> = Reader {
    read: Prompt::from_json,
    key: |p| &p.name,
    check: validate::check_prompt,
    shape: Rule::PromptShape,
};

struct Out<'a, 'c> {
    kind: ListKind,
    cx: &'a PageContext<'c>,
    keys: &'a mut HashSet<String>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Out<'_, '_> {
    fn read<T>(&mut self, raw: &[Value], r: &Reader<T>) -> Vec<T> {
        let member = self.kind.member();
        let mut items = Vec::with_capacity(raw.len());
        for (i, v) in raw.iter().enumerate() {
            let item = match (r.read)(v) {
                Ok(item) => item,
                Err(e) => {
                    self.diags.push(Diagnostic::new(
                        r.shape,
                        Severity::Error,
                        format!(
                            "{member}[{i}] on page {} could not be read and was skipped: {e}",
                            self.cx.page
                        ),
                    ));
                    continue;
                }
            };
            (r.check)(&item, self.cx.version, self.diags);
            let key = (r.key)(&item);
            if self.cx.seen.contains(key) || !self.keys.insert(key.to_owned()) {
                self.diags.push(Diagnostic::new(
                    Rule::DuplicateEntry,
                    Severity::Warning,
                    format!(
                        "{member}: {:?} appears more than once in this listing",
                        truncate(key, 80)
                    ),
                ));
            }
            items.push(item);
        }
        items
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;

    fn read(kind: ListKind, v: Value, seen: &HashSet<String>) -> CatalogPage {
        let cx = PageContext {
            version: ProtocolVersion::V2025_06_18,
            page: 2,
            seen,
            raw: Arc::from("raw"),
        };
        read_catalog_page(kind, &v, &cx).unwrap()
    }

    fn rules(p: &CatalogPage) -> Vec<Rule> {
        p.diags.iter().map(|d| d.rule).collect()
    }

    #[test]
    fn odd_items_are_skipped_and_duplicates_found_across_pages() {
        let seen: HashSet<String> = ["a://1".to_owned()].into();
        let p = read(
            ListKind::Resources,
            json!({"resources": [
                {"uri": "a://1", "name": "one"},
                {"name": "no uri"},
                {"uri": "a://2", "name": "two"},
                {"uri": "a://2", "name": "again"}
            ], "nextCursor": "n"}),
            &seen,
        );
        assert_eq!(p.items.len(), 3);
        assert_eq!(
            rules(&p),
            [
                Rule::DuplicateEntry,
                Rule::ResourceShape,
                Rule::DuplicateEntry
            ]
        );
        assert!(p.diags[1].message.starts_with("resources[1] on page 2"));
        assert_eq!(p.diags[0].raw.as_deref(), Some("raw"));
        assert_eq!(p.next_cursor.as_deref(), Some("n"));
    }

    #[test]
    fn templates_and_prompts_are_checked() {
        let seen = HashSet::new();
        let p = read(
            ListKind::Templates,
            json!({"resourceTemplates": [{"uriTemplate": "w://{city", "name": "w", "icons": []}]}),
            &seen,
        );
        assert_eq!(rules(&p), [Rule::UriTemplate, Rule::FieldNotInVersion]);
        let p = read(ListKind::Prompts, json!({"prompts": [{"name": 3}]}), &seen);
        assert_eq!(rules(&p), [Rule::PromptShape]);
        let p = read(ListKind::Prompts, json!({"tools": []}), &seen);
        assert_eq!(rules(&p), [Rule::ResultShape]);
        assert!(
            p.diags[0].message.contains("\"prompts\" is missing"),
            "{}",
            p.diags[0].message
        );
    }
}
