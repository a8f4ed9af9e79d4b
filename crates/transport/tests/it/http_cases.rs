//! Every case of `mcpg_http::cases` through the native reqwest driver, against the
//! cases server over real HTTP (the same table runs in the browser through `fetch`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use mcpg_http::HttpEvent;
use mcpg_http::cases::{self, Case, Step};
use mcpg_http_cases::CasesServer;
use mcpg_transport::http::{self, HttpConfig};
use mcpg_transport::{Link, LinkEvent, TransportEvent};

/// The transport's events in the machine's terms, so the table's checks apply.
fn as_http(ev: TransportEvent) -> HttpEvent {
    match ev {
        TransportEvent::Frame(t) => HttpEvent::Frame(t),
        TransportEvent::NotUtf8(b) => HttpEvent::NotUtf8(b),
        TransportEvent::Oversized {
            request: Some(request),
            size,
            limit,
            head,
        } => HttpEvent::Oversized {
            request,
            size,
            limit,
            head,
        },
        TransportEvent::Oversized { request: None, .. } => {
            HttpEvent::Notice("an oversized message without a request".into())
        }
        TransportEvent::SendFailed { id, failure } => HttpEvent::SendFailed { id, failure },
        TransportEvent::Notice(n) => HttpEvent::Notice(n),
        TransportEvent::Auth(e) => HttpEvent::Notice(format!("auth: {}", e.step.title())),
        // Not one of the machine's events (the driver reads the choice off it).
        TransportEvent::Chosen(c) => HttpEvent::Notice(format!("chosen: {}", c.why)),
        TransportEvent::Closed(r) => HttpEvent::Closed(r.reason),
    }
}

async fn wait(
    link: &mut Link,
    events: &mut Vec<HttpEvent>,
    until: fn(&[HttpEvent]) -> bool,
) -> Result<(), String> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !until(events) {
        match tokio::time::timeout_at(deadline, link.recv()).await {
            // The table's checks are the machine's events; the choice is the driver's.
            Ok(Some(LinkEvent::Transport(TransportEvent::Chosen(_)))) => {}
            Ok(Some(LinkEvent::Transport(ev))) => events.push(as_http(ev)),
            Ok(Some(LinkEvent::Stderr(_))) => {}
            Ok(None) => return Err(format!("the link ended; events {events:?}")),
            Err(_) => return Err(format!("timed out waiting; events {events:?}")),
        }
    }
    Ok(())
}

async fn play(server: &CasesServer, case: &Case) -> Result<(), String> {
    let m = cases::config(case, server.url(case.name));
    let mut cfg = HttpConfig::new(m.url.clone());
    cfg.headers = m.headers;
    cfg.max_body = m.max_body.min(m.max_event);
    cfg.max_resumes = m.max_resumes;
    cfg.default_retry = m.default_retry;
    cfg.standalone_stream = m.listen;
    let mut link = http::connect(cfg).map_err(|e| e.to_string())?;
    let mut events = Vec::new();
    for step in (case.steps)() {
        match step {
            Step::Send(out) => {
                link.send(out);
            }
            Step::Close => link.close(),
            Step::Wait(until) => wait(&mut link, &mut events, until).await?,
        }
    }
    // What the server saw may trail what the client did (an abort travels as a
    // closed connection): judge again for a while before calling it a failure.
    let mut verdict = Err(String::new());
    for _ in 0..100 {
        while let Ok(Some(LinkEvent::Transport(ev))) =
            tokio::time::timeout(Duration::from_millis(1), link.recv()).await
        {
            if !matches!(ev, TransportEvent::Chosen(_)) {
                events.push(as_http(ev));
            }
        }
        verdict = (case.check)(&events, &server.seen(case.name));
        if verdict.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    link.close();
    verdict
}

#[tokio::test]
async fn every_case_passes_through_the_reqwest_driver() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = CasesServer::spawn(listener).unwrap();
    let all = cases::all();
    let mut failed = Vec::new();
    for case in &all {
        if let Err(e) = play(&server, case).await {
            failed.push(format!("{}: {e}", case.name));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} cases failed:\n{}",
        failed.len(),
        all.len(),
        failed.join("\n")
    );
}
