//! `mcpg skills list|get|dir`: the Skills extension (`io.modelcontextprotocol/skills`,
//! SEP-2640, under 2026-07-28) on `mcpg-skills`' checks. `skills/list` and
//! `skills/get` go out as raw requests (the core has no typed method for them,
//! and the page's first load carries none); each entry is checked, each file read
//! with `resources/read` is verified (size, then SHA-256) before it is printed or
//! written, and a file is written only inside `DIR/NAME/`.

mod dir;
mod error;
mod files;

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Component, Path};

use mcpg_core::client::{Answer, Negotiated};
use mcpg_core::model::ResourceContents;
use mcpg_skills::{EXTENSION, EntryError, Listing, Skill, SkillFiles};
use mcpg_transport::Driver;
use serde_json::{Value, json};

use crate::args::{Connection, SkillsCommand};
use crate::commands::with_server;
use crate::escape;
use crate::exit::{self, Failure};
use crate::render::{count_line, cut, first_line, page_header, plural, pretty};
use error::SkillsError;

/// The most pages of `skills/list` followed (the core's limit for its own lists).
const MAX_PAGES: usize = 1000;

/// `mcpg skills …`.
pub async fn run(cmd: &SkillsCommand) -> Result<(), Failure> {
    match cmd {
        SkillsCommand::List { conn, json } => list(conn, *json).await,
        SkillsCommand::Get { conn, name, out } => get(conn, name, out.as_deref()).await,
        SkillsCommand::Dir { conn, uri } => dir::dir(conn, uri).await,
    }
}

/// One entry of a `skills/list` page: as sent, and checked.
struct Entry {
    /// The JSON the server sent.
    raw: Value,
    /// The entry, or why it must not be loaded.
    checked: Result<Skill, EntryError>,
}

/// Every page of `skills/list`.
struct AllSkills {
    /// The entries, page by page.
    pages: Vec<Vec<Entry>>,
    /// Why the listing stopped before the server's last page, if it did.
    stopped: Option<String>,
}

impl AllSkills {
    /// The valid entries, in order.
    fn valid(&self) -> impl Iterator<Item = (&Value, &Skill)> {
        self.pages
            .iter()
            .flatten()
            .filter_map(|e| e.checked.as_ref().ok().map(|s| (&e.raw, s)))
    }
}

/// Fails unless the server declared the extension.
fn require_extension(n: &Negotiated) -> Result<(), SkillsError> {
    let declared = n
        .capabilities
        .get("extensions")
        .and_then(|e| e.get(EXTENSION))
        .is_some_and(Value::is_object);
    if declared {
        Ok(())
    } else {
        Err(SkillsError::NotDeclared { version: n.version })
    }
}

/// Follows `nextCursor` to the last page (or a repeated cursor, or `MAX_PAGES`).
async fn list_all(d: &Driver) -> Result<AllSkills, Failure> {
    let mut pages = Vec::new();
    let mut cursors = HashSet::new();
    let mut cursor: Option<String> = None;
    let stopped = loop {
        let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
        let result = d.request("skills/list", params).await?;
        let listing = Listing::from_result(&result).map_err(|error| SkillsError::BadPage {
            page: pages.len() + 1,
            error,
        })?;
        let raw = result
            .get("skills")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        pages.push(
            raw.into_iter()
                .zip(listing.entries)
                .map(|(raw, checked)| Entry {
                    raw,
                    checked: checked.map_err(|(_, why)| why),
                })
                .collect(),
        );
        match listing.next_cursor {
            None => break None,
            Some(c) if cursors.contains(&c) => {
                break Some(format!(
                    "skills/list returned the cursor {:?} a second time (page {}); stopped instead of looping forever",
                    cut(&c, 60),
                    pages.len()
                ));
            }
            Some(_) if pages.len() >= MAX_PAGES => {
                break Some(format!(
                    "skills/list still had more after {MAX_PAGES} pages; stopped"
                ));
            }
            Some(c) => {
                cursors.insert(c.clone());
                cursor = Some(c);
            }
        }
    };
    Ok(AllSkills { pages, stopped })
}

