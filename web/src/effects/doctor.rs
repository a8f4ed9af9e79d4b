//! The Server panel's Doctor: performs the fetches `mcpg_doctor::browser::Run`
//! asks for and hands back what the network did; every decision and verdict is
//! the run's. Requests go only to the URL under test (the run names no other),
//! but for the sign-in discovery after a 401, whose requests are `mcpg-auth`'s
//! flow's (each URL checked by it first), made as the page's sign-in makes them;
//! the in-page demos' origins are answered inside the page, as for a connection.
//! A `no-cors` request is made here, with no body read (the answer is opaque).
//! Reached only from the Server panel's chunk.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::set_timeout;
use mcpg_auth::Probe;
use mcpg_doctor::auth::AuthSeen;
use mcpg_doctor::browser::{Fetch, Run, RunError};
use mcpg_page::{NetEvent, NetFailure};

use super::clock::now;

/// One check, as the view shows it (the texts may quote the server: text only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The stable id (`dns`, `cors`…).
    pub id: &'static str,
    /// What it looks at.
    pub title: &'static str,
    /// `pass`, `warn`, `fail` or `skip`.
    pub verdict: &'static str,
    /// What was seen.
    pub evidence: String,
    /// What to do.
    pub fix: Option<String>,
}

/// The run so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The URL under test.
    pub url: String,
    /// The findings, in order.
    pub rows: Vec<Row>,
    /// The worst verdict so far.
    pub worst: &'static str,
    /// Whether every check has a finding.
    pub done: bool,
}

/// Hears each new snapshot.
pub type Listener = Rc<dyn Fn(Snapshot)>;

thread_local! {
    /// Which run is current: a new run makes the older one's answers stale.
    static CURRENT: Cell<u64> = const { Cell::new(0) };
}

struct State {
    run: RefCell<Run>,
    generation: u64,
    listen: Listener,
    /// The sign-in discovery after a 401 was started.
    signing: Cell<bool>,
    /// ...and is not over yet (the run is done only then).
    discovering: Cell<bool>,
}

/// Starts a run against `url`; `listen` hears every step until it is done.
pub fn start(url: &str, listen: Listener) -> Result<(), RunError> {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let run = Run::new(url, &origin)?;
    let generation = CURRENT.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    let state = Rc::new(State {
        run: RefCell::new(run),
        generation,
        listen,
        signing: Cell::new(false),
        discovering: Cell::new(false),
    });
    drive(&state);
    Ok(())
}

