//! The token cache: one JSON file per server (keyed by its MCP URL) in
//! `$MCPG_CONFIG_DIR/tokens` (tests), else `$XDG_CONFIG_HOME/mcpg/tokens`, else
//! `~/.config/mcpg/tokens`. The directory is 0700 and each file 0600, written to a
//! temporary file and renamed, so a reader never sees half a file and no other
//! user can read a token.
//!
//! `expires_at` in a file is Unix time in milliseconds, as the transport's OAuth
//! clock keeps it (the wall clock, comparable between runs).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use mcpg_auth::Tokens;
use serde::{Deserialize, Serialize};

/// Why the cache could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// Neither `MCPG_CONFIG_DIR`, `XDG_CONFIG_HOME` nor `HOME` is set.
    #[error("no config directory: set MCPG_CONFIG_DIR, XDG_CONFIG_HOME or HOME")]
    NoDir,
    /// Reading or writing a file failed.
    #[error("token cache {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file is not a cache entry (or not this server's).
    #[error("token cache {path} is unreadable ({why}); `mcpg auth logout` removes it")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// One cached login.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// The MCP endpoint the tokens are for (the cache key).
    pub url: String,
    /// The tokens; `expires_at` in Unix milliseconds.
    pub tokens: Tokens,
    /// When they were written (Unix milliseconds).
    pub saved_at: u64,
}

/// The cache directory.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The cache the process environment names.
    pub fn from_env() -> Result<Cache, CacheError> {
        Cache::from_vars(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
    }

    /// The cache `env` names (testable without touching the process environment).
    pub fn from_vars(env: impl Fn(&str) -> Option<String>) -> Result<Cache, CacheError> {
        let base = if let Some(d) = env("MCPG_CONFIG_DIR") {
            PathBuf::from(d)
        } else if let Some(d) = env("XDG_CONFIG_HOME") {
            Path::new(&d).join("mcpg")
        } else if let Some(h) = env("HOME") {
            Path::new(&h).join(".config").join("mcpg")
        } else {
            return Err(CacheError::NoDir);
        };
        Ok(Cache {
            dir: base.join("tokens"),
        })
    }

    /// The directory the files live in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `url`: a readable slug of it and a fingerprint of the whole URL
    /// (two URLs with the same slug still get two files).
    pub fn path(&self, url: &str) -> PathBuf {
        let slug: String = url
            .split_once("://")
            .map_or(url, |(_, rest)| rest)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .take(60)
            .collect();
        let hash = mcpg_recording::fingerprint(url);
        self.dir.join(format!("{slug}-{hash}.json"))
    }

    /// The cached login of `url`, if any.
    pub fn load(&self, url: &str) -> Result<Option<Entry>, CacheError> {
        let path = self.path(url);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(CacheError::Io { path, source }),
        };
        let entry = read_entry(&path, &text)?;
        if entry.url != url {
            return Err(CacheError::Corrupt {
                path,
                why: "it belongs to another URL".into(),
            });
        }
        Ok(Some(entry))
    }

    /// Writes `entry` atomically (0600 file in a 0700 directory).
    pub fn save(&self, entry: &Entry) -> Result<PathBuf, CacheError> {
        self.make_dir()?;
        let path = self.path(&entry.url);
        let io = |source| CacheError::Io {
            path: path.clone(),
            source,
        };
        let text = serde_json::to_string_pretty(entry).map_err(|e| CacheError::Corrupt {
            path: path.clone(),
            why: e.to_string(),
        })?;
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = private_file(&tmp)
            .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()))
            .and_then(|()| fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(io(e));
        }
        Ok(path)
    }

    /// Forgets `url`'s login; `false` when there was none.
    pub fn remove(&self, url: &str) -> Result<bool, CacheError> {
        let path = self.path(url);
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(source) => Err(CacheError::Io { path, source }),
        }
    }

    /// Every cached login, by URL; unreadable files are reported, not skipped.
    pub fn list(&self) -> Result<Vec<Result<Entry, CacheError>>, CacheError> {
        let dir = match fs::read_dir(&self.dir) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(CacheError::Io {
                    path: self.dir.clone(),
                    source,
                });
            }
        };
        let mut out = Vec::new();
        for item in dir.flatten() {
            let path = item.path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            out.push(
                fs::read_to_string(&path)
                    .map_err(|source| CacheError::Io {
                        path: path.clone(),
                        source,
                    })
                    .and_then(|t| read_entry(&path, &t)),
            );
        }
        // By URL; unreadable files last.
        out.sort_by_key(|e| match e {
            Ok(e) => (false, e.url.clone()),
            Err(_) => (true, String::new()),
        });
        Ok(out)
    }

    /// Creates the directory 0700 (and tightens it if it exists: it is ours).
    fn make_dir(&self) -> Result<(), CacheError> {
        let io = |source| CacheError::Io {
            path: self.dir.clone(),
            source,
        };
        let mut b = fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
            b.mode(0o700);
            b.create(&self.dir).map_err(io)?;
            fs::set_permissions(&self.dir, fs::Permissions::from_mode(0o700)).map_err(io)?;
        }
        #[cfg(not(unix))]
        b.create(&self.dir).map_err(io)?;
        Ok(())
    }
}

