//! The checks that need a session, over either transport: `server/discover` and
//! `initialize` on connections of their own, the revisions, then on the session
//! that worked (the newer generation first) every page of `tools/list`, the
//! tools' headers and schemas, and the declared capabilities against answers.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpg_core::client::{ClientConfig, Direction, GenerationMode, Negotiated};
use mcpg_doctor::capabilities::{self, Answered, FeatureSeen};
use mcpg_doctor::handshake::{self, HandshakeSeen};
use mcpg_doctor::tools::{self, ListingSeen};
use mcpg_doctor::{Check, Report};
use mcpg_transport::{Driver, DriverConfig, DriverError, Observed, Observer};

use crate::exit::Failure;

/// Starts a driver for one generation with the given config (nothing sent yet).
pub type Opener<'a> = dyn Fn(DriverConfig) -> Result<Driver, Failure> + 'a;

/// The frames one connection carried: `(sent by us, text)`.
type Wire = Arc<Mutex<Vec<(bool, String)>>>;

/// Runs the session checks into `report`.
pub async fn check(report: &mut Report, open: &Opener<'_>, timeout: Duration) {
    let discover = connect(open, GenerationMode::Stateless, "server/discover", timeout).await;
    let initialize = connect(open, GenerationMode::Initialize, "initialize", timeout).await;
    report.push(handshake::discover(&discover.0, initialize.0.agreed()));
    report.push(handshake::initialize(&initialize.0, discover.0.agreed()));
    let older = if initialize.0.agreed() {
        accepted_older(open, timeout).await
    } else {
        Vec::new()
    };
    report.push(handshake::revisions(&discover.0, &initialize.0, &older));
    // The session a client that probes first ends up with.
    let (chosen, other) = if discover.0.agreed() {
        (discover, initialize)
    } else {
        (initialize, discover)
    };
    close(other.1).await;
    match (chosen.1, chosen.2) {
        (Some(d), Some(n)) => {
            on_session(report, &d, &n).await;
            close(Some(d)).await;
        }
        (d, _) => {
            close(d).await;
            let why = if matches!(chosen.0, HandshakeSeen::SignIn) {
                "the server wants a sign-in first"
            } else {
                "no handshake worked"
            };
            report.skip_rest(&Check::SESSION, why);
        }
    }
}

/// The older revisions the server accepts when a client offers only that one
/// (`initialize` shows only its choice for the newest offered): one short
/// connection each, as `--protocol-version` pins them.
async fn accepted_older(open: &Opener<'_>, timeout: Duration) -> Vec<String> {
    let mut out = Vec::new();
    for v in handshake::older_revisions() {
        let mut client = ClientConfig {
            request_timeout: timeout,
            ..ClientConfig::default()
        };
        client.pin_version(v);
        let cfg = DriverConfig {
            client,
            observer: None,
            handler: None,
        };
        let Ok(d) = open(cfg) else { continue };
        if d.connect().await.is_ok_and(|n| n.version == v) {
            out.push(v.as_str().to_owned());
        }
        close(Some(d)).await;
    }
    out
}

async fn close(d: Option<Driver>) {
    if let Some(d) = d {
        let _ = d.close().await;
    }
}

/// One connection of `mode`, and how its handshake (`method`) went.
async fn connect(
    open: &Opener<'_>,
    mode: GenerationMode,
    method: &str,
    timeout: Duration,
) -> (HandshakeSeen, Option<Driver>, Option<Negotiated>) {
    let wire: Wire = Arc::default();
    let tap = wire.clone();
    let observer: Observer = Arc::new(move |o: &Observed| {
        if let Observed::Wire(w) = o {
            let mut frames = tap
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            frames.push((w.direction == Direction::Sent, w.raw.to_string()));
        }
    });
    let client = ClientConfig {
        mode,
        request_timeout: timeout,
        probe_timeout: timeout,
        ..ClientConfig::default()
    };
    let cfg = DriverConfig {
        client,
        observer: Some(observer),
        handler: None,
    };
    let d = match open(cfg) {
        Ok(d) => d,
        Err(f) => return (HandshakeSeen::Failed(f.message), None, None),
    };
    match d.connect().await {
        Ok(n) => {
            let seen = HandshakeSeen::Agreed {
                version: n.version.as_str().to_owned(),
                server_versions: n.server_versions.clone(),
            };
            (seen, Some(d), Some(n))
        }
        Err(e) => {
            let frames = wire
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone();
            let seen = judged_error(&e, &frames, method);
            (seen, Some(d), None)
        }
    }
}

/// What a failed handshake was (the judging is `handshake::failed`).
fn judged_error(e: &DriverError, frames: &[(bool, String)], method: &str) -> HandshakeSeen {
    handshake::failed(e.refused(), &e.to_string(), frames, method)
}

/// The checks on an open session.
async fn on_session(report: &mut Report, d: &Driver, n: &Negotiated) {
    let declared = |f: &str| n.capabilities.contains_key(f);
    let listing = match d.list_tools().await {
        Ok(l) => ListingSeen::Listed(
            l.responses
                .iter()
                .filter_map(|m| m.result().cloned())
                .collect(),
        ),
        Err(DriverError::Rpc { error, .. }) => ListingSeen::Refused {
            code: error.code,
            message: error.message.clone(),
        },
        Err(e) => ListingSeen::Failed(e.to_string()),
    };
    report.push(tools::list(&listing, declared("tools")));
    match &listing {
        ListingSeen::Listed(pages) => {
            report.push(tools::param_headers(pages, n.version));
            report.push(tools::schemas(pages, n.version));
        }
        _ => report.skip_rest(
            &[Check::ParamHeaders, Check::ToolSchemas],
            "no tools were listed",
        ),
    }
    let mut features = Vec::new();
    for (feature, method) in capabilities::FEATURES {
        let answered = if feature == "tools" {
            match &listing {
                ListingSeen::Listed(_) => Answered::Yes,
                ListingSeen::Refused { code, message } => Answered::Error {
                    code: *code,
                    message: message.clone(),
                },
                ListingSeen::Failed(why) => Answered::Failed(why.clone()),
            }
        } else {
            match d.request(method, None).await {
                Ok(_) => Answered::Yes,
                Err(DriverError::Rpc { error, .. }) => Answered::Error {
                    code: error.code,
                    message: error.message.clone(),
                },
                Err(e) => Answered::Failed(e.to_string()),
            }
        };
        features.push(FeatureSeen {
            feature,
            method,
            declared: declared(feature),
            answered,
        });
    }
    report.push(capabilities::capabilities(&features));
}
