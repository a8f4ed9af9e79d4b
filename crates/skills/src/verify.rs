//! What a host reads of a skill, checked against the entry it holds: a file it
//! does not list, or whose size or digest differs, must not be used.

use crate::entry::{Digest, Skill, SkillFiles};

/// Why content read for a skill must not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The entry is `"dynamic"`: it publishes nothing to verify against.
    #[error(
        "the skill's files are \"dynamic\": the server publishes no digests to check them against"
    )]
    Dynamic,
    /// The file is not in the entry's manifest (a change to the skill).
    #[error("{0:?} is not one of the skill's listed files")]
    Unlisted(String),
    /// The bytes are not as long as the entry says.
    #[error("{uri:?} is {got} bytes, but its entry says {expected}")]
    Size {
        /// The file.
        uri: String,
        /// What the entry says.
        expected: u64,
        /// What was read.
        got: u64,
    },
    /// The bytes hash to another digest.
    #[error("{uri:?} hashes to {got}, but its entry says {expected}")]
    Digest {
        /// The file.
        uri: String,
        /// What the entry says.
        expected: Digest,
        /// What was read.
        got: Digest,
    },
}

impl Skill {
    /// Checks the raw bytes read from `uri` against this entry (the size first, as
    /// the spec allows, then the SHA-256).
    pub fn verify(&self, uri: &str, bytes: &[u8]) -> Result<(), VerifyError> {
        let SkillFiles::Listed(files) = &self.files else {
            return Err(VerifyError::Dynamic);
        };
        let file = files
            .iter()
            .find(|f| f.uri == uri)
            .ok_or_else(|| VerifyError::Unlisted(uri.to_owned()))?;
        let got = bytes.len() as u64;
        if got != file.size {
            return Err(VerifyError::Size {
                uri: uri.to_owned(),
                expected: file.size,
                got,
            });
        }
        let got = Digest::of(bytes);
        if got != file.digest {
            return Err(VerifyError::Digest {
                uri: uri.to_owned(),
                expected: file.digest,
                got,
            });
        }
        Ok(())
    }
}
