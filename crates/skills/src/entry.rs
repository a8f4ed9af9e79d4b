//! A skill's entry (`Skill`, as `skills/list` and `skills/get` return it), checked
//! against every rule a host can check from the entry alone.

use serde_json::{Map, Value};

use crate::name::{NameError, check_name};
use crate::{MAX_FILES, MAX_TOTAL_BYTES};

/// A SHA-256 digest, as an entry writes it: `sha256:` and 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest {
        use sha2::Digest as _;
        Digest(sha2::Sha256::digest(bytes).into())
    }

    /// Reads `sha256:{64 lowercase hex}`; anything else is `None`.
    pub fn parse(text: &str) -> Option<Digest> {
        let hex = text.strip_prefix("sha256:")?;
        if hex.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, pair) in hex.as_bytes().chunks(2).enumerate() {
            let digit = |b: u8| match b {
                b'0'..=b'9' => Some(b - b'0'),
                b'a'..=b'f' => Some(b - b'a' + 10),
                _ => None,
            };
            out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(Digest(out))
    }
}

impl std::fmt::Display for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("sha256:")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

/// One file of a skill, with what its raw bytes must be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillFile {
    /// Its resource URI.
    pub uri: String,
    /// The SHA-256 of its raw bytes.
    pub digest: Digest,
    /// Its length in bytes.
    pub size: u64,
}

/// A skill's files: a complete manifest, or `"dynamic"` (generated content, no
/// digests: nothing can be verified).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkillFiles {
    /// Every file, `SKILL.md` included, each once.
    Listed(Vec<SkillFile>),
    /// The server publishes no stable digests.
    Dynamic,
}

/// A checked skill entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// The `SKILL.md` frontmatter, verbatim (`name` and `description` present).
    pub frontmatter: Map<String, Value>,
    /// Its files.
    pub files: SkillFiles,
}

/// Why an entry is invalid: a host must not load it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// Not a JSON object.
    #[error("the entry is not an object")]
    NotAnObject,
    /// `uri` missing or not a string.
    #[error("the entry has no uri")]
    NoUri,
    /// `uri` does not end in `/SKILL.md`.
    #[error("{0:?} is not the URI of a SKILL.md")]
    NotSkillMd(String),
    /// `frontmatter` missing or not an object.
    #[error("the entry has no frontmatter object")]
    NoFrontmatter,
    /// `frontmatter` lacks a string `name` or `description`.
    #[error("the frontmatter has no {0}")]
    MissingField(&'static str),
    /// The name breaks the Agent Skills rules.
    #[error("the name {name:?} is invalid: {why}")]
    BadName {
        /// The name.
        name: String,
        /// The rule.
        why: NameError,
    },
    /// The last path segment is not the frontmatter's name.
    #[error("the skill's path ends in {segment:?}, but its name is {name:?}")]
    NameMismatch {
        /// The URI's last directory segment.
        segment: String,
        /// `frontmatter.name`.
        name: String,
    },
    /// `resources` missing, or neither an array nor `"dynamic"`.
    #[error("resources is neither a list of files nor \"dynamic\"")]
    BadResources,
    /// A file lacks `uri`, `digest` or `size`, or has the wrong type.
    #[error("file {0} lacks a uri, a digest or a size")]
    BadFile(usize),
    /// A digest not written `sha256:` and 64 lowercase hex digits.
    #[error("file {uri:?} has the digest {digest:?}, not sha256: and 64 lowercase hex digits")]
    BadDigest {
        /// The file.
        uri: String,
        /// What it said.
        digest: String,
    },
    /// A file outside the skill's directory.
    #[error("file {0:?} is outside the skill's directory")]
    Outside(String),
    /// A file listed twice.
    #[error("file {0:?} is listed twice")]
    Duplicate(String),
    /// The manifest lacks the `SKILL.md` itself.
    #[error("the files do not list the SKILL.md itself")]
    NoSkillMd,
    /// More files than every host supports.
    #[error("{0} files, more than the {MAX_FILES} every host supports")]
    TooManyFiles(usize),
    /// More bytes than every host supports.
    #[error("{0} bytes in all, more than the {MAX_TOTAL_BYTES} every host supports")]
    TooLarge(u64),
}

