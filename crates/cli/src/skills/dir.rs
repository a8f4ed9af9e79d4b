//! `mcpg skills dir URI`: the Skills extension's optional `resources/directory/read`,
//! sent only to a server whose extension settings say `directoryRead: true` (the
//! extension forbids it otherwise). Every page is followed; each child is checked
//! by `mcpg-skills` against the directory read (one segment below it, no `..`),
//! printed escaped, and a child that fails is named on stderr and skipped.

use std::collections::HashSet;
use std::fmt::Write as _;

use mcpg_core::client::Negotiated;
use mcpg_skills::{Child, ChildError, DirectoryPage, EXTENSION};
use mcpg_transport::Driver;
use serde_json::{Value, json};

use super::MAX_PAGES;
use super::error::SkillsError;
use crate::args::Connection;
use crate::commands::with_server;
use crate::escape;
use crate::exit::{self, Failure};
use crate::render::{count_line, cut, page_header};

/// Every page of one directory read.
struct AllChildren {
    /// Each page's children: checked, or why not used.
    pages: Vec<Vec<Result<Child, ChildError>>>,
    /// Why the reading stopped before the server's last page, if it did.
    stopped: Option<String>,
}

/// Fails unless the server declared the extension with `directoryRead: true`.
fn require_directory_read(n: &Negotiated) -> Result<(), SkillsError> {
    let settings = n
        .capabilities
        .get("extensions")
        .and_then(|e| e.get(EXTENSION));
    match settings {
        Some(s) if s.is_object() => {
            if s.get("directoryRead") == Some(&Value::Bool(true)) {
                Ok(())
            } else {
                Err(SkillsError::NoDirectoryRead)
            }
        }
        _ => Err(SkillsError::NotDeclared { version: n.version }),
    }
}

/// `mcpg skills dir URI`: every page; each refused child is named on stderr and
/// skipped, and then (or when the reading stopped early) the exit status is 1.
pub(super) async fn dir(conn: &Connection, uri: &str) -> Result<(), Failure> {
    // Directory URIs are written without a trailing slash; accept one typed.
    let uri = uri.strip_suffix('/').unwrap_or(uri);
    let mut refused = 0usize;
    let mut stopped = false;
    with_server(conn, async |d: &Driver| {
        let n = d.connect().await?;
        require_directory_read(&n)?;
        let all = read_all(d, uri).await?;
        for page in &all.pages {
            for why in page.iter().filter_map(|c| c.as_ref().err()) {
                refused += 1;
                eprintln!("skipped: {}", escape::line(&why.to_string()));
            }
        }
        if let Some(why) = &all.stopped {
            stopped = true;
            eprintln!("{}", escape::line(why));
        }
        print!("{}", as_text(&all));
        Ok(())
    })
    .await?;
    let mut found = Vec::new();
    match refused {
        0 => {}
        1 => found.push("a child (above) was refused".to_owned()),
        n => found.push(format!("{n} children (above) were refused")),
    }
    if stopped {
        found.push("the directory read stopped before its end (above)".to_owned());
    }
    if found.is_empty() {
        Ok(())
    } else {
        Err(Failure::new(exit::PROBLEM, found.join("; ")))
    }
}

/// Follows `nextCursor` to the last page (or a repeated cursor, or `MAX_PAGES`).
async fn read_all(d: &Driver, uri: &str) -> Result<AllChildren, Failure> {
    let mut pages = Vec::new();
    let mut cursors = HashSet::new();
    let mut cursor: Option<String> = None;
    // A page checks its own duplicates; these catch one repeated on a later page.
    let mut seen: HashSet<String> = HashSet::new();
    let stopped = loop {
        let mut params = json!({ "uri": uri });
        if let (Some(c), Value::Object(o)) = (&cursor, &mut params) {
            o.insert("cursor".into(), Value::from(c.clone()));
        }
        let result = d.request("resources/directory/read", Some(params)).await?;
        let page =
            DirectoryPage::from_result(uri, &result).map_err(|error| SkillsError::BadDirPage {
                page: pages.len() + 1,
                error,
            })?;
        let children = page
            .children
            .into_iter()
            .map(|c| match c {
                Ok(child) if !seen.insert(child.uri.clone()) => {
                    Err(ChildError::Duplicate(child.uri))
                }
                other => other,
            })
            .collect();
        pages.push(children);
        match page.next_cursor {
            None => break None,
            Some(c) if cursors.contains(&c) => {
                break Some(format!(
                    "resources/directory/read returned the cursor {:?} a second time (page {}); stopped instead of looping forever",
                    cut(&c, 60),
                    pages.len()
                ));
            }
            Some(_) if pages.len() >= MAX_PAGES => {
                break Some(format!(
                    "resources/directory/read still had more after {MAX_PAGES} pages; stopped"
                ));
            }
            Some(c) => {
                cursors.insert(c.clone());
                cursor = Some(c);
            }
        }
    };
    Ok(AllChildren { pages, stopped })
}

/// Page headers, one line per usable child, the count line.
fn as_text(all: &AllChildren) -> String {
    let mut out = String::new();
    let pages = all.pages.len();
    let mut shown = 0usize;
    for (i, page) in all.pages.iter().enumerate() {
        let usable: Vec<&Child> = page.iter().filter_map(|c| c.as_ref().ok()).collect();
        let mut header = page_header(i + 1, pages, usable.len(), "item");
        let skipped = page.len() - usable.len();
        if skipped > 0 {
            header = header.replacen(") ---", &format!(", {skipped} skipped) ---"), 1);
        }
        let _ = writeln!(out, "{header}");
        for c in usable {
            shown += 1;
            let _ = writeln!(out, "{}", child_line(c));
        }
    }
    let _ = writeln!(out, "{}", count_line(shown, "item", pages));
    out
}

/// `references/  directory  <uri>` or `SKILL.md  text/markdown  <uri>`.
fn child_line(c: &Child) -> String {
    let (shown, kind) = if c.is_directory() {
        (format!("{}/", c.segment), "directory")
    } else {
        (c.segment.clone(), c.mime_type.as_deref().unwrap_or("-"))
    };
    format!(
        "{}  {}  <{}>",
        escape::line(&shown),
        escape::line(&cut(kind, 60)),
        escape::line(&c.uri)
    )
}