/// `mcpg skills list [--json]`: every page; each invalid entry is named on
/// stderr and skipped, and then (or when the listing stopped early) the exit
/// status is 1.
async fn list(conn: &Connection, json: bool) -> Result<(), Failure> {
    let (mut skipped, mut stopped) = (0usize, false);
    with_server(conn, async |d: &Driver| {
        let n = d.connect().await?;
        require_extension(&n)?;
        let all = list_all(d).await?;
        for (p, page) in all.pages.iter().enumerate() {
            for (i, e) in page.iter().enumerate() {
                if let Err(why) = &e.checked {
                    skipped += 1;
                    eprintln!(
                        "skipped {}: {}",
                        which(e, p, i),
                        escape::line(&why.to_string())
                    );
                }
            }
        }
        if let Some(why) = &all.stopped {
            stopped = true;
            eprintln!("{}", escape::line(why));
        }
        if json {
            let valid: Vec<Value> = all.valid().map(|(raw, _)| raw.clone()).collect();
            println!("{}", pretty(&Value::Array(valid)));
        } else {
            print!("{}", as_text(&all));
        }
        Ok(())
    })
    .await?;
    let mut found = Vec::new();
    match skipped {
        0 => {}
        1 => found.push("a skill entry (above) must not be loaded".to_owned()),
        n => found.push(format!("{n} skill entries (above) must not be loaded")),
    }
    if stopped {
        found.push("the listing stopped before its end (above)".to_owned());
    }
    if found.is_empty() {
        Ok(())
    } else {
        Err(Failure::new(exit::PROBLEM, found.join("; ")))
    }
}

/// How an invalid entry is named: its URI, else its place.
fn which(e: &Entry, page: usize, index: usize) -> String {
    match e.raw.get("uri").and_then(Value::as_str) {
        Some(uri) => escape::line(uri),
        None => format!("entry {} of page {}", index + 1, page + 1),
    }
}

/// Page headers, one line per valid skill, the count line.
fn as_text(all: &AllSkills) -> String {
    let mut out = String::new();
    let pages = all.pages.len();
    for (i, page) in all.pages.iter().enumerate() {
        let valid: Vec<&Skill> = page
            .iter()
            .filter_map(|e| e.checked.as_ref().ok())
            .collect();
        let mut header = page_header(i + 1, pages, valid.len(), "skill");
        let skipped = page.len() - valid.len();
        if skipped > 0 {
            // `--- page 2 of 2 (0 skills) ---` becomes `… (0 skills, 1 skipped) ---`.
            header = header.replacen(") ---", &format!(", {skipped} skipped) ---"), 1);
        }
        let _ = writeln!(out, "{header}");
        for s in valid {
            let _ = writeln!(out, "{}", skill_line(s));
        }
    }
    let _ = writeln!(out, "{}", count_line(all.valid().count(), "skill", pages));
    out
}

/// `name <uri> 2 files, 1234 bytes: description`.
fn skill_line(s: &Skill) -> String {
    let files = match &s.files {
        SkillFiles::Listed(files) => {
            let bytes: u64 = files.iter().map(|f| f.size).sum();
            format!("{}, {bytes} bytes", plural(files.len(), "file"))
        }
        SkillFiles::Dynamic => "dynamic files".to_owned(),
    };
    let mut line = format!(
        "{} <{}> {files}",
        escape::line(s.name()),
        escape::line(&s.uri)
    );
    if let Some(d) = first_line(Some(s.description())) {
        let _ = write!(line, ": {}", escape::line(&cut(d, 120)));
    }
    line
}

/// `mcpg skills get NAME [--out DIR]`.
async fn get(conn: &Connection, name: &str, out: Option<&Path>) -> Result<(), Failure> {
    with_server(conn, async |d: &Driver| {
        let n = d.connect().await?;
        require_extension(&n)?;
        let skill = load(d, name).await?;
        match out {
            None => show(d, &skill).await,
            Some(dir) => write_all(d, &skill, dir).await,
        }
    })
    .await
}

/// The checked entry `skills/get` gives for `name` (a skill's name, found by
/// listing, or its SKILL.md URI).
async fn load(d: &Driver, name: &str) -> Result<Skill, Failure> {
    let by_uri = name.contains("://");
    let uri = if by_uri {
        name.to_owned()
    } else {
        find(d, name).await?
    };
    let result = d.request("skills/get", Some(json!({ "uri": uri }))).await?;
    let skill = Listing::skill_of(&result)
        .map_err(|error| SkillsError::BadGet {
            uri: uri.clone(),
            error,
        })?
        .map_err(|why| SkillsError::Invalid {
            uri: uri.clone(),
            why,
        })?;
    if skill.uri != uri {
        return Err(SkillsError::Other {
            asked: uri,
            got: skill.uri,
        }
        .into());
    }
    Ok(skill)
}

/// The SKILL.md URI of the one valid skill named `name`.
async fn find(d: &Driver, name: &str) -> Result<String, Failure> {
    let all = list_all(d).await?;
    let uris: Vec<String> = all
        .valid()
        .filter(|(_, s)| s.name() == name)
        .map(|(_, s)| s.uri.clone())
        .collect();
    match uris.as_slice() {
        [uri] => return Ok(uri.clone()),
        [] => {}
        _ => {
            return Err(SkillsError::Ambiguous {
                name: name.to_owned(),
                uris,
            }
            .into());
        }
    }
    // An entry of that name that fails the checks: say why, rather than "no such skill".
    let suffix = format!("/{name}/SKILL.md");
    let invalid = all.pages.iter().flatten().find_map(|e| {
        let uri = e.raw.get("uri").and_then(Value::as_str)?;
        match &e.checked {
            Err(why) if uri.ends_with(&suffix) => Some((uri.to_owned(), why.clone())),
            _ => None,
        }
    });
    Err(match invalid {
        Some((uri, why)) => SkillsError::Invalid { uri, why },
        None => SkillsError::NotFound {
            name: name.to_owned(),
            listed: all.valid().map(|(_, s)| s.name().to_owned()).collect(),
        },
    }
    .into())
}

