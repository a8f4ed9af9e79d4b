//! The headers of a relayed request: those the page's request passes on
//! ([`to_remote`]), and those a `[[remote]]` adds, e.g. a server's API token:
//! `headers = { Authorization = "env:MY_TOKEN", X-Team = "blue" }`.
//!
//! A value `env:VAR` is read from the bridge's environment when it starts, so a
//! secret never has to be written in the config. Values are secrets: they are
//! never printed (`Debug` shows names only), never listed in `/api/servers`, and
//! an error names the header and the variable, never a value.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use axum::http::{HeaderName, HeaderValue};
use mcpg_core::client::is_transport_header;
use serde::{Deserialize, Serialize};

use crate::error::BridgeError;

/// The prefix of a value read from the environment.
const ENV_PREFIX: &str = "env:";

/// Whether the page's request header `name` is passed on to the remote: only the
/// ones Streamable HTTP itself sets.
pub(crate) fn to_remote(name: &HeaderName) -> bool {
    is_transport_header(name.as_str())
}

/// Framing headers the HTTP client sets; with the ones the relay passes from the
/// page ([`to_remote`]), a config cannot override them (the MCP session would
/// break, or the request would lie about its own framing).
const FRAMING: &[&str] = &["host", "content-length", "transfer-encoding", "connection"];

/// A remote's configured headers, name to value (`env:VAR` or a literal), as written.
#[derive(Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(transparent)]
pub struct RemoteHeaders(pub BTreeMap<String, String>);

// The values may be secrets (a literal token): only the names are shown.
impl fmt::Debug for RemoteHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl RemoteHeaders {
    /// Whether no header is configured (then the field is left out when written).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The environment variables its `env:` values read: secrets meant for the
    /// remote, which the bridge's stdio children must not inherit.
    pub fn env_vars(&self) -> impl Iterator<Item = &str> {
        self.0.values().filter_map(|v| v.strip_prefix(ENV_PREFIX))
    }

    /// Checks what can be checked before launch: names are valid and not
    /// reserved, `env:` names a variable, literals are valid header values.
    pub(crate) fn check(&self, remote: &str) -> Result<(), String> {
        for (name, value) in &self.0 {
            let Ok(parsed) = HeaderName::from_bytes(name.as_bytes()) else {
                return Err(format!("remote {remote:?}: {name:?} is not a header name"));
            };
            if FRAMING.contains(&parsed.as_str()) || to_remote(&parsed) {
                return Err(format!(
                    "remote {remote:?}: the header {name} is set by the relay and cannot be configured"
                ));
            }
            match value.strip_prefix(ENV_PREFIX) {
                Some(var) if !valid_var(var) => {
                    return Err(format!(
                        "remote {remote:?}: header {name} = \"env:…\" must name a variable (A-Z a-z 0-9 _)"
                    ));
                }
                Some(_) => {}
                None if HeaderValue::from_str(value).is_err() => {
                    return Err(format!(
                        "remote {remote:?}: the value of header {name} is not a valid header value"
                    ));
                }
                None => {}
            }
        }
        Ok(())
    }
}

fn valid_var(var: &str) -> bool {
    !var.is_empty() && var.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Every remote's headers with `env:` values read, ready to send; values marked
/// sensitive (so `http` never prints them) and hidden from `Debug`.
#[derive(Clone, Default)]
pub(crate) struct ResolvedHeaders(HashMap<String, Vec<(HeaderName, HeaderValue)>>);

impl fmt::Debug for ResolvedHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: BTreeMap<&str, Vec<&str>> = self
            .0
            .iter()
            .map(|(remote, hs)| {
                (
                    remote.as_str(),
                    hs.iter().map(|(n, _)| n.as_str()).collect(),
                )
            })
            .collect();
        f.debug_tuple("ResolvedHeaders").field(&names).finish()
    }
}

