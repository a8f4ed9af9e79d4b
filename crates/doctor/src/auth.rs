//! A 401: whether a client can find out where to sign in (RFC 9728 protected
//! resource metadata, then RFC 8414 / OpenID Connect authorization server
//! metadata), the way `mcpg-auth`'s flow discovers it.

use crate::check::{Check, Finding};

/// What the discovery showed, as the driver saw the flow's requests and answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuthSeen {
    /// The HTTP status of the refusal (401, or 403).
    pub status: u16,
    /// Whether the refusal carried `WWW-Authenticate: Bearer …`.
    pub challenge: bool,
    /// The protected resource metadata URL that answered, when one did.
    pub resource_metadata: Option<String>,
    /// The authorization server metadata URL that answered, when one did.
    pub server_metadata: Option<String>,
    /// Why discovery stopped short, when it did (the flow's error).
    pub failure: Option<String>,
    /// What the server or authorization server got wrong on the way (the flow's
    /// findings: rule, expected, got), in words.
    pub findings: Vec<String>,
    /// Whether a cached login is used for the checks that follow.
    pub cached_login: bool,
}

/// The fix that says how to sign in to `url` (`cached`: a cached login is
/// already in use).
pub fn sign_in_fix(url: &str, cached: bool) -> String {
    if cached {
        return format!(
            "The cached login is in use; `mcpg auth login --url {url}` renews it (the page \
             signs in from its Server panel)."
        );
    }
    format!(
        "Sign in with `mcpg auth login --url {url}`: every later command, this one \
         included, uses the cached token (the page signs in from its Server panel); or \
         pass a token with `--bearer-env VAR`."
    )
}

/// What a server (or its authorization server) must serve for discovery.
const METADATA_FIX: &str = "Serve RFC 9728 metadata at /.well-known/oauth-protected-resource \
     (naming it in WWW-Authenticate's resource_metadata) with `authorization_servers`, and \
     RFC 8414 metadata at the authorization server's /.well-known/oauth-authorization-server.";

/// Judges discovery after a refusal of `url`; `None` when the server did not
/// refuse (then the check is skipped).
pub fn discovery(url: &str, seen: Option<&AuthSeen>) -> Finding {
    let Some(seen) = seen else {
        return Finding::skip(Check::Auth, "the server did not ask for a sign-in");
    };
    let challenge = if seen.challenge {
        "with WWW-Authenticate: Bearer"
    } else {
        "without WWW-Authenticate"
    };
    let mut evidence = format!("HTTP {} {challenge}", seen.status);
    if let Some(prm) = &seen.resource_metadata {
        evidence.push_str(&format!("; protected resource metadata at {prm}"));
    }
    if let Some(asm) = &seen.server_metadata {
        evidence.push_str(&format!("; authorization server metadata at {asm}"));
    }
    if seen.cached_login {
        evidence.push_str("; the checks below use the cached login");
    }
    if let Some(why) = &seen.failure {
        return Finding::fail(
            Check::Auth,
            format!("{evidence}; discovery stopped: {why}"),
            METADATA_FIX,
        );
    }
    let sign_in = sign_in_fix(url, seen.cached_login);
    if !seen.findings.is_empty() {
        evidence.push_str(&format!("; but: {}", seen.findings.join("; ")));
        return Finding::warn(Check::Auth, evidence, format!("{METADATA_FIX} {sign_in}"));
    }
    Finding::pass(Check::Auth, evidence).with_fix(sign_in)
}
