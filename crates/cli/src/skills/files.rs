//! A skill's files: where one may be written (inside the skill's directory, never
//! above it), and its bytes read with `resources/read` and verified against the
//! entry before anything uses them.

use std::path::{Component, Path, PathBuf};

use base64::Engine as _;
use mcpg_core::client::Answer;
use mcpg_core::model::ResourceContents;
use mcpg_skills::Skill;
use mcpg_transport::{Driver, DriverError};

use super::error::FileProblem;
use crate::exit::Failure;

/// The relative path of the skill's file `uri`, to write under the skill's own
/// directory: `mcpg-skills`' rule (`path_of`, and `resolve` giving the same URI
/// back: no `..`, no `.`, no empty segment, not absolute), then every segment one
/// plain path component of this system's, so that joined to a directory it
/// cannot climb out of it or replace it.
pub fn relative_path(skill: &Skill, uri: &str) -> Result<PathBuf, FileProblem> {
    let rel = skill.path_of(uri).ok_or(FileProblem::Outside)?;
    let escapes = || FileProblem::Escapes(rel.to_owned());
    // A checked entry already refuses `..`, `.` and empty segments (a leading `/`,
    // `skill://x//etc/passwd`); this second check keeps a path given here by any
    // other route from leaving the folder, as `resolve` does not give one back.
    if skill.resolve(rel).as_deref() != Some(uri) {
        return Err(escapes());
    }
    let mut out = PathBuf::new();
    for segment in rel.split('/') {
        let mut parts = Path::new(segment).components();
        match (parts.next(), parts.next()) {
            (Some(Component::Normal(part)), None) if part == segment && !segment.contains('\0') => {
                out.push(part);
            }
            _ => return Err(escapes()),
        }
    }
    Ok(out)
}

/// Reads `uri` (one of `skill`'s files) and returns its bytes once verified
/// against the entry (size, then SHA-256). The outer error ends the command (the
/// connection failed); the inner one is this file's problem alone.
pub async fn fetch(
    d: &Driver,
    skill: &Skill,
    uri: &str,
) -> Result<Result<Vec<u8>, FileProblem>, Failure> {
    let report = match d.read_resource(uri).await {
        Ok(report) => report,
        Err(DriverError::Rpc { error, .. }) => {
            return Ok(Err(FileProblem::Refused {
                code: error.code,
                message: error.message,
            }));
        }
        Err(e) => return Err(e.into()),
    };
    let read = match report.answer {
        Answer::Read(r) => r,
        Answer::InputRequired(_) => {
            return Ok(Err(FileProblem::Unusable(
                "the server asked for input (input_required), which mcpg cannot give".into(),
            )));
        }
        other => return Ok(Err(FileProblem::Unusable(format!("{other:?}")))),
    };
    let mine: Vec<&ResourceContents> = read
        .contents
        .iter()
        .filter(|c| match c {
            ResourceContents::Text(t) => t.uri == uri,
            ResourceContents::Blob(b) => b.uri == uri,
            ResourceContents::Unknown(_) => false,
        })
        .collect();
    let bytes = match mine.as_slice() {
        [ResourceContents::Text(t)] => t.text.as_bytes().to_vec(),
        [ResourceContents::Blob(b)] => {
            match base64::engine::general_purpose::STANDARD.decode(b.blob.trim_end()) {
                Ok(bytes) => bytes,
                Err(e) => return Ok(Err(FileProblem::Base64(e.to_string()))),
            }
        }
        other => return Ok(Err(FileProblem::Contents(other.len()))),
    };
    Ok(skill
        .verify(uri, &bytes)
        .map(|()| bytes)
        .map_err(Into::into))
}

/// Writes `bytes` at `dir/path`, creating the directories on the way.
pub fn write(dir: &Path, path: &Path, bytes: &[u8]) -> Result<PathBuf, FileProblem> {
    let target = dir.join(path);
    let written = target
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&target, bytes));
    match written {
        Ok(()) => Ok(target),
        Err(error) => Err(FileProblem::Write {
            path: target,
            error,
        }),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::PathBuf;

    use mcpg_skills::{Digest, Skill};
    use serde_json::json;

    use super::relative_path;
    use crate::skills::error::FileProblem;

    fn skill(files: &[&str]) -> Skill {
        let resources: Vec<_> = ["skill://acme/refunds/SKILL.md"]
            .iter()
            .chain(files)
            .map(|u| json!({"uri": u, "digest": Digest::of(b"").to_string(), "size": 0}))
            .collect();
        Skill::from_value(&json!({
            "uri": "skill://acme/refunds/SKILL.md",
            "frontmatter": {"name": "refunds", "description": "d"},
            "resources": resources,
        }))
        .unwrap()
    }

    #[test]
    fn a_file_lands_inside_the_skill_and_nowhere_else() {
        let s = skill(&["skill://acme/refunds/examples/email.md"]);
        assert_eq!(
            relative_path(&s, "skill://acme/refunds/examples/email.md").unwrap(),
            PathBuf::from("examples/email.md")
        );
        assert_eq!(
            relative_path(&s, "skill://acme/refunds/SKILL.md").unwrap(),
            PathBuf::from("SKILL.md")
        );
        // An empty segment: the entry's checks refuse it, and so does this second
        // check for a URI given another way (joined to a folder, an absolute path
        // would replace it).
        let s = skill(&[]);
        for (uri, rel) in [
            ("skill://acme/refunds//etc/passwd", "/etc/passwd"),
            ("skill://acme/refunds/a//b", "a//b"),
        ] {
            assert!(
                matches!(relative_path(&s, uri), Err(FileProblem::Escapes(p)) if p == rel),
                "{uri}"
            );
        }
        assert!(matches!(
            relative_path(&s, "skill://acme/other/x.md"),
            Err(FileProblem::Outside)
        ));
        // What the entry refuses never gets this far, and is refused here too.
        for uri in [
            "skill://acme/refunds/../x",
            "skill://acme/refunds/./x",
            "skill://acme/refunds/",
        ] {
            assert!(relative_path(&s, uri).is_err(), "{uri}");
        }
    }
}
