//! Human-readable output of resources, templates, prompts, reads, prompt
//! messages and completions. Everything a server sent is escaped (`crate::escape`).

use std::fmt::Write as _;

use mcpg_core::model::{
    CompleteResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate,
};
use mcpg_transport::Listing;

use crate::escape;
use crate::render::{self, item_line, listing};

/// `<uri> name (title) [mime]: description`.
pub fn resources(list: &Listing<Resource>) -> String {
    listing(list, "resource", |r| {
        let (title, mime) = (r.title.as_deref(), r.mime_type.as_deref());
        located(&r.uri, &r.name, title, mime, r.description.as_deref())
    })
}

/// `<uriTemplate> name (title) [mime]: description`.
pub fn templates(list: &Listing<ResourceTemplate>) -> String {
    listing(list, "template", |t| {
        let (title, mime) = (t.title.as_deref(), t.mime_type.as_deref());
        located(
            &t.uri_template,
            &t.name,
            title,
            mime,
            t.description.as_deref(),
        )
    })
}

/// One resource or template line.
fn located(
    uri: &str,
    name: &str,
    title: Option<&str>,
    mime: Option<&str>,
    description: Option<&str>,
) -> String {
    let mut line = format!("<{}> {}", escape::line(uri), item_line(name, title, None));
    if let Some(m) = mime {
        let _ = write!(line, " [{}]", escape::line(m));
    }
    if let Some(d) = render::first_line(description) {
        let _ = write!(line, ": {}", escape::line(&render::cut(d, 120)));
    }
    line
}

/// `name (title): description`, then `  arguments: a (required), b`.
pub fn prompts(list: &Listing<Prompt>) -> String {
    listing(list, "prompt", |p| {
        let mut line = item_line(&p.name, p.title.as_deref(), p.description.as_deref());
        let args: Vec<String> = p
            .arguments
            .iter()
            .flatten()
            .map(|a| {
                let name = escape::line(&a.name);
                if a.required == Some(true) {
                    format!("{name} (required)")
                } else {
                    name
                }
            })
            .collect();
        if !args.is_empty() {
            let _ = write!(line, "\n  arguments: {}", args.join(", "));
        }
        line
    })
}

/// A read: one text item is printed as it is; several get a header each; binary
/// items are summarized as type and size.
pub fn read(r: &ReadResourceResult) -> String {
    let mut out = String::new();
    let headers = r.contents.len() > 1;
    for c in &r.contents {
        render::resource_contents(&mut out, c, headers);
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// A view (MCP Apps): its URI, type and size, what it declares it loads, and the
/// policy a host applies.
pub fn view(v: &mcpg_apps::UiResource) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "[view <{}> {}, {} bytes of HTML (--json prints it)]",
        escape::line(&v.uri),
        mcpg_apps::MIME,
        v.html.len()
    );
    let declared: Vec<String> = [
        ("connectDomains", &v.csp.connect),
        ("resourceDomains", &v.csp.resources),
        ("frameDomains", &v.csp.frames),
        ("baseUriDomains", &v.csp.base_uris),
    ]
    .iter()
    .filter(|(_, list)| !list.is_empty())
    .map(|(k, list)| format!("{k} {}", list.join(" ")))
    .collect();
    let _ = writeln!(
        out,
        "CSP declared: {}",
        if declared.is_empty() {
            "nothing (the restrictive default)".to_owned()
        } else {
            escape::line(&declared.join("; "))
        }
    );
    for why in &v.csp.refused {
        let _ = writeln!(out, "CSP source left out: {}", escape::line(why));
    }
    let _ = writeln!(out, "policy applied: {}", v.csp.policy());
    if let Some(b) = v.prefers_border {
        let _ = writeln!(out, "prefers a border: {b}");
    }
    if !v.permissions.is_empty() {
        let _ = writeln!(out, "asks for: {}", escape::line(&v.permissions.join(", ")));
    }
    out
}

/// The description, then each message under its role.
pub fn prompt(r: &GetPromptResult) -> String {
    let mut out = String::new();
    if let Some(d) = &r.description {
        let _ = writeln!(out, "description: {}", escape::line(d));
    }
    for m in &r.messages {
        let _ = writeln!(out, "[{}]", escape::line(m.role.as_str()));
        render::content_block(&mut out, &m.content);
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// One value per line; a last line when the server has more than it sent.
pub fn completion(r: &CompleteResult) -> String {
    let mut out = String::new();
    for v in &r.values {
        let _ = writeln!(out, "{}", escape::line(v));
    }
    let shown = r.values.len() as u64;
    match (r.total, r.has_more) {
        (Some(total), _) if total > shown => {
            let _ = writeln!(out, "({shown} of {total} values)");
        }
        (_, Some(true)) => {
            let shown = render::plural(r.values.len(), "value");
            let _ = writeln!(out, "({shown} shown; the server has more)");
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use mcpg_core::model::LogMessage;
    use serde_json::json;

    use super::*;

    #[test]
    fn several_contents_get_a_header_each() {
        let r = ReadResourceResult::from_value(json!({"contents": [
            {"uri": "a://1", "mimeType": "text/plain", "text": "one"},
            {"uri": "a://2", "blob": "AAAA"},
        ]}))
        .unwrap();
        assert_eq!(
            read(&r),
            "[resource <a://1> text/plain]\none\n[resource <a://2>, 3 bytes]\n"
        );
    }

    #[test]
    fn completions_say_when_the_server_has_more() {
        let all = |v: serde_json::Value| CompleteResult::from_value(json!({"completion": v}));
        let r = all(json!({"values": ["a", "b"], "total": 5, "hasMore": true})).unwrap();
        assert_eq!(completion(&r), "a\nb\n(2 of 5 values)\n");
        let r = all(json!({"values": ["a"], "hasMore": true})).unwrap();
        assert_eq!(completion(&r), "a\n(1 value shown; the server has more)\n");
        let r = all(json!({"values": ["a"], "total": 1, "hasMore": false})).unwrap();
        assert_eq!(completion(&r), "a\n");
        // Log lines: data that is not a string is compact JSON, on one line.
        let m = LogMessage::from_value(json!({"level": "error", "data": {"a": [1, "x\ny"]}}));
        assert_eq!(
            crate::logs::line(&m.unwrap()),
            r#"log error: {"a":[1,"x\ny"]}"#
        );
    }
}
