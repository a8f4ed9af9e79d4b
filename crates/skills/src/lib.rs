//! The client side of MCP's Skills extension (`io.modelcontextprotocol/skills`,
//! SEP-2640, against base revision 2026-07-28), sans-IO.
//!
//! A skill is a directory of files, minimally a `SKILL.md`, served as resources
//! (conventionally `skill://<skill-path>/<file-path>`). `skills/list` and
//! `skills/get` return [`Skill`] entries: the `SKILL.md`'s frontmatter and a complete
//! manifest of the skill's files with SHA-256 digests. This crate checks an entry
//! against the spec's rules ([`Skill::from_value`]: a host must not load an invalid
//! one) and verifies what a host reads against it ([`Skill::verify`]: a mismatch
//! means the content must not be used). It sends nothing: the caller issues the
//! requests and hands the answers in. The optional `resources/directory/read`
//! answer is checked by [`DirectoryPage::from_result`]: every child one segment
//! below the directory read.

mod directory;
mod entry;
mod listing;
mod name;
mod verify;

pub use directory::{Child, ChildError, DIRECTORY_MIME, DirectoryError, DirectoryPage};
pub use entry::{Digest, EntryError, Skill, SkillFile, SkillFiles};
pub use listing::{ListError, Listing};
pub use name::{NameError, check_name};
pub use verify::VerifyError;

/// The extension's identifier, under `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";

/// The most files a skill may list (`SKILL.md` included) that every host supports.
pub const MAX_FILES: usize = 512;

/// The most bytes a skill's files may total that every host supports (16 MiB).
pub const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;