/// Without `--out`: SKILL.md, verified, on stdout (exactly, control characters
/// aside); the other files listed on stderr, not read (a host reads a file when
/// it needs it, and `--out` needs them all).
async fn show(d: &Driver, skill: &Skill) -> Result<(), Failure> {
    let files = match &skill.files {
        SkillFiles::Listed(files) => files,
        SkillFiles::Dynamic => return show_dynamic(d, skill).await,
    };
    let md = files::fetch(d, skill, &skill.uri).await?.map_err(|p| {
        Failure::new(
            exit::PROBLEM,
            format!("SKILL.md of {} not shown: {p}", skill.uri),
        )
    })?;
    print!("{}", escape::text(&String::from_utf8_lossy(&md)));
    eprintln!("SKILL.md: {} bytes, verified", md.len());
    let others: Vec<_> = files.iter().filter(|f| f.uri != skill.uri).collect();
    if !others.is_empty() {
        eprintln!(
            "{} not read (--out DIR reads, verifies and writes them all):",
            plural(others.len(), "other file")
        );
    }
    for f in others {
        let path = skill.path_of(&f.uri).unwrap_or(&f.uri);
        eprintln!("  {} ({} bytes)", escape::line(path), f.size);
    }
    Ok(())
}

/// SKILL.md of a skill whose files are `"dynamic"`: shown, and said to be unverified.
async fn show_dynamic(d: &Driver, skill: &Skill) -> Result<(), Failure> {
    let read = d.read_resource(&skill.uri).await?;
    let text = match &read.answer {
        Answer::Read(r) => r.contents.iter().find_map(|c| match c {
            ResourceContents::Text(t) if t.uri == skill.uri => Some(&t.text),
            _ => None,
        }),
        _ => None,
    };
    let Some(text) = text else {
        return Err(Failure::new(
            exit::PROBLEM,
            format!("resources/read of {} brought no text", skill.uri),
        ));
    };
    print!("{}", escape::text(text));
    eprintln!(
        "SKILL.md: {} bytes, NOT verified: the skill's files are \"dynamic\" (no digests)",
        text.len()
    );
    Ok(())
}

/// `--out DIR`: every file read, verified and written under `DIR/NAME/`; one that
/// fails is named on stderr and not written, the others are, and the exit status
/// is then 1.
async fn write_all(d: &Driver, skill: &Skill, dir: &Path) -> Result<(), Failure> {
    let SkillFiles::Listed(files) = &skill.files else {
        return Err(SkillsError::Dynamic {
            uri: skill.uri.clone(),
        }
        .into());
    };
    let name = skill.name();
    // A checked name is lowercase letters, digits and hyphens: one plain component.
    let mut parts = Path::new(name).components();
    if !matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(_)), None)
    ) {
        return Err(SkillsError::BadDirectory(name.to_owned()).into());
    }
    let root = dir.join(name);
    // SKILL.md first, then the manifest's order.
    let mut order: Vec<_> = files.iter().filter(|f| f.uri == skill.uri).collect();
    order.extend(files.iter().filter(|f| f.uri != skill.uri));
    let (mut written, mut bytes) = (0usize, 0usize);
    let mut refused = 0usize;
    for f in order {
        let shown = escape::line(skill.path_of(&f.uri).unwrap_or(&f.uri));
        let outcome = match files::relative_path(skill, &f.uri) {
            Ok(path) => match files::fetch(d, skill, &f.uri).await? {
                Ok(content) => files::write(&root, &path, &content).map(|p| (p, content.len())),
                Err(p) => Err(p),
            },
            Err(p) => Err(p),
        };
        match outcome {
            Ok((path, n)) => {
                written += 1;
                bytes += n;
                println!(
                    "wrote {} ({n} bytes, verified)",
                    escape::line(&path.display().to_string())
                );
            }
            Err(p) => {
                refused += 1;
                eprintln!("not written: {shown}: {}", escape::line(&p.to_string()));
            }
        }
    }
    let summary = format!(
        "{} ({bytes} bytes) written to {}",
        plural(written, "file"),
        root.display()
    );
    if refused > 0 {
        return Err(Failure::new(
            exit::PROBLEM,
            format!(
                "{} of {} not written (above); {summary}",
                refused,
                plural(refused + written, "file")
            ),
        ));
    }
    println!("{summary}");
    Ok(())
}
