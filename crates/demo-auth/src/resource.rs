//! The protected resource: its metadata (RFC 9728), the bearer check on every MCP
//! request, and the demo server behind it, answering over Streamable HTTP.

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Body, Message, RequestId};
use mcpg_demo::DemoServer;
use serde_json::json;

use crate::issuer::Issuer;
use crate::{Answer, ISSUER, RESOURCE_ORIGIN, RESOURCE_URL, Request, SCOPE};

/// The metadata's path: RFC 9728's well-known prefix before the resource's path.
const METADATA_PATH: &str = "/.well-known/oauth-protected-resource/mcp";

/// How far the resource lets the demo's own clock run to finish a request (the
/// slow tool takes a few seconds of it): the page sees the answer at once.
const DEMO_TIME_MS: u64 = 120_000;

/// The resource's state: the demo server of the current session.
#[derive(Debug, Default)]
pub(crate) struct Resource {
    demo: Option<DemoServer>,
    /// The demo's clock: never behind the page's, ahead after a slow call.
    clock: u64,
}

/// `WWW-Authenticate` for a request without a usable token (RFC 6750 §3, RFC 9728
/// §5.1): where the metadata is, and the scope to ask for.
fn challenge(error: Option<&str>) -> String {
    let error = error
        .map(|e| format!("error=\"{e}\", "))
        .unwrap_or_default();
    format!(
        "Bearer {error}resource_metadata=\"{RESOURCE_ORIGIN}{METADATA_PATH}\", scope=\"{SCOPE}\""
    )
}

impl Resource {
    pub fn answer(
        &mut self,
        now: Timestamp,
        req: &Request<'_>,
        url: &url::Url,
        issuer: &Issuer,
    ) -> Answer {
        if req.method == "GET" && url.path() == METADATA_PATH {
            return Answer::json(
                200,
                &json!({
                    "resource": RESOURCE_URL,
                    "authorization_servers": [ISSUER],
                    "scopes_supported": [SCOPE],
                    "bearer_methods_supported": ["header"],
                    "resource_name": "The demo server, behind OAuth (played in this page)",
                }),
            );
        }
        if url.path() != "/mcp" {
            return Answer::not_found();
        }
        let token = req.header("authorization").and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        });
        let refused = match token {
            None => Some(challenge(None)),
            Some(t) if !issuer.valid(t.trim()) => Some(challenge(Some("invalid_token"))),
            Some(_) => None,
        };
        if let Some(www) = refused {
            let mut a = Answer::json(
                401,
                &json!({"error": "unauthorized", "error_description": "a bearer token from the demo's authorization server is required"}),
            );
            a.headers.push(("www-authenticate".into(), www));
            return a;
        }
        match req.method {
            "POST" => self.post(now, req.body.unwrap_or_default()),
            // No stream for the server's own messages, no session to end.
            _ => Answer::empty(405),
        }
    }

    fn post(&mut self, now: Timestamp, body: &str) -> Answer {
        let Ok(msg) = Message::decode(body) else {
            return Answer::json(
                400,
                &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "parse error: one JSON-RPC message per POST"}}),
            );
        };
        self.clock = self.clock.max(now.as_millis());
        let (id, opens) = match msg.body() {
            Body::Request { id, method, .. } => (
                Some(id.clone()),
                method == "initialize" || method == "server/discover",
            ),
            _ => (None, false),
        };
        // A session starts with a fresh demo (the page reconnected).
        if opens || self.demo.is_none() {
            self.demo = Some(DemoServer::new());
        }
        let Some(demo) = self.demo.as_mut() else {
            return Answer::empty(500);
        };
        demo.handle_text(Timestamp::from_millis(self.clock), body);
        let Some(id) = id else {
            // A notification or a response: accepted, nothing to say.
            drain(demo);
            return Answer::empty(202);
        };
        let frames = self.until_answered(&id);
        sse(&frames)
    }

    /// The frames the demo sends until it answers `id`, letting its own clock run
    /// for a slow call. A request of the server's own (2025-11-25 sampling,
    /// elicitation, roots) cannot travel here: the call is answered with an error
    /// saying so.
    fn until_answered(&mut self, id: &RequestId) -> Vec<String> {
        let Some(demo) = self.demo.as_mut() else {
            return Vec::new();
        };
        let limit = self.clock + DEMO_TIME_MS;
        let mut frames = Vec::new();
        loop {
            while let Some(m) = demo.poll_transmit() {
                match m.body() {
                    Body::Request { .. } => {
                        frames.push(asks_unsupported(id));
                        return frames;
                    }
                    Body::Response { id: r, .. } | Body::Error { id: Some(r), .. } if r == id => {
                        frames.push(m.raw().to_owned());
                        return frames;
                    }
                    _ => frames.push(m.raw().to_owned()),
                }
            }
            match demo.poll_timeout() {
                Some(t) if t.as_millis() <= limit => {
                    self.clock = self.clock.max(t.as_millis());
                    demo.handle_timeout(t);
                }
                _ => {
                    frames.push(asks_unsupported(id));
                    return frames;
                }
            }
        }
    }
}

/// Drops what the demo sends unasked (nowhere to send it: no stream is open).
fn drain(demo: &mut DemoServer) {
    while demo.poll_transmit().is_some() {}
}

fn asks_unsupported(id: &RequestId) -> String {
    Message::error(
        Some(id.clone()),
        mcpg_core::jsonrpc::RpcError::new(
            mcpg_core::jsonrpc::code::INTERNAL_ERROR,
            "the protected demo answers each request at once; a tool that asks the client first (sampling, elicitation, roots) runs on the embedded demo",
        ),
    )
    .raw()
    .to_owned()
}

/// One frame as JSON; several (progress or log notifications, then the answer) as
/// an SSE stream, as a Streamable HTTP server sends them.
fn sse(frames: &[String]) -> Answer {
    match frames {
        [one] => Answer {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: one.clone(),
        },
        many => Answer {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: many
                .iter()
                .map(|f| format!("event: message\ndata: {f}\n\n"))
                .collect(),
        },
    }
}
