//! A finished loop as a recording (`crates/recording`): the same format the
//! page records and opens as a replay. The page replays by sending its own frames
//! and finding each one in the recording, so the run must have sent what the page
//! sends: the page lists tools for its Tools panel as soon as it is connected, and
//! the loop's own listing comes after (see `run`).

use mcpg_core::client::Direction;
use mcpg_host::ToolLoop;
use mcpg_recording::{Connection, ModelChoice, Recording, WireRecord};
use serde_json::json;

use super::model::ModelSpec;
use super::tap::Tap;

/// The session of one loop run for `prompt`.
pub fn session(
    connection: Connection,
    spec: &ModelSpec,
    prompt: &str,
    run: &ToolLoop,
    tap: &Tap,
) -> Recording {
    let mut s = Recording::new(connection);
    let provider = spec.provider();
    let mut model = ModelChoice {
        kind: match spec {
            ModelSpec::Mock(_) => "mock".into(),
            ModelSpec::Real { .. } => provider.id().into(),
        },
        format: Some(provider.id().into()),
        ..ModelChoice::default()
    };
    if let ModelSpec::Real { model: name, .. } = spec {
        // The model name only: the base URL may name a private host.
        model.settings.insert("model".into(), name.clone().into());
    }
    s.model = model;
    s.messages = vec![prompt.to_owned()];
    // Every turn the model took, so the replay says exactly the same.
    s.script = run.played().iter().map(|t| t.to_value()).collect();
    let frames = tap.frames();
    let start = frames.first().map_or(0, |w| w.at.as_millis());
    s.wire = frames
        .iter()
        .map(|w| WireRecord {
            direction: match w.direction {
                Direction::Sent => mcpg_recording::Direction::Sent,
                Direction::Received => mcpg_recording::Direction::Received,
            },
            at_ms: w.at.as_millis().saturating_sub(start),
            text: Some(w.raw.to_string()),
            hash: None,
        })
        .collect();
    s.steps = run
        .steps()
        .iter()
        .map(|x| json!({"n": x.number, "status": x.status.as_str()}))
        .collect();
    s.cursor = s.steps.len();
    s.redact();
    s
}

/// `session` with every copy of each of `secrets` masked (a server may echo a
/// header it was sent, and the wire records keep what it said). Should the masked
/// document not read back, the wire texts go instead: a link never carries a secret.
pub fn hide(session: Recording, secrets: &[String]) -> Recording {
    let text = session.to_json().to_string();
    if !secrets.iter().any(|s| text.contains(s.as_str())) {
        return session;
    }
    let masked = crate::headers::scrub(&text, secrets);
    match serde_json::from_str(&masked).map(|v| Recording::from_json(&v)) {
        Ok(Ok(s)) => s,
        _ => {
            let mut s = session;
            for w in &mut s.wire {
                w.text = None;
            }
            s
        }
    }
}

/// The session's connection for the flags: a URL without credentials, or a stdio
/// server under the name the bridge config would give it (`name`, else the
/// command's program name).
pub fn connection(stdio: Option<&str>, url: Option<&str>, name: Option<&str>) -> Connection {
    match (stdio, url) {
        (_, Some(u)) => Connection::Url { url: public_url(u) },
        (Some(line), None) => {
            let program = line.split_whitespace().next().unwrap_or("server");
            let base = program.rsplit('/').next().unwrap_or(program);
            Connection::Bridge {
                server: name.unwrap_or(base).to_owned(),
            }
        }
        (None, None) => Connection::Embedded,
    }
}

/// `url` without user name, password, query or fragment (they may carry secrets).
fn public_url(url: &str) -> String {
    let cut = url.find(['?', '#']).map_or(url, |i| &url[..i]);
    match cut.split_once("://") {
        Some((scheme, rest)) => {
            let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
            let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
            let slash = if rest.contains('/') { "/" } else { "" };
            format!("{scheme}://{host}{slash}{path}")
        }
        None => cut.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_keep_no_secret() {
        assert_eq!(
            connection(None, Some("https://u:pw@example.com/mcp?token=1"), None),
            Connection::Url {
                url: "https://example.com/mcp".into()
            }
        );
        assert_eq!(
            connection(Some("/usr/bin/mcpg demo"), None, None),
            Connection::Bridge {
                server: "mcpg".into()
            }
        );
        assert_eq!(
            connection(Some("mcpg demo"), None, Some("demo")),
            Connection::Bridge {
                server: "demo".into()
            }
        );
    }
}
