//! The file chores of a build: listing, clearing a folder safely, reading and
//! writing with the path in every error.

use std::fs;
use std::path::Path;

use crate::util::Result;

/// The file that marks a folder as a build of ours, safe to replace.
pub const BUILD_INFO: &str = "build-info.json";

/// Every file below `dir`, as `/`-separated relative paths, sorted.
pub fn files_under(dir: &Path) -> Result<Vec<String>> {
    let mut found = Vec::new();
    let mut todo = vec![(dir.to_path_buf(), String::new())];
    while let Some((path, rel)) = todo.pop() {
        let entries = fs::read_dir(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| e.to_string())?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let child = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            if entry.path().is_dir() {
                todo.push((entry.path(), child));
            } else {
                found.push(child);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// When [`reset`] may delete what a folder holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// The folder is ours (the stage, the default `dist/`, which Trunk also wrote).
    Always,
    /// Only an empty folder or an earlier build (`build-info.json` in it):
    /// `--out` must never wipe someone's folder by a typo.
    IfEmptyOrBuilt,
}

/// Empties `dir` (creating it), when `replace` allows.
pub fn reset(dir: &Path, replace: Replace) -> Result<()> {
    if dir.exists() {
        let empty = fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .next()
            .is_none();
        let built = dir.join(BUILD_INFO).is_file();
        if !(replace == Replace::Always || empty || built) {
            return Err(format!(
                "{} is not empty and holds no earlier page build; pick another --out",
                dir.display()
            ));
        }
        fs::remove_dir_all(dir).map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
    }
    create_dir(dir)
}

/// Creates `dir` and the folders above it.
pub fn create_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

/// Reads `path` as UTF-8 text.
pub fn read_text(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `path`, creating its folder first (hashed files may sit in subfolders).
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        create_dir(parent)?;
    }
    fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    #[test]
    fn only_empty_folders_and_earlier_builds_are_cleared_unless_ours() {
        let dir = std::env::temp_dir().join(format!("xtask-dist-reset-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("notes.md"), "mine").unwrap();
        fs::write(dir.join("sub/a.js"), "x").unwrap();
        assert!(reset(&dir, Replace::IfEmptyOrBuilt).is_err());
        assert_eq!(files_under(&dir).unwrap(), ["notes.md", "sub/a.js"]);
        fs::write(dir.join(BUILD_INFO), "{}").unwrap();
        reset(&dir, Replace::IfEmptyOrBuilt).unwrap();
        assert!(files_under(&dir).unwrap().is_empty());
        fs::write(dir.join("notes.md"), "mine").unwrap();
        reset(&dir, Replace::Always).unwrap();
        assert!(files_under(&dir).unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
