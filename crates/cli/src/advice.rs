//! The `hint:` line under a failure: what the advice table (`mcpg-advice`) says
//! about the server's answer, and the flags that get past it.

use mcpg_advice::advise;
use mcpg_core::client::GenerationMode;
use mcpg_core::{Generation, ProtocolVersion};

use crate::args::{Connection, HttpTransportArg, Protocol};
use crate::exit::Failure;

/// `f`, its answer known to have been sent under `version` (unless it says).
pub fn under(mut f: Failure, version: ProtocolVersion) -> Failure {
    if let Some(s) = f.situation.as_mut()
        && s.revision.is_none()
    {
        s.revision = Some(version);
    }
    f
}

/// `f`, with the generations the flags allowed the client.
pub fn allowing(mut f: Failure, conn: &Connection) -> Failure {
    if let Some(s) = f.situation.as_mut() {
        s.mode = mode(conn);
    }
    f
}

/// The generations `--protocol`, `--protocol-version` and `--transport` allow (a
/// pinned revision brings its generation, as `connect` configures the client).
fn mode(conn: &Connection) -> GenerationMode {
    let pinned = conn
        .protocol_version
        .as_deref()
        .and_then(|r| ProtocolVersion::parse(r.trim()));
    match (pinned.map(ProtocolVersion::generation), conn.protocol) {
        (Some(Generation::Stateless), _) | (None, Protocol::Stateless) => GenerationMode::Stateless,
        (Some(Generation::Initialize), _) | (None, Protocol::Initialize) => {
            GenerationMode::Initialize
        }
        (None, Protocol::Auto) if conn.transport == HttpTransportArg::Sse => {
            GenerationMode::Initialize
        }
        (None, Protocol::Auto) => GenerationMode::Auto,
    }
}

/// The hint for `f` (without the `hint: ` prefix), when the table knows its shape:
/// what happened and why, then the flags in parentheses. Built from the table's
/// own words only (no server text, no header value); printed escaped all the same.
pub fn hint(f: &Failure) -> Option<String> {
    let a = advise(f.situation.as_deref()?)?;
    Some(match a.cli {
        Some(fix) => format!("{} (fix: {fix})", a.why),
        None => a.why,
    })
}
