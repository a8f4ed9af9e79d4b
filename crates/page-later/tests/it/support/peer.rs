//! A hand-written MCP server behind a bridge link, for the Resources, Prompts and
//! Logs panels: two pages of resources, a template with completions, a resource
//! that changes, a prompt with an argument, logging, and a tool for the loop. It
//! speaks 2025-11-25 (`initialize`) or 2026-07-28 (`server/discover`), and records
//! every request it receives.

use mcpg_page::{Command, Conn, Input, Source};
use serde_json::{Value, json};

use super::Shell;

/// The peer's state.
#[derive(Default)]
pub struct Peer {
    /// Declare only `tools` (a server without resources, prompts or logging).
    pub tools_only: bool,
    /// Every request and notification received, parsed.
    pub seen: Vec<Value>,
    /// The changing resource's version.
    pub count: u32,
    /// Stamp `resultType` (2026-07-28).
    pub stateless: bool,
    /// What `tools/call` returns instead of the usual weather.
    pub call_result: Option<Value>,
    /// Declare the Skills extension and serve this `skills/list` result, and these
    /// `skill://` files by URI (what `resources/read` returns).
    pub skills: Option<(Value, Vec<(String, String)>)>,
}

fn capabilities(tools_only: bool) -> Value {
    if tools_only {
        return json!({"tools": {}});
    }
    json!({"tools": {}, "resources": {"subscribe": true, "listChanged": true},
        "prompts": {}, "completions": {}, "logging": {}})
}

fn text(uri: &str, text: &str, mime: &str) -> Value {
    json!({"contents": [{"uri": uri, "mimeType": mime, "text": text}]})
}

impl Peer {
    /// The answer to one request (`None` for a notification).
    fn answer(&mut self, m: &Value) -> Option<Value> {
        let id = m.get("id")?.clone();
        let p = &m["params"];
        let skill_file = p["uri"]
            .as_str()
            .and_then(|u| self.skills.as_ref()?.1.iter().find(|(f, _)| f == u))
            .cloned();
        let mut result = match m["method"].as_str().unwrap_or("") {
            "skills/list" if self.skills.is_some() => {
                self.skills.as_ref().map(|s| s.0.clone()).unwrap()
            }
            "resources/read" if skill_file.is_some() => {
                let (uri, body) = skill_file.unwrap();
                text(&uri, &body, "text/markdown")
            }
            "initialize" => json!({"protocolVersion": "2025-11-25",
                "capabilities": capabilities(self.tools_only),
                "serverInfo": {"name": "scripted", "version": "1"}}),
            "server/discover" => {
                self.stateless = true;
                let mut caps = capabilities(self.tools_only);
                if self.skills.is_some() {
                    caps["extensions"] = json!({"io.modelcontextprotocol/skills": {}});
                }
                json!({"supportedVersions": ["2026-07-28"],
                    "capabilities": caps,
                    "serverInfo": {"name": "scripted", "version": "1"}})
            }
            "tools/list" => {
                json!({"tools": [{"name": "get_weather", "description": "Weather for a city",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]})
            }
            "tools/call" if self.call_result.is_some() => self.call_result.clone().unwrap(),
            "tools/call" => json!({"content": [{"type": "text", "text": "Austin: 91F, sunny"},
                {"type": "resource_link", "uri": "counter://visits", "name": "visits"}]}),
            "resources/list" if p["cursor"] == "p2" => {
                json!({"resources": [{"uri": "hostile://page", "name": "hostile", "mimeType": "text/html"}]})
            }
            "resources/list" => json!({"resources": [
                {"uri": "note://readme", "name": "readme", "mimeType": "text/plain"},
                {"uri": "counter://visits", "name": "visits", "mimeType": "application/json"}],
                "nextCursor": "p2"}),
            "resources/templates/list" => json!({"resourceTemplates": [
                {"uriTemplate": "weather://{city}/today", "name": "weather"}]}),
            "resources/read" => match p["uri"].as_str().unwrap_or("") {
                "counter://visits" => text(
                    "counter://visits",
                    &format!("{{\"visits\":{}}}", self.count),
                    "application/json",
                ),
                "hostile://page" => text(
                    "hostile://page",
                    "<img src=x onerror=alert(1)>",
                    "text/html",
                ),
                uri => text(uri, "hello", "text/plain"),
            },
            "resources/subscribe" | "resources/unsubscribe" | "logging/setLevel" => json!({}),
            "completion/complete" => {
                let typed = p["argument"]["value"].as_str().unwrap_or("").to_owned();
                let values: Vec<&str> = ["Austin", "Boston", "Berlin"]
                    .into_iter()
                    .filter(|c| c.to_lowercase().starts_with(&typed.to_lowercase()))
                    .collect();
                json!({"completion": {"values": values, "total": values.len(), "hasMore": false}})
            }
            "prompts/list" => {
                json!({"prompts": [{"name": "plan_trip", "description": "Plan a trip",
                "arguments": [{"name": "city", "required": true}]}]})
            }
            "prompts/get" => {
                let city = p["arguments"]["city"].as_str().unwrap_or("?");
                json!({"description": "A trip", "messages": [
                    {"role": "user", "content": {"type": "text", "text": "You plan trips."}},
                    {"role": "assistant", "content": {"type": "text", "text": "Which city?"}},
                    {"role": "user", "content": {"type": "text", "text": format!("What's the weather in {city}?")}}]})
            }
            _ => {
                return Some(
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no such method"}}),
                );
            }
        };
        if self.stateless {
            result["resultType"] = json!("complete");
        }
        Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }

    /// Relays frames both ways until nothing moves.
    pub fn serve(&mut self, s: &mut Shell) {
        loop {
            let frames = s.take_frames();
            if frames.is_empty() {
                return;
            }
            for f in frames {
                let m: Value = serde_json::from_str(&f).unwrap();
                let answer = self.answer(&m);
                self.seen.push(m);
                if let Some(a) = answer {
                    s.input(Input::Frame {
                        conn: s.d.conn(),
                        text: a.to_string(),
                    });
                }
            }
        }
    }

    /// Sends a notification from the server.
    pub fn notify(&mut self, s: &mut Shell, method: &str, params: Value) {
        let text = json!({"jsonrpc": "2.0", "method": method, "params": params}).to_string();
        s.input(Input::Frame {
            conn: s.d.conn(),
            text,
        });
        self.serve(s);
    }

    /// The requests received with this method.
    pub fn requests(&self, method: &str) -> Vec<&Value> {
        self.seen.iter().filter(|m| m["method"] == method).collect()
    }
}

/// A shell connected through a bridge link to `peer` (pinned to `pin` first).
pub fn connect(peer: &mut Peer, pin: mcpg_page::Pin) -> Shell {
    let mut s = Shell::new();
    s.cmd(Command::Pin(pin));
    s.cmd(Command::Connect(Source::Bridge("scripted".into())));
    let conn = s.d.conn();
    s.input(Input::LinkOpened { conn });
    peer.serve(&mut s);
    assert_eq!(s.conn, Conn::Ready);
    s
}
