//! The browser's executor for [`HttpRequest`]s (wasm32 only): `fetch` with an
//! `AbortController`, the body streamed with a `ReadableStreamDefaultReader`, each
//! step reported to a callback as a [`NetEvent`]. It knows nothing of MCP: a
//! driver hands the events to [`crate::HttpMachine`] (`handle_head`, `handle_body`,
//! `handle_end`, `handle_failed`) and calls [`Fetch::abort`] for `poll_abort`.
//!
//! A `TypeError` from `fetch` is the browser's only word for "unreachable" *and*
//! "blocked by CORS"; it becomes [`NetFailure::Unreachable`] saying both.
//!
//! Issue 26: a request that carries more than the protocol's own headers is made
//! with `redirect: "manual"` and a redirect fails it ([`crate::guard`]): the
//! browser would send those headers on to wherever the redirect points. Failure
//! texts never show a secret from the URL (`guard::redact`).

use std::rc::Rc;

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Headers, ReadableStreamDefaultReader, RequestInit, RequestRedirect, Response,
    ResponseType,
};

use crate::guard::{may_follow_redirects, redact, redirect_refused, unreachable};
use crate::{HttpRequest, NetEvent, NetFailure};

/// A running request; [`Fetch::abort`] stops it (no further events follow).
#[derive(Debug)]
pub struct Fetch {
    controller: Option<AbortController>,
}

impl Fetch {
    /// Aborts the request (its stream too).
    pub fn abort(&self) {
        if let Some(c) = &self.controller {
            c.abort();
        }
    }
}

/// Starts `req`; `on` hears every step (not after an abort).
pub fn execute(req: HttpRequest, on: Rc<dyn Fn(NetEvent)>) -> Fetch {
    let id = req.id;
    let controller = AbortController::new().ok();
    let signal = controller.as_ref().map(AbortController::signal);
    wasm_bindgen_futures::spawn_local(async move {
        let aborted = || signal.as_ref().is_some_and(web_sys::AbortSignal::aborted);
        let result = run(req, signal.as_ref(), &*on).await;
        if let Err(f) = result
            && !aborted()
        {
            on(NetEvent::Failed(id, f));
        }
    });
    Fetch { controller }
}

async fn run(
    req: HttpRequest,
    signal: Option<&web_sys::AbortSignal>,
    on: &dyn Fn(NetEvent),
) -> Result<(), NetFailure> {
    let id = req.id;
    let init = RequestInit::new();
    init.set_method(req.method.as_str());
    init.set_signal(signal);
    let headers = Headers::new().map_err(|e| broken("could not build headers", &e))?;
    for (k, v) in &req.headers {
        headers
            .append(k, v)
            .map_err(|e| broken(&format!("the header {k} was refused"), &e))?;
    }
    init.set_headers(&headers);
    let guarded = !may_follow_redirects(&req.headers);
    if guarded {
        init.set_redirect(RequestRedirect::Manual);
    }
    if let Some(body) = &req.body {
        init.set_body(&JsValue::from_str(body));
    }
    let promise = match web_sys::window() {
        Some(w) => w.fetch_with_str_and_init(&req.url, &init),
        None => js_sys::global()
            .unchecked_into::<web_sys::WorkerGlobalScope>()
            .fetch_with_str_and_init(&req.url, &init),
    };
    let resp: Response = JsFuture::from(promise)
        .await
        .map_err(|e| NetFailure::Unreachable(unreachable(&req.url, &describe(&e))))?
        .unchecked_into();
    if guarded && resp.type_() == ResponseType::Opaqueredirect {
        return Err(NetFailure::Unreachable(redirect_refused(&req.url)));
    }
    let mut head = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&resp.headers()) {
        for pair in entries.flatten() {
            let pair: js_sys::Array = pair.unchecked_into();
            if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                head.push((k, v));
            }
        }
    }
    on(NetEvent::Head {
        id,
        status: resp.status(),
        headers: head,
    });
    let Some(body) = resp.body() else {
        on(NetEvent::End(id));
        return Ok(());
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    loop {
        let step = JsFuture::from(reader.read())
            .await
            .map_err(|e| broken("reading the response failed", &e))?;
        let done = Reflect::get(&step, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            on(NetEvent::End(id));
            return Ok(());
        }
        if let Ok(value) = Reflect::get(&step, &JsValue::from_str("value")) {
            on(NetEvent::Chunk(id, Uint8Array::new(&value).to_vec()));
        }
    }
}

fn broken(what: &str, e: &JsValue) -> NetFailure {
    NetFailure::Broken(redact(&format!("{what}: {}", describe(e))))
}

/// The message of a JS error (or its string form).
fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}
