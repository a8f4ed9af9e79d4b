//! The service worker (`sw.js`, beside index.html; its source is `web/sw.js`) that
//! keeps the page's own files so that the page opens offline after one online load.
//!
//! Registered from here rather than from index.html, so it works whichever build
//! made the page. The URL is relative, so the worker's scope is the page's folder
//! under any path prefix. It is registered once the page has loaded: by then the
//! page's files are in the HTTP cache, and the worker's precaching does not
//! download them a second time while the page is still loading. The call comes
//! from the later parts' second pack (`components/later_parts.rs`), so this code is
//! not in the first load either.

use std::cell::Cell;

use wasm_bindgen::JsCast as _;
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_futures::JsFuture;
use web_sys::{RegistrationOptions, ServiceWorkerUpdateViaCache};

/// The worker's script, relative to the page.
const SCRIPT: &str = "sw.js";

thread_local! {
    /// Whether [`register_service_worker`] ran (its callers may run more than once).
    static ASKED: Cell<bool> = const { Cell::new(false) };
}

/// Registers the service worker after the page's `load` event, when the browser
/// has one to offer (a secure context served over http or https); once per page.
/// A failure is logged as a warning and changes nothing else.
pub fn register_service_worker() {
    if ASKED.with(|a| a.replace(true)) {
        return;
    }
    let Some(win) = web_sys::window() else {
        return;
    };
    let web = win
        .location()
        .protocol()
        .is_ok_and(|p| p == "http:" || p == "https:");
    // `navigator.serviceWorker` is absent in insecure contexts (plain http on an
    // address other than localhost); calling through it would throw.
    let offered = js_sys::Reflect::has(&win.navigator(), &JsValue::from_str("serviceWorker"))
        .unwrap_or(false);
    if !web || !offered {
        return;
    }
    if win
        .document()
        .is_some_and(|d| d.ready_state() == "complete")
    {
        register();
    } else {
        let on_load = Closure::once_into_js(register);
        if win
            .add_event_listener_with_callback("load", on_load.unchecked_ref())
            .is_err()
        {
            register();
        }
    }
}

fn register() {
    let Some(win) = web_sys::window() else {
        return;
    };
    let options = RegistrationOptions::new();
    // The browser asks the host for sw.js itself on every check, so a new worker is
    // never held back by an HTTP cache.
    options.set_update_via_cache(ServiceWorkerUpdateViaCache::None);
    let promise = win
        .navigator()
        .service_worker()
        .register_with_options(SCRIPT, &options);
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = JsFuture::from(promise).await {
            leptos::logging::warn!(
                "the page will not work offline: its service worker was not registered: {e:?}"
            );
        }
    });
}
