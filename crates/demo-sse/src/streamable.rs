//! The same demo over Streamable HTTP, with no sign-in: each POST is answered in
//! its own response (JSON for one message; an SSE stream when progress or log
//! notifications come before the answer). In the page there is no GET stream and
//! no session id: what the demo sends unasked has nowhere to go, and a question of
//! the demo's own is answered with an error. A session of [`crate::HttpDemo`]
//! holds the call's stream open instead (`hold`), sends the question on it, and
//! the rest once the client answered (`held.rs`).

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Body, Message, RequestId, RpcError, code};

use crate::profile::Make;
use crate::session::DemoSession;
use crate::{Answer, StreamId};

/// `POST /mcp`.
pub(crate) fn post<M: Make>(session: &mut DemoSession<M>, now: Timestamp, body: &str) -> Answer {
    post_with(session, now, body, &mut |_| false, None)
}

/// [`post`], with `divert` taking the demo's messages that belong elsewhere (a
/// listen stream's notifications, or after a client's answer, a held call's)
/// out of this response; with `hold`, a request whose demo asks the client
/// first is answered with stream `hold` left open (its question its last event).
pub(crate) fn post_with<M: Make>(
    session: &mut DemoSession<M>,
    now: Timestamp,
    body: &str,
    divert: &mut dyn FnMut(&Message) -> bool,
    hold: Option<StreamId>,
) -> Answer {
    let Ok(msg) = Message::decode(body) else {
        return json(
            400,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: one JSON-RPC message per POST"}}"#.to_owned(),
        );
    };
    let (id, opens) = match msg.body() {
        Body::Request { id, method, .. } => (
            Some(id.clone()),
            method == "initialize" || method == "server/discover",
        ),
        _ => (None, false),
    };
    // A session starts with a fresh demo (the page reconnected).
    if opens {
        session.restart();
    }
    let sent = session.handle(now, &msg);
    let Some(id) = id else {
        // A notification or a response: accepted, nothing to say here (what the
        // demo sends because of it goes where `divert` puts it).
        for m in &sent {
            divert(m);
        }
        return Answer {
            status: 202,
            headers: Vec::new(),
            body: String::new(),
            stream: None,
        };
    };
    let mut frames = Vec::new();
    let mut sent = sent.into_iter();
    while let Some(m) = sent.next() {
        if divert(&m) {
            continue;
        }
        match m.body() {
            Body::Response { id: r, .. } | Body::Error { id: Some(r), .. } if *r == id => {
                frames.push(m.raw().to_owned());
                // What came after the answer (a change it caused) may still
                // belong to a listen stream.
                for rest in sent {
                    divert(&rest);
                }
                return stream(&frames);
            }
            // A question of the demo's own: on the held stream, or (no channel
            // back) refused below.
            Body::Request { .. } => match hold {
                Some(st) => {
                    frames.push(m.raw().to_owned());
                    frames.extend(sent.filter(|r| !divert(r)).map(|r| r.raw().to_owned()));
                    // Always a stream, even for the question alone: more follows.
                    let mut answer = events(&frames);
                    answer.stream = Some(st);
                    return answer;
                }
                None => break,
            },
            _ => frames.push(m.raw().to_owned()),
        }
    }
    session.give_up(&id);
    frames.push(cannot_ask(&id));
    stream(&frames)
}

fn json(status: u16, body: String) -> Answer {
    Answer {
        status,
        headers: vec![("content-type".into(), "application/json".into())],
        body,
        stream: None,
    }
}

fn cannot_ask(id: &RequestId) -> String {
    Message::error(
        Some(id.clone()),
        RpcError::new(
            code::INTERNAL_ERROR,
            "this demo answers each request at once; a tool that asks the client first (sampling, elicitation, roots) runs on the embedded demo",
        ),
    )
    .raw()
    .to_owned()
}

/// One frame as JSON; several (notifications, then the answer) as an SSE stream.
fn stream(frames: &[String]) -> Answer {
    match frames {
        [one] => json(200, one.clone()),
        many => events(many),
    }
}

/// Frames as the events of an SSE stream.
fn events(frames: &[String]) -> Answer {
    Answer {
        status: 200,
        headers: vec![("content-type".into(), "text/event-stream".into())],
        body: frames
            .iter()
            .map(|f| format!("event: message\ndata: {f}\n\n"))
            .collect(),
        stream: None,
    }
}
