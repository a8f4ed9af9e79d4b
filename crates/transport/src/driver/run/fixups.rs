//! Where the driver makes up for what the core does not do yet. Each of these
//! belongs in the core; they live here until it has them (see the notes on each).

use mcpg_core::Generation;
use mcpg_core::client::Outgoing;
use mcpg_core::model::Tool;
use serde_json::Value;

use super::Loop;
use crate::driver::param_headers;
use crate::driver::report::Observed;

impl Loop {
    /// 2026-07-28: a client MUST leave out tools whose `x-mcp-header` annotations
    /// are invalid (SEP-2243); the core does not check them yet.
    pub(super) fn drop_invalid(&mut self, tools: Vec<Tool>) -> Vec<Tool> {
        if !self.stateless() {
            return tools;
        }
        let mut kept = Vec::with_capacity(tools.len());
        for t in tools {
            match param_headers::invalid(&t) {
                Some(why) => {
                    self.observe(
                        Observed::Notice(format!("left out tool `{}`: {why}", t.name)),
                        true,
                    );
                    self.dropped.insert(t.name);
                }
                None => kept.push(t),
            }
        }
        kept
    }

    pub(super) fn stateless(&self) -> bool {
        self.client
            .negotiated()
            .is_some_and(|n| n.generation == Generation::Stateless)
    }

    /// `Mcp-Param-*` headers for a 2026-07-28 `tools/call` (see [`param_headers`]).
    pub(super) fn param_headers(&self, out: &Outgoing) -> Vec<(String, String)> {
        if !self.stateless() || out.message.method() != Some("tools/call") {
            return Vec::new();
        }
        let params = out.message.value().get("params");
        let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let args = params
            .and_then(|p| p.get("arguments"))
            .and_then(Value::as_object);
        match name.and_then(|n| self.client.known_tool(n)) {
            Some(tool) => param_headers::headers(tool, args),
            None => Vec::new(),
        }
    }
}
