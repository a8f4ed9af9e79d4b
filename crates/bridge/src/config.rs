//! The bridge's config: the only commands it may ever start and the only URLs it may
//! relay to. The browser only ever names an entry; it never supplies a command or URL.
//!
//! ```toml
//! allowed_origins = ["http://localhost:8080"]   # besides the bridge's own
//! allow_private_auth = false   # true: oauth-fetch and the relay may reach private addresses
//!
//! [limits]                 # all optional; these are the defaults
//! max_message_bytes = 33554432   # 32 MiB, the page's own limit for an HTTP answer
//! max_children = 8
//! idle_seconds = 600
//!
//! [[server]]
//! name = "everything"
//! command = "npx"
//! args = ["-y", "@modelcontextprotocol/server-everything", "stdio"]
//! env = { DEBUG = "1" }
//! cwd = "/tmp"
//!
//! [[remote]]
//! name = "weather"
//! url = "http://127.0.0.1:3001/mcp"
//! headers = { Authorization = "env:WEATHER_TOKEN", X-Team = "blue" }   # optional
//! ```

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::BridgeError;
use crate::remote_headers::RemoteHeaders;

/// The whole config file.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Servers the bridge may start (`[[server]]`).
    #[serde(default, rename = "server")]
    pub servers: Vec<ServerSpec>,
    /// Streamable HTTP endpoints the bridge may relay to (`[[remote]]`).
    #[serde(default, rename = "remote")]
    pub remotes: Vec<RemoteSpec>,
    /// Resource limits (`[limits]`).
    #[serde(default)]
    pub limits: Limits,
    /// Origins allowed besides the bridge's own (e.g. a dev server's).
    #[serde(default)]
    pub allowed_origins: Vec<String>,
    /// Let `/api/oauth-fetch` reach loopback and private addresses (a local
    /// authorization server), and configured remote names resolve to them; the
    /// same as `mcpg serve --allow-private-auth`.
    #[serde(default)]
    pub allow_private_auth: bool,
}

/// One local server, started per WebSocket connection.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ServerSpec {
    /// The name the page uses.
    pub name: String,
    /// The program (looked up on `PATH` when it has no slash).
    pub command: String,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Variables added to the bridge's environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Working directory; the bridge's when absent.
    #[serde(default)]
    pub cwd: Option<PathBuf>,
}

/// One remote Streamable HTTP server.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RemoteSpec {
    /// The name the page uses (`/relay/NAME`).
    pub name: String,
    /// The MCP endpoint.
    pub url: String,
    /// Headers sent with every relayed request (`env:VAR` values are read at launch).
    #[serde(default, skip_serializing_if = "RemoteHeaders::is_empty")]
    pub headers: RemoteHeaders,
}

/// Resource limits.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Largest message accepted from either side, in bytes.
    pub max_message_bytes: usize,
    /// Most server processes running at once.
    pub max_children: usize,
    /// A WebSocket with no frame either way for this long is closed.
    pub idle_seconds: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            // The page's HTTP machine takes answers up to 32 MiB (`HttpConfig::max_body`):
            // a server through the bridge gets the same room (a 10 MB tool answer is
            // real: a file read, a big query). The per-child queue holds twice this.
            max_message_bytes: 32 << 20,
            max_children: 8,
            idle_seconds: 600,
        }
    }
}

impl Config {
    /// The config used without `--config`: the built-in demo server (this very
    /// executable, `demo` subcommand) and no remotes.
    pub fn default_for_demo() -> Result<Config, BridgeError> {
        let exe = std::env::current_exe().map_err(|source| BridgeError::Io {
            what: "could not find the bridge's own executable".into(),
            source,
        })?;
        Ok(Config {
            servers: vec![ServerSpec {
                name: "demo".into(),
                command: exe.to_string_lossy().into_owned(),
                args: vec!["demo".into()],
                env: BTreeMap::new(),
                cwd: None,
            }],
            ..Config::default()
        })
    }

    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<Config, BridgeError> {
        let text = std::fs::read_to_string(path).map_err(|source| BridgeError::ReadConfig {
            path: path.to_owned(),
            source,
        })?;
        Config::parse(&text).map_err(|e| match e {
            BridgeError::InvalidConfig { why, .. } => BridgeError::InvalidConfig {
                path: Some(path.to_owned()),
                why,
            },
            other => other,
        })
    }

    /// Parses and checks config text.
    pub fn parse(text: &str) -> Result<Config, BridgeError> {
        let cfg: Config = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        cfg.check()?;
        Ok(cfg)
    }

    /// The server entry called `name`.
    pub fn server(&self, name: &str) -> Option<&ServerSpec> {
        self.servers.iter().find(|s| s.name == name)
    }

    /// The remote entry called `name`.
    pub fn remote(&self, name: &str) -> Option<&RemoteSpec> {
        self.remotes.iter().find(|r| r.name == name)
    }