impl ResolvedHeaders {
    /// Reads every `env:VAR` of each remote's (name, headers) through `env` (the
    /// bridge passes `std::env::var`).
    pub(crate) fn resolve<'a>(
        remotes: impl IntoIterator<Item = (&'a str, &'a RemoteHeaders)>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<ResolvedHeaders, BridgeError> {
        let mut out = HashMap::new();
        for (remote, written_headers) in remotes {
            let mut headers = Vec::new();
            for (name, written) in &written_headers.0 {
                let value = match written.strip_prefix(ENV_PREFIX) {
                    Some(var) => env(var).ok_or_else(|| {
                        invalid(format!(
                            "remote {remote:?}: header {name} reads the environment variable {var}, which is not set"
                        ))
                    })?,
                    None => written.clone(),
                };
                let mut value = HeaderValue::from_str(&value).map_err(|_| {
                    invalid(format!(
                        "remote {remote:?}: header {name}: the value from {} is not a valid header value",
                        written.strip_prefix(ENV_PREFIX).unwrap_or("the config")
                    ))
                })?;
                value.set_sensitive(true);
                let name = HeaderName::from_bytes(name.as_bytes())
                    .map_err(|_| invalid(format!("remote {remote:?}: bad header name")))?;
                headers.push((name, value));
            }
            out.insert(remote.to_owned(), headers);
        }
        Ok(ResolvedHeaders(out))
    }

    /// The headers for remote `name` (none when it has none).
    pub(crate) fn of(&self, name: &str) -> &[(HeaderName, HeaderValue)] {
        self.0.get(name).map_or(&[], Vec::as_slice)
    }
}

fn invalid(why: String) -> BridgeError {
    BridgeError::InvalidConfig { path: None, why }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "a test fails by panicking")]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> RemoteHeaders {
        RemoteHeaders(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    #[test]
    fn env_values_are_read_at_launch_and_literals_kept() {
        let written = headers(&[("Authorization", "env:FAR_TOKEN"), ("X-Team", "blue")]);
        assert_eq!(written.check("far"), Ok(()));
        let env = |var: &str| (var == "FAR_TOKEN").then(|| "Bearer s3cret".to_owned());
        let resolved = ResolvedHeaders::resolve([("far", &written)], env).unwrap();
        let got: Vec<(&str, &str)> = resolved
            .of("far")
            .iter()
            .map(|(n, v)| (n.as_str(), v.to_str().unwrap()))
            .collect();
        assert_eq!(
            got,
            [("authorization", "Bearer s3cret"), ("x-team", "blue")]
        );
        assert!(resolved.of("far").iter().all(|(_, v)| v.is_sensitive()));
        assert!(resolved.of("near").is_empty());
        // Neither form ever prints a value.
        let shown = format!("{resolved:?} {written:?}");
        assert!(
            !shown.contains("s3cret") && !shown.contains("blue"),
            "{shown}"
        );
        assert!(
            shown.contains("authorization") && shown.contains("X-Team"),
            "{shown}"
        );
    }

    #[test]
    fn a_missing_variable_is_named_and_no_value_is_shown() {
        let written = headers(&[
            ("Authorization", "env:NOT_SET_HERE"),
            ("X-Secret", "literal-secret"),
        ]);
        let err = ResolvedHeaders::resolve([("far", &written)], |_| None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("NOT_SET_HERE") && err.contains("Authorization"),
            "{err}"
        );
        assert!(!err.contains("literal-secret"), "{err}");
        let bad = ResolvedHeaders::resolve([("far", &written)], |_| Some("line\nbreak".into()))
            .unwrap_err()
            .to_string();
        assert!(
            bad.contains("NOT_SET_HERE") && !bad.contains("break"),
            "{bad}"
        );
    }

    #[test]
    fn reserved_and_malformed_headers_are_refused_before_launch() {
        for ((name, value), needle) in [
            (("Mcp-Session-Id", "x"), "set by the relay"),
            (("Host", "x"), "set by the relay"),
            (("Mcp-Param-City", "x"), "set by the relay"),
            (("Bad Name", "x"), "not a header name"),
            (("X-A", "env:"), "must name a variable"),
            (("X-A", "env:A-B"), "must name a variable"),
            (("X-A", "a\nb"), "not a valid header value"),
        ] {
            let err = headers(&[(name, value)]).check("far").unwrap_err();
            assert!(err.contains(needle), "{name}: {value:?} gave {err}");
        }
    }
}
