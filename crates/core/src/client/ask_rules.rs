//! A server request the host will answer, checked against the negotiated
//! revision and what the client declared, before the host sees it: the host still
//! answers (these are findings, not refusals).

use serde_json::Value;

use super::Client;
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;
use crate::version::{Generation, ProtocolVersion};

impl Client {
    pub(super) fn check_server_ask(&mut self, method: &str, params: Option<&Value>, msg: &Message) {
        let version = self.negotiated.as_ref().map(|n| n.version);
        let before = |v: ProtocolVersion| version.is_some_and(|n| n < v);
        let mut found: Vec<(Rule, Severity, String)> = Vec::new();
        if version.is_some_and(|v| v.generation() == Generation::Stateless) {
            // Still surfaced: a host may answer, and the learner sees what happened.
            found.push((
                Rule::UnexpectedRequest,
                Severity::Warning,
                format!("{method} arrived as a request, but 2026-07-28 has no server-to-client requests: a server asks through an input_required result"),
            ));
        }
        match method {
            "elicitation/create" => {
                if before(ProtocolVersion::V2025_06_18) {
                    found.push((
                        Rule::FieldNotInVersion,
                        Severity::Warning,
                        "elicitation/create exists only from 2025-06-18".into(),
                    ));
                }
                self.on_elicit_request(params, msg);
            }
            "sampling/createMessage" => {
                let has = |k: &str| params.and_then(|p| p.get(k)).is_some_and(|v| !v.is_null());
                let declared = |k: &str| {
                    self.cfg
                        .capabilities
                        .get("sampling")
                        .is_some_and(|s| s.get(k).is_some())
                };
                if (has("tools") || has("toolChoice")) && before(ProtocolVersion::V2025_11_25) {
                    found.push((
                        Rule::FieldNotInVersion,
                        Severity::Warning,
                        "tools and toolChoice in sampling exist only from 2025-11-25".into(),
                    ));
                } else if has("tools") && !declared("tools") {
                    found.push((
                        Rule::CapabilityNotDeclared,
                        Severity::Warning,
                        "the server offers tools in sampling, but the client did not declare sampling.tools".into(),
                    ));
                }
                let context = params
                    .and_then(|p| p.get("includeContext"))
                    .and_then(Value::as_str);
                if matches!(context, Some("thisServer" | "allServers")) && !declared("context") {
                    found.push((
                        Rule::CapabilityNotDeclared,
                        Severity::Info,
                        format!("includeContext {context:?} without a declared sampling.context (servers should send \"none\" or leave it out)"),
                    ));
                }
            }
            _ => {}
        }
        for (rule, severity, text) in found {
            self.diag(Diagnostic::new(rule, severity, text).with_raw(msg.raw_shared()));
        }
    }
}