impl Skill {
    /// Checks `v`, one entry of `skills/list` or the `skill` of `skills/get`.
    pub fn from_value(v: &Value) -> Result<Skill, EntryError> {
        let o = v.as_object().ok_or(EntryError::NotAnObject)?;
        let uri = o
            .get("uri")
            .and_then(Value::as_str)
            .ok_or(EntryError::NoUri)?
            .to_owned();
        let root = uri
            .strip_suffix("/SKILL.md")
            .filter(|r| !r.is_empty())
            .ok_or_else(|| EntryError::NotSkillMd(uri.clone()))?;
        let frontmatter = o
            .get("frontmatter")
            .and_then(Value::as_object)
            .ok_or(EntryError::NoFrontmatter)?
            .clone();
        let name = frontmatter
            .get("name")
            .and_then(Value::as_str)
            .ok_or(EntryError::MissingField("name"))?;
        if !frontmatter.get("description").is_some_and(Value::is_string) {
            return Err(EntryError::MissingField("description"));
        }
        check_name(name).map_err(|why| EntryError::BadName {
            name: name.to_owned(),
            why,
        })?;
        let segment = root.rsplit('/').next().unwrap_or(root);
        if segment != name {
            return Err(EntryError::NameMismatch {
                segment: segment.to_owned(),
                name: name.to_owned(),
            });
        }
        let files = match o.get("resources") {
            Some(Value::String(s)) if s == "dynamic" => SkillFiles::Dynamic,
            Some(Value::Array(list)) => SkillFiles::Listed(files(root, &uri, list)?),
            _ => return Err(EntryError::BadResources),
        };
        Ok(Skill {
            uri,
            frontmatter,
            files,
        })
    }

    /// The skill's name (`frontmatter.name`, the last segment of its path).
    pub fn name(&self) -> &str {
        self.frontmatter
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The skill's description.
    pub fn description(&self) -> &str {
        self.frontmatter
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The skill's root directory: its `SKILL.md` URI without `/SKILL.md`.
    pub fn root(&self) -> &str {
        self.uri.strip_suffix("/SKILL.md").unwrap_or(&self.uri)
    }

    /// A relative reference inside the skill (`references/GUIDE.md`), resolved
    /// against its root as a file path would be; `None` when it leaves the skill
    /// (`..` above the root), is absolute, or names no file.
    pub fn resolve(&self, relative: &str) -> Option<String> {
        if relative.contains("://") || relative.starts_with('/') {
            return None;
        }
        let mut parts: Vec<&str> = Vec::new();
        for seg in relative.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        if parts.is_empty() {
            return None;
        }
        Some(format!("{}/{}", self.root(), parts.join("/")))
    }

    /// The file's path inside the skill (`references/GUIDE.md`), when `uri` is
    /// one of its files.
    pub fn path_of<'a>(&self, uri: &'a str) -> Option<&'a str> {
        uri.strip_prefix(self.root())?
            .strip_prefix('/')
            .filter(|p| !p.is_empty())
    }
}

/// The manifest `list`, checked: each file inside `root`, once, the SKILL.md
/// among them, and within the limits every host supports.
fn files(root: &str, skill_md: &str, list: &[Value]) -> Result<Vec<SkillFile>, EntryError> {
    if list.len() > MAX_FILES {
        return Err(EntryError::TooManyFiles(list.len()));
    }
    let mut out: Vec<SkillFile> = Vec::with_capacity(list.len());
    let mut total: u64 = 0;
    for (i, f) in list.iter().enumerate() {
        let uri = f.get("uri").and_then(Value::as_str);
        let digest = f.get("digest").and_then(Value::as_str);
        let size = f.get("size").and_then(Value::as_u64);
        let (Some(uri), Some(digest), Some(size)) = (uri, digest, size) else {
            return Err(EntryError::BadFile(i));
        };
        let inside = uri
            .strip_prefix(root)
            .and_then(|p| p.strip_prefix('/'))
            // An empty segment (`skill://x//tmp/a`) would make the path inside the
            // skill absolute: a host writing it under a folder would leave it.
            .is_some_and(|p| !p.split('/').any(|s| s.is_empty() || s == ".." || s == "."));
        if !inside {
            return Err(EntryError::Outside(uri.to_owned()));
        }
        let Some(digest) = Digest::parse(digest) else {
            return Err(EntryError::BadDigest {
                uri: uri.to_owned(),
                digest: digest.to_owned(),
            });
        };
        if out.iter().any(|o| o.uri == uri) {
            return Err(EntryError::Duplicate(uri.to_owned()));
        }
        total = total.saturating_add(size);
        out.push(SkillFile {
            uri: uri.to_owned(),
            digest,
            size,
        });
    }
    if !out.iter().any(|f| f.uri == skill_md) {
        return Err(EntryError::NoSkillMd);
    }
    if total > MAX_TOTAL_BYTES {
        return Err(EntryError::TooLarge(total));
    }
    Ok(out)
}