    fn check(&self) -> Result<(), BridgeError> {
        let mut seen = HashSet::new();
        let names = self.servers.iter().map(|s| ("server", &s.name));
        let names = names.chain(self.remotes.iter().map(|r| ("remote", &r.name)));
        for (kind, name) in names {
            if !valid_name(name) {
                return Err(invalid(format!(
                    "{kind} name {name:?} must be 1-64 characters of A-Z a-z 0-9 . _ -"
                )));
            }
            // Servers and remotes share one namespace so a name is never ambiguous in the UI.
            if !seen.insert(name.as_str()) {
                return Err(invalid(format!("the name {name:?} is used twice")));
            }
        }
        for s in &self.servers {
            if s.command.is_empty() {
                return Err(invalid(format!("server {:?} has an empty command", s.name)));
            }
        }
        for r in &self.remotes {
            match reqwest::Url::parse(&r.url) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => {}
                _ => {
                    return Err(invalid(format!(
                        "remote {:?}: {:?} is not an absolute http(s) URL",
                        r.name, r.url
                    )));
                }
            }
            r.headers.check(&r.name).map_err(invalid)?;
        }
        for o in &self.allowed_origins {
            check_origin(o)?;
        }
        let l = &self.limits;
        if l.max_message_bytes < 1024 || l.max_message_bytes > (256 << 20) {
            return Err(invalid(
                "limits.max_message_bytes must be between 1 KiB and 256 MiB".into(),
            ));
        }
        if l.max_children == 0 || l.max_children > 1024 {
            return Err(invalid(
                "limits.max_children must be between 1 and 1024".into(),
            ));
        }
        if l.idle_seconds == 0 {
            return Err(invalid("limits.idle_seconds must be at least 1".into()));
        }
        Ok(())
    }
}

/// An allowed origin is exactly what a browser sends as `Origin` (scheme, host,
/// port; no path), over `https://`, or `http://` on a loopback host only: a page
/// served in clear from elsewhere could be rewritten on the way and use the bridge.
fn check_origin(o: &str) -> Result<(), BridgeError> {
    let shape = || {
        invalid(format!(
            "allowed origin {o:?} must look like https://host[:port] or http://localhost:port \
             (no path, no trailing slash)"
        ))
    };
    let url = match mcpg_safe_url::check(o) {
        Ok(checked) => checked.url().clone(),
        Err(mcpg_safe_url::Refusal::PlainHttp(host)) => {
            return Err(invalid(format!(
                "allowed origin {o:?} is plain http to {host:?}, which is not this machine; \
                 use https:// (or http:// on localhost, 127.0.0.1 or [::1])"
            )));
        }
        Err(_) => return Err(shape()),
    };
    if url.origin().ascii_serialization() != o {
        return Err(shape());
    }
    Ok(())
}

/// Whether `name` is acceptable as a server, remote or channel name: short and plain,
/// so it is safe in a URL, a log line and the UI.
pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

fn invalid(why: String) -> BridgeError {
    BridgeError::InvalidConfig { path: None, why }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_config_parses() {
        let cfg = Config::parse(
            r#"
            allowed_origins = ["http://localhost:8080", "https://example.org", "http://[::1]:3000"]
            [limits]
            max_message_bytes = 2048
            [[server]]
            name = "echo"
            command = "sh"
            args = ["-c", "cat"]
            env = { A = "1" }
            cwd = "/tmp"
            [[remote]]
            name = "far"
            url = "http://127.0.0.1:9/mcp"
            "#,
        )
        .unwrap();
        assert_eq!(cfg.servers[0].args, ["-c", "cat"]);
        assert_eq!(cfg.servers[0].env["A"], "1");
        assert_eq!(cfg.remote("far").unwrap().url, "http://127.0.0.1:9/mcp");
        assert_eq!(cfg.limits.max_message_bytes, 2048);
        assert_eq!(
            cfg.limits.max_children, 8,
            "unset limits keep their default"
        );
        assert_eq!(cfg.limits.idle_seconds, 600);
    }

    #[test]
    fn bad_configs_are_refused_with_a_reason() {
        for (text, needle) in [
            ("[[server]]\nname='a'\ncomand='x'", "comand"),
            (
                "[[server]]\nname='a'\ncommand='x'\n[[remote]]\nname='a'\nurl='http://x/'",
                "twice",
            ),
            ("[[server]]\nname='a b'\ncommand='x'", "must be"),
            ("[[remote]]\nname='r'\nurl='file:///etc/passwd'", "http(s)"),
            ("[limits]\nmax_children=0", "max_children"),
            ("allowed_origins=['*']", "allowed origin"),
            (
                "allowed_origins=['http://localhost:8080/']",
                "no trailing slash",
            ),
            ("allowed_origins=['https://a.example/app']", "no path"),
            ("allowed_origins=['http://a.example']", "plain http"),
            ("allowed_origins=['http://10.0.0.2:8080']", "plain http"),
            ("allowed_origins=['javascript:alert(1)']", "allowed origin"),
            (
                "[[remote]]\nname='r'\nurl='http://x/'\nheaders={Host='x'}",
                "set by the relay",
            ),
        ] {
            let err = Config::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?} gave {err:?}");
        }
    }

    #[test]
    fn the_default_config_lists_only_the_demo_as_this_executable() {
        let cfg = Config::default_for_demo().unwrap();
        assert_eq!(cfg.servers.len(), 1);
        assert_eq!(cfg.servers[0].name, "demo");
        assert_eq!(cfg.servers[0].args, ["demo"]);
        let exe = std::env::current_exe().unwrap();
        assert_eq!(Path::new(&cfg.servers[0].command), exe);
        assert!(cfg.remotes.is_empty());
    }
}
