//! Negotiation: the `server/discover` probe, the `initialize` handshake, the
//! fallback between them, and the retry of a request under another revision.

use serde_json::{Value, json};

use super::{Client, Phase, What};
use super::{ConnectError, Event, Failure, GenerationMode, Negotiated};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Message, RequestId};
use crate::model::{DiscoverResult, InitializeResult, meta};
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

impl Client {
    /// Starts negotiation (called implicitly by the first request).
    pub fn connect(&mut self, now: Timestamp) {
        if self.phase != Phase::Idle {
            return;
        }
        match self.cfg.mode {
            GenerationMode::Initialize => self.start_initialize(now),
            GenerationMode::Stateless | GenerationMode::Auto => {
                match self.cfg.newest_stateless_version() {
                    Some(v) => self.start_probe(now, v),
                    None => self.start_initialize(now),
                }
            }
        }
    }

    /// A slow server answered the probe after the fallback to `initialize` began. If
    /// it speaks a stateless revision we share, that is the better answer (a stateless
    /// server refuses `initialize`), so the pending handshake is abandoned.
    pub(super) fn adopt_late_probe(
        &mut self,
        now: Timestamp,
        msg: &Message,
        result: &Value,
    ) -> bool {
        if self.phase != Phase::Initializing {
            return false;
        }
        let shares_stateless = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().and_then(ProtocolVersion::parse))
            .any(|v| v.generation() == Generation::Stateless && self.cfg.versions.contains(&v));
        if !shares_stateless {
            return false;
        }
        self.late_probe = None;
        let handshakes: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, p)| matches!(p.what, What::Initialize(_)))
            .map(|(id, _)| id.clone())
            .collect();
        for id in handshakes {
            if let Some(p) = self.pending.remove(&id) {
                self.forget(&id, &p);
            }
        }
        self.diag(Diagnostic::new(Rule::Negotiation, Severity::Info, "the server/discover answer arrived after the probe timed out; the server speaks 2026-07-28, so the initialize fallback is dropped"));
        self.on_discover(now, msg, result);
        true
    }

    pub(super) fn start_probe(&mut self, now: Timestamp, v: ProtocolVersion) {
        self.phase = Phase::Probing;
        self.trying = Some(v);
        let op = self.new_op();
        let timeout = if self.cfg.mode == GenerationMode::Auto && !self.reprobed {
            self.cfg.probe_timeout
        } else {
            self.cfg.request_timeout
        };
        self.send_request(now, op, What::Probe, "server/discover", None, timeout);
    }

    pub(super) fn start_initialize(&mut self, now: Timestamp) {
        let Some(v) = self.cfg.newest_initialize_version() else {
            self.connect_failed("the server does not speak 2026-07-28 and this client is configured for no earlier revision".into());
            return;
        };
        self.phase = Phase::Initializing;
        self.trying = None;
        self.negotiated = None;
        let op = self.new_op();
        let params = json!({
            "protocolVersion": v.as_str(),
            "capabilities": Value::Object(self.cfg.capabilities.clone()),
            "clientInfo": self.cfg.client_info,
        });
        let timeout = self.cfg.request_timeout;
        self.send_request(
            now,
            op,
            What::Initialize(v),
            "initialize",
            Some(params),
            timeout,
        );
    }

    pub(super) fn on_discover(&mut self, now: Timestamp, msg: &Message, result: &Value) {
        let parsed = DiscoverResult::from_json(result);
        let Ok(d) = parsed else {
            return self.probe_fallback(
                now,
                "its server/discover result could not be read".into(),
                None,
                msg,
            );
        };
        let ours: Vec<ProtocolVersion> = self.cfg.versions.clone();
        let shared = d
            .supported_versions
            .iter()
            .filter_map(|s| ProtocolVersion::parse(s))
            .filter(|v| ours.contains(v))
            .max();
        match shared {
            Some(v) if v.generation() == Generation::Stateless => {
                if d.result_type.is_none() {
                    self.diag(Diagnostic::new(Rule::MissingResultType, Severity::Warning, "server/discover result has no resultType (required in 2026-07-28; read as \"complete\")"));
                }
                let server_info = d
                    .meta
                    .as_ref()
                    .and_then(|m| m.get(meta::SERVER_INFO))
                    .and_then(|v| crate::model::Implementation::from_json(v).ok());
                let n = Negotiated {
                    generation: Generation::Stateless,
                    version: v,
                    server_info,
                    capabilities: d.capabilities.clone(),
                    instructions: d.instructions.clone(),
                    server_versions: d.supported_versions.clone(),
                    result: result.clone(),
                };
                self.connected(now, n);
            }
            _ => {
                let listed = d.supported_versions.join(", ");
                self.probe_fallback(
                    now,
                    format!(
                        "it lists no stateless revision we share (supportedVersions: [{listed}])"
                    ),
                    None,
                    msg,
                );
            }
        }
    }

    /// The probe did not find a stateless server (`why`; `refused`: the HTTP status
    /// it was refused with): fall back to `initialize`, or fail when configured for
    /// 2026-07-28 only.
    pub(super) fn probe_fallback(
        &mut self,
        now: Timestamp,
        why: String,
        refused: Option<u16>,
        msg: &Message,
    ) {
        if self.cfg.mode == GenerationMode::Stateless {
            return self.connect_failed(ConnectError {
                why: format!("the server does not speak 2026-07-28: {why}"),
                refused,
            });
        }
        let d = Diagnostic::new(
            Rule::Negotiation,
            Severity::Info,
            format!("server/discover probe: {why}; falling back to initialize"),
        )
        .with_raw(msg.raw_shared());
        self.diag(d);
        self.start_initialize(now);
    }

    pub(super) fn on_initialize(
        &mut self,
        now: Timestamp,
        offered: ProtocolVersion,
        msg: &Message,
        result: &Value,
    ) {
        let parsed = InitializeResult::from_json(result);
        let Ok(r) = parsed else {
            let d = Diagnostic::new(
                Rule::ResultShape,
                Severity::Error,
                "the initialize result could not be read",
            )
            .with_raw(msg.raw_shared());
            self.diag(d);
            return self.connect_failed("the initialize result could not be read".into());
        };
        let Some(v) = ProtocolVersion::parse(&r.protocol_version)
            .filter(|v| self.cfg.versions.contains(v) && v.generation() == Generation::Initialize)
        else {
            let d = Diagnostic::new(
                Rule::VersionNotOffered,
                Severity::Error,
                format!("the server chose protocol version {:?}, which this client does not speak (offered {offered})", r.protocol_version),
            )
            .with_raw(msg.raw_shared());
            self.diag(d);
            return self.connect_failed(
                format!("unsupported protocol version {:?}", r.protocol_version).into(),
            );
        };
        if v != offered {
            self.diag(Diagnostic::new(
                Rule::Negotiation,
                Severity::Info,
                format!("asked for {offered}, the server chose {v}; using {v}"),
            ));
        }
        if r.server_info.name.is_empty() {
            self.diag(Diagnostic::new(
                Rule::ResultShape,
                Severity::Warning,
                "initialize result has no serverInfo.name",
            ));
        }
        let n = Negotiated {
            generation: Generation::Initialize,
            version: v,
            server_info: Some(r.server_info.clone()),
            capabilities: r.capabilities.clone(),
            instructions: r.instructions.clone(),
            server_versions: vec![r.protocol_version.clone()],
            result: result.clone(),
        };
        // Record the revision first: `initialized` already needs its HTTP header.
        self.negotiated = Some(n.clone());
        self.transmit(
            now,
            Message::notification("notifications/initialized", None),
        );
        self.connected(now, n);
    }

    pub(super) fn connected(&mut self, now: Timestamp, n: Negotiated) {
        self.phase = Phase::Ready;
        self.trying = None;
        let stateless = n.generation == Generation::Stateless;
        self.negotiated = Some(n.clone());
        self.events.push_back(Event::Connected(n));
        let mut waiting = std::mem::take(&mut self.waiting);
        if stateless {
            waiting = self.open_stateless(now, waiting);
        } else {
            self.restore_session(now);
        }
        for d in waiting {
            self.send_request(now, d.op, d.what, &d.method, d.params, d.timeout);
        }
    }

    pub(super) fn connect_failed(&mut self, e: ConnectError) {
        self.phase = Phase::Closed;
        self.fail_waiting(&Failure::NotConnected(e.clone()));
        self.events.push_back(Event::ConnectFailed(e));
    }
}
