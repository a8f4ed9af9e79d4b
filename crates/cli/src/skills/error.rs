//! Why a `skills` command stops (`SkillsError`) and why one file of a skill is not
//! used (`FileProblem`), typed: the exit status and what to print are chosen by
//! variant, never by reading the words.

use std::path::PathBuf;

use mcpg_core::{Generation, ProtocolVersion};
use mcpg_skills::{DirectoryError, EXTENSION, EntryError, ListError, VerifyError};

use crate::exit::{self, Failure};

/// Why a `skills` command stops before (or instead of) its output.
#[derive(Debug, thiserror::Error)]
pub enum SkillsError {
    /// The server's capabilities lack `extensions["io.modelcontextprotocol/skills"]`.
    #[error("the server does not declare the Skills extension ({EXTENSION}){}", why_not(*.version))]
    NotDeclared {
        /// The revision this connection speaks.
        version: ProtocolVersion,
    },
    /// A `skills/list` page that is not a listing at all.
    #[error("skills/list page {page} is unusable: {error}")]
    BadPage {
        /// The page, from 1.
        page: usize,
        /// What is wrong with it.
        error: ListError,
    },
    /// The extension is declared without `directoryRead: true`: the extension
    /// forbids sending `resources/directory/read`.
    #[error(
        "the server declares the Skills extension without directoryRead: true, so resources/directory/read must not be sent (skills get NAME lists a skill's files)"
    )]
    NoDirectoryRead,
    /// A `resources/directory/read` page that is not a directory listing at all.
    #[error("resources/directory/read page {page} is unusable: {error}")]
    BadDirPage {
        /// The page, from 1.
        page: usize,
        /// What is wrong with it.
        error: DirectoryError,
    },
    /// A `skills/get` answer that holds no entry.
    #[error("skills/get for {uri} is unusable: {error}")]
    BadGet {
        /// The URI asked for.
        uri: String,
        /// What is wrong with it.
        error: ListError,
    },
    /// No valid entry has the name.
    #[error("the server lists no skill named {name:?}{}", names_listed(.listed))]
    NotFound {
        /// The name asked for.
        name: String,
        /// The names the server does list.
        listed: Vec<String>,
    },
    /// Several valid entries have the name (the spec lets names collide).
    #[error("{} skills are named {name:?} ({}): give the URI of the one you mean", .uris.len(), .uris.join(", "))]
    Ambiguous {
        /// The name asked for.
        name: String,
        /// Their SKILL.md URIs.
        uris: Vec<String>,
    },
    /// The entry breaks the extension's rules: a host must not load the skill.
    #[error("the skill {uri} must not be loaded: {why}")]
    Invalid {
        /// Its SKILL.md URI.
        uri: String,
        /// The rule it breaks.
        why: EntryError,
    },
    /// `skills/get` answered with the entry of another skill.
    #[error("skills/get for {asked} answered with another skill, {got}")]
    Other {
        /// The URI asked for.
        asked: String,
        /// The entry's URI.
        got: String,
    },
    /// `--out` of a skill whose files are `"dynamic"`: nothing can be verified.
    #[error(
        "the skill {uri} lists its files as \"dynamic\": the server publishes no digests, so --out writes nothing"
    )]
    Dynamic {
        /// Its SKILL.md URI.
        uri: String,
    },
    /// The skill's name cannot be one directory under `--out`.
    #[error("the skill's name {0:?} cannot be a directory name")]
    BadDirectory(String),
}

/// What follows "does not declare the Skills extension": why, when it is the
/// revision, else what it means.
fn why_not(version: ProtocolVersion) -> String {
    if version.generation() == Generation::Stateless {
        ": it serves no skills".to_owned()
    } else {
        format!(" under {version}: the extension needs protocol 2026-07-28")
    }
}

/// `; it lists: a, b` (or that it lists none).
fn names_listed(names: &[String]) -> String {
    if names.is_empty() {
        "; it lists none".to_owned()
    } else {
        format!("; it lists: {}", names.join(", "))
    }
}

impl From<SkillsError> for Failure {
    fn from(e: SkillsError) -> Self {
        let code = match &e {
            // As a server that does not have a method answers it (-32601), and as
            // skills/get answers a URI that names no skill (-32602).
            SkillsError::NotDeclared { .. } | SkillsError::NotFound { .. } => exit::RPC_ERROR,
            // The command line must say which one.
            SkillsError::Ambiguous { .. } => exit::USAGE,
            // The command does not apply to this server, as a client must not send it.
            SkillsError::NoDirectoryRead => exit::USAGE,
            // Answers that are not answers.
            SkillsError::BadPage { .. }
            | SkillsError::BadDirPage { .. }
            | SkillsError::BadGet { .. }
            | SkillsError::Other { .. } => exit::TRANSPORT,
            // What the server serves fails the extension's checks: a finding.
            SkillsError::Invalid { .. }
            | SkillsError::Dynamic { .. }
            | SkillsError::BadDirectory(_) => exit::PROBLEM,
        };
        Failure::new(code, e.to_string())
    }
}

/// Why one file of a skill is not used (not printed, not written).
#[derive(Debug, thiserror::Error)]
pub enum FileProblem {
    /// Its path inside the skill is absolute, empty, or climbs out (`..`).
    #[error("its path {0:?} is absolute or leaves the skill's directory")]
    Escapes(String),
    /// Its URI is not under the skill's root at all.
    #[error("it is not inside the skill's directory")]
    Outside,
    /// The server refused `resources/read`.
    #[error("resources/read failed: {message} ({code})")]
    Refused {
        /// The JSON-RPC error code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// The answer was not a read (input asked for, or no result).
    #[error("resources/read brought no contents: {0}")]
    Unusable(String),
    /// No content item of the answer has the file's URI, or several do.
    #[error("resources/read answered with {0} content items for its URI, not 1")]
    Contents(usize),
    /// A blob that is not base64.
    #[error("its blob is not base64: {0}")]
    Base64(String),
    /// The bytes are not what the entry says (size, then SHA-256).
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// Writing it failed.
    #[error("cannot write {}: {error}", .path.display())]
    Write {
        /// Where.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}
