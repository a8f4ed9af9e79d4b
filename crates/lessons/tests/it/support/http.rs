//! The page's HTTP requests answered by the in-page demo over HTTP
//! (`mcpg_demo_sse`), as the page's executor answers them: an open stream's later
//! chunks delivered to its request, an aborted or closed link's streams closed.

use std::collections::HashMap;

use mcpg_core::Timestamp;
use mcpg_demo_sse::{Push, Request, SseDemo, StreamId};
use mcpg_net::{NetEvent, ReqId};
use mcpg_page::{ConnId, Input, Output};

/// The demo and the streams it holds open, by the request each answers.
#[derive(Debug, Default)]
pub struct Net {
    demo: SseDemo,
    streams: HashMap<StreamId, (ConnId, ReqId)>,
}

fn http(conn: ConnId, event: NetEvent) -> Input {
    Input::Http { conn, event }
}

impl Net {
    /// Runs one of the driver's HTTP outputs; what the network said, as inputs.
    pub fn run(&mut self, now: Timestamp, out: Output) -> Vec<Input> {
        match out {
            Output::Http { conn, request } => {
                assert!(
                    mcpg_demo_sse::is_in_page(&request.url),
                    "a lesson reached the network: {}",
                    request.url
                );
                let a = self.demo.answer(
                    now,
                    &Request {
                        method: request.method.as_str(),
                        url: &request.url,
                        body: request.body.as_deref(),
                    },
                );
                let id = request.id;
                let mut inputs = vec![http(
                    conn,
                    NetEvent::Head {
                        id,
                        status: a.status,
                        headers: a.headers,
                    },
                )];
                if !a.body.is_empty() {
                    inputs.push(http(conn, NetEvent::Chunk(id, a.body.into_bytes())));
                }
                match a.stream {
                    Some(s) => {
                        self.streams.insert(s, (conn, id));
                    }
                    None => inputs.push(http(conn, NetEvent::End(id))),
                }
                inputs
            }
            Output::AbortHttp { conn, req } => {
                self.close_where(|c, r| c == conn && r == req);
                Vec::new()
            }
            Output::CloseLink { conn } => {
                self.close_where(|c, _| c == conn);
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn close_where(&mut self, which: impl Fn(ConnId, ReqId) -> bool) {
        let gone: Vec<StreamId> = self
            .streams
            .iter()
            .filter(|(_, (c, r))| which(*c, *r))
            .map(|(s, _)| *s)
            .collect();
        for s in gone {
            self.streams.remove(&s);
            self.demo.handle_closed(s);
        }
    }

    /// What the open streams carried since the last look, as inputs.
    pub fn pushes(&mut self) -> Vec<Input> {
        let mut inputs = Vec::new();
        while let Some(p) = self.demo.poll_push() {
            match p {
                Push::Chunk { stream, text } => {
                    if let Some((conn, id)) = self.streams.get(&stream) {
                        inputs.push(http(*conn, NetEvent::Chunk(*id, text.into_bytes())));
                    }
                }
                Push::End(stream) => {
                    if let Some((conn, id)) = self.streams.remove(&stream) {
                        inputs.push(http(conn, NetEvent::End(id)));
                    }
                }
            }
        }
        inputs
    }

    /// How many sessions of the old transport are open.
    pub fn open_sessions(&self) -> usize {
        self.demo.open_sessions()
    }
}