/// The URL in the connect bar's box, when it shows one.
pub fn url_in_box() -> Option<String> {
    let el = web_sys::window()?.document()?.get_element_by_id("url")?;
    // `value` read by reflection: the input's own getter would be one more
    // first-load function the chunk calls.
    let v = js_sys::Reflect::get(&el, &"value".into())
        .ok()?
        .as_string()?;
    let v = v.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

fn stale(state: &State) -> bool {
    CURRENT.with(Cell::get) != state.generation
}

/// Runs what the run asks for, shows where it is, and sets its timer.
fn drive(state: &Rc<State>) {
    if stale(state) {
        return;
    }
    let mut fetches = Vec::new();
    let (snapshot, deadline) = {
        let mut run = state.run.borrow_mut();
        while let Some(f) = run.poll_fetch() {
            fetches.push(f);
        }
        (snapshot(&run), run.poll_timeout())
    };
    for f in fetches {
        perform(state, f);
    }
    let sign_in = (snapshot.done && !state.signing.replace(true))
        .then(|| {
            let run = state.run.borrow();
            let r = run.refusal()?;
            Some((
                r.status,
                Probe::new(run.url(), r.status, r.www_authenticate.as_deref()),
            ))
        })
        .flatten();
    if let Some((status, probe)) = sign_in {
        state.discovering.set(true);
        discover(state.clone(), status, probe);
    }
    let snapshot = Snapshot {
        done: snapshot.done && !state.discovering.get(),
        ..snapshot
    };
    (state.listen)(snapshot);
    if let Some(t) = deadline {
        let wait = t.as_millis().saturating_sub(now().as_millis());
        let s = state.clone();
        set_timeout(
            move || {
                if stale(&s) {
                    return;
                }
                s.run.borrow_mut().handle_timeout(now());
                drive(&s);
            },
            Duration::from_millis(wait),
        );
    }
}

/// Runs the sign-in discovery after a 401: each request is the flow's (its URL
/// checked by `mcpg-auth` first), made as the page's sign-in makes it (straight,
/// or through the bridge's go-between when the page has a bridge); then the
/// sign-in row is judged and the run shown done.
fn discover(state: Rc<State>, status: u16, mut probe: Probe) {
    let via = super::shell::state().and_then(super::oauth::bridge_fetch);
    wasm_bindgen_futures::spawn_local(async move {
        while let Some(req) = probe.poll_request() {
            let answer = super::oauth::perform(&req, via.as_ref()).await;
            if stale(&state) {
                return;
            }
            probe.handle_response(answer);
        }
        let p = probe.seen();
        let seen = AuthSeen {
            status,
            challenge: p.challenge,
            resource_metadata: p.resource_metadata.clone(),
            server_metadata: p.server_metadata.clone(),
            failure: p.failure.clone(),
            findings: p.findings.clone(),
            cached_login: false,
        };
        state.run.borrow_mut().judge_sign_in(&seen);
        state.discovering.set(false);
        let shown = snapshot(&state.run.borrow());
        (state.listen)(shown);
    });
}

fn snapshot(run: &Run) -> Snapshot {
    let report = run.report();
    Snapshot {
        url: run.url().to_owned(),
        rows: report
            .findings()
            .iter()
            .map(|f| Row {
                id: f.check.id(),
                title: f.check.title(),
                verdict: f.verdict.id(),
                evidence: f.evidence.clone(),
                fix: f.fix.clone(),
            })
            .collect(),
        worst: report.worst().id(),
        done: run.is_done(),
    }
}

/// Makes one request; each step comes back to the run (a task later, never
/// while the run is borrowed).
fn perform(state: &Rc<State>, f: Fetch) {
    let s = state.clone();
    let on: Rc<dyn Fn(NetEvent)> = Rc::new(move |ev: NetEvent| {
        if stale(&s) {
            return;
        }
        s.run.borrow_mut().handle_net(now(), ev);
        drive(&s);
    });
    let request = f.request;
    if super::demo_oauth::is_in_page(&request.url) {
        super::http::in_page(&request, on);
    } else if super::demo_sse::is_in_page(&request.url) {
        // The doctor opens no stream (no GET), so nothing stays open.
        let _ = super::demo_sse::run(&request, on);
    } else if f.no_cors {
        no_cors(request, on);
    } else {
        let _ = super::http::exec::execute(request, on);
    }
}

/// A `no-cors` POST: only whether an answer came (opaque, status 0) or not.
fn no_cors(request: mcpg_page::HttpRequest, on: Rc<dyn Fn(NetEvent)>) {
    use wasm_bindgen::JsCast as _;
    let id = request.id;
    wasm_bindgen_futures::spawn_local(async move {
        let init = web_sys::RequestInit::new();
        init.set_method(request.method.as_str());
        init.set_mode(web_sys::RequestMode::NoCors);
        if let Some(b) = &request.body {
            init.set_body(&wasm_bindgen::JsValue::from_str(b));
        }
        let headers = web_sys::Headers::new().ok();
        if let Some(h) = &headers {
            for (k, v) in &request.headers {
                let _ = h.set(k, v);
            }
            init.set_headers(h);
        }
        let answered = match web_sys::window() {
            Some(w) => {
                let p = w.fetch_with_str_and_init(&request.url, &init);
                wasm_bindgen_futures::JsFuture::from(p)
                    .await
                    .ok()
                    .and_then(|r| r.dyn_into::<web_sys::Response>().ok())
            }
            None => None,
        };
        match answered {
            Some(r) => {
                on(NetEvent::Head {
                    id,
                    status: r.status(),
                    headers: Vec::new(),
                });
                on(NetEvent::End(id));
            }
            None => on(NetEvent::Failed(
                id,
                NetFailure::Unreachable("no answer to a no-cors request".to_owned()),
            )),
        }
    });
}
