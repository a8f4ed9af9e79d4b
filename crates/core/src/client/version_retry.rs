//! 2026-07-28: a request refused with `UnsupportedProtocolVersion` is sent again
//! under a revision both sides speak (or negotiation falls back to `initialize`).

use serde_json::Value;

use super::GenerationMode;
use super::stamp::strip_stamp;
use super::{Client, Pending, What};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::RpcError;
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

impl Client {
    /// 2026-07-28: on `UnsupportedProtocolVersion`, retry with a revision both sides speak.
    pub(super) fn retry_version(&mut self, now: Timestamp, p: &Pending, error: &RpcError) -> bool {
        let Some(current) = self
            .stamp_version()
            .filter(|v| v.generation() == Generation::Stateless)
        else {
            return false;
        };
        let supported: Vec<String> = error
            .data
            .as_ref()
            .and_then(|d| d.get("supported"))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let shared = supported
            .iter()
            .filter_map(|s| ProtocolVersion::parse(s))
            // The current revision may be retried once: a server can refuse it in one
            // place (a stale cache, a proxy) while listing it as supported.
            .filter(|v| {
                self.cfg.versions.contains(v)
                    && (*v != current || !self.version_retried.contains(&p.op))
            })
            .max();
        match shared {
            Some(v) if v.generation() == Generation::Stateless => {
                self.version_retried.insert(p.op);
                let text = if v == current {
                    format!(
                        "the server refused {} for {current} yet lists {current} as supported; sending it once more",
                        p.method
                    )
                } else {
                    format!(
                        "the server does not accept {current}; retrying {} with {v}",
                        p.method
                    )
                };
                self.diag(Diagnostic::new(Rule::Negotiation, Severity::Info, text));
                if let Some(n) = &mut self.negotiated {
                    n.version = v;
                } else {
                    self.trying = Some(v);
                }
                self.send_request(
                    now,
                    p.op,
                    p.what.clone(),
                    &p.method,
                    strip_stamp(p.params.clone()),
                    p.timeout,
                );
                true
            }
            Some(_) if matches!(p.what, What::Probe) && self.cfg.mode == GenerationMode::Auto => {
                let d = Diagnostic::new(
                    Rule::Negotiation,
                    Severity::Info,
                    format!(
                        "the server supports only [{}]; falling back to initialize",
                        supported.join(", ")
                    ),
                );
                self.diag(d);
                self.start_initialize(now);
                true
            }
            _ => false,
        }
    }
}
