//! The command line of `skills`, as clap reads it.

use std::path::PathBuf;

use clap::Subcommand;

use super::connection::Connection;

/// `mcpg skills …` (the Skills extension, `io.modelcontextprotocol/skills`, under
/// 2026-07-28).
#[derive(Debug, Subcommand)]
pub enum SkillsCommand {
    /// List every skill of every page (`skills/list`): name, URI, files, bytes, description.
    ///
    /// An entry that breaks the extension's rules is named on stderr and skipped;
    /// then the exit status is 1. No skill file is read.
    List {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// Print a JSON array of the entries that may be loaded, as the server sent them.
        #[arg(long)]
        json: bool,
    },
    /// Get one skill (`skills/get`): SKILL.md verified on stdout, or every file written with `--out`.
    ///
    /// Each file is read with `resources/read` and verified against the entry's
    /// size and SHA-256 before it is used. Without `--out`, SKILL.md goes to stdout
    /// and the other files are listed on stderr, not read. With `--out DIR`, every
    /// file is read, verified and written under DIR/NAME/ (never outside it). Exit
    /// 1 when a file fails verification or its path leaves the skill: it is not
    /// written, the others are.
    Get {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The skill's name, or the URI of its SKILL.md (when two skills share a name).
        name: String,
        /// Write every verified file under DIR/NAME/ (created if missing).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// List a directory's direct children (`resources/directory/read`): files and subdirectories.
    ///
    /// Only when the server's Skills extension settings say `directoryRead: true`
    /// (else a usage error: the extension forbids the request). Every page is
    /// followed; a child that is not one segment below URI is named on stderr and
    /// skipped, and then the exit status is 1. Nothing is read or written.
    Dir {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The directory's URI: a skill's root (skill://NAME) or a folder in it.
        uri: String,
    },
}
