//! Executing one [`HttpRequest`] with reqwest and reporting what happened.

use mcpg_http::{HttpRequest, Method, NetEvent, NetFailure};
use reqwest::header::{HeaderName, HeaderValue};
use tokio::sync::mpsc;

/// Makes `req` and streams its answer to `tx` until it ends, fails or is aborted.
pub(crate) async fn execute(http: reqwest::Client, req: HttpRequest, tx: mpsc::Sender<NetEvent>) {
    let id = req.id;
    let mut rb = match req.method {
        Method::Get => http.get(&req.url),
        Method::Post => http.post(&req.url),
        Method::Delete => http.delete(&req.url),
    };
    for (k, v) in &req.headers {
        // A configured header that HTTP cannot carry is left out, not fatal.
        if let (Ok(k), Ok(v)) = (
            HeaderName::try_from(k.as_str()),
            HeaderValue::try_from(v.as_str()),
        ) {
            rb = rb.header(k, v);
        }
    }
    if let Some(body) = req.body {
        rb = rb.body(body);
    }
    let mut resp = match rb.send().await {
        Ok(r) => r,
        Err(e) => {
            let f = if e.is_connect() {
                NetFailure::Unreachable(describe(&e))
            } else {
                NetFailure::Broken(describe(&e))
            };
            let _ = tx.send(NetEvent::Failed(id, f)).await;
            return;
        }
    };
    let headers = header_pairs(resp.headers());
    let head = NetEvent::Head {
        id,
        status: resp.status().as_u16(),
        headers,
    };
    if tx.send(head).await.is_err() {
        return;
    }
    loop {
        let ev = match resp.chunk().await {
            Ok(Some(c)) => NetEvent::Chunk(id, c.to_vec()),
            Ok(None) => NetEvent::End(id),
            Err(e) => NetEvent::Failed(
                id,
                NetFailure::Broken(format!("reading the response failed: {}", describe(&e))),
            ),
        };
        let last = !matches!(ev, NetEvent::Chunk(..));
        if tx.send(ev).await.is_err() || last {
            return;
        }
    }
}

/// The headers as (lower-case name, value) pairs, values read lossily.
pub(crate) fn header_pairs(headers: &reqwest::header::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect()
}

/// reqwest's own text names the layers ("error sending request for url (…): client
/// error (SendRequest): …"); a person needs what failed and the root cause.
pub(crate) fn describe(e: &reqwest::Error) -> String {
    let mut root: &dyn std::error::Error = e;
    while let Some(next) = root.source() {
        root = next;
    }
    let url = e
        .url()
        .map_or_else(|| "the server".to_owned(), ToString::to_string);
    if e.is_connect() {
        format!("could not connect to {url}: {root}")
    } else if e.is_timeout() {
        format!("timed out talking to {url}")
    } else {
        format!("the HTTP exchange with {url} failed: {root}")
    }
}