/// A new file only its owner can read (0600 from the start: never readable by
/// others even for a moment).
fn private_file(path: &Path) -> std::io::Result<fs::File> {
    let mut o = fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    o.open(path)
}

/// One file's entry.
fn read_entry(path: &Path, text: &str) -> Result<Entry, CacheError> {
    serde_json::from_str(text).map_err(|e| CacheError::Corrupt {
        path: path.to_owned(),
        why: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn tokens(access: &str) -> Tokens {
        Tokens {
            access_token: access.into(),
            token_type: "Bearer".into(),
            refresh_token: Some("r".into()),
            expires_at: Some(1_000),
            scope: None,
            issuer: "http://as".into(),
            token_endpoint: "http://as/token".into(),
            client_id: "c".into(),
            client_secret: None,
            token_endpoint_auth_method: "none".into(),
            resource: "http://h/mcp".into(),
        }
    }

    #[test]
    fn the_directory_follows_the_environment_in_order() {
        let c = Cache::from_vars(|k| (k == "HOME").then(|| "/home/u".into())).unwrap();
        assert_eq!(c.dir(), Path::new("/home/u/.config/mcpg/tokens"));
        let c = Cache::from_vars(|k| match k {
            "HOME" => Some("/home/u".into()),
            "XDG_CONFIG_HOME" => Some("/x".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(c.dir(), Path::new("/x/mcpg/tokens"));
        let c = Cache::from_vars(|k| (k != "NONE").then(|| "/t".into())).unwrap();
        assert_eq!(c.dir(), Path::new("/t/tokens"));
        assert!(matches!(Cache::from_vars(|_| None), Err(CacheError::NoDir)));
    }

    #[test]
    fn save_load_list_remove_with_private_modes() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = Cache {
            dir: tmp.path().join("tokens"),
        };
        let a = "http://127.0.0.1:1/mcp";
        let b = "http://127.0.0.1:1/mcp/";
        assert_ne!(cache.path(a), cache.path(b));
        assert!(cache.load(a).unwrap().is_none());
        for (url, t) in [(a, "one"), (b, "two")] {
            let entry = Entry {
                url: url.into(),
                tokens: tokens(t),
                saved_at: 5,
            };
            cache.save(&entry).unwrap();
        }
        assert_eq!(cache.load(a).unwrap().unwrap().tokens.access_token, "one");
        assert_eq!(cache.load(b).unwrap().unwrap().tokens.access_token, "two");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(cache.dir()), 0o700);
            assert_eq!(mode(&cache.path(a)), 0o600);
        }
        let listed: Vec<String> = cache
            .list()
            .unwrap()
            .into_iter()
            .map(|e| e.unwrap().url)
            .collect();
        assert_eq!(listed, [a, b]);
        assert!(cache.remove(a).unwrap());
        assert!(!cache.remove(a).unwrap());
        assert!(cache.load(a).unwrap().is_none());
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(cache.dir()).unwrap().count(), 1);
        fs::write(cache.path(a), "{not json").unwrap();
        assert!(matches!(cache.load(a), Err(CacheError::Corrupt { .. })));
    }
}
