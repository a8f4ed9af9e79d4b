//! Every case of the shared table through the browser's `fetch` executor, in
//! headless Chromium, against the cases server xtask starts (`mcpg-http-cases`; its
//! URL is baked in at compile time as `MCPG_HTTP_CASES_URL`). Without it the test
//! fails when `MCPG_REQUIRE_PEERS=1` was set at compile time, else skips with a notice.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use mcpg_core::Timestamp;
use mcpg_http::cases::{self, Case, Seen, Step};
use mcpg_http::fetch::{self, Fetch};
use mcpg_http::{HttpEvent, HttpMachine, HttpRequest, Method, NetEvent, ReqId};
use wasm_bindgen_test::wasm_bindgen_test;

const BASE: Option<&str> = option_env!("MCPG_HTTP_CASES_URL");
const REQUIRE: Option<&str> = option_env!("MCPG_REQUIRE_PEERS");

fn now() -> Timestamp {
    Timestamp::from_millis(js_sys::Date::now() as u64)
}

async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// The machine driven by `fetch`: requests executed, steps fed back, aborts done.
struct Run {
    m: HttpMachine,
    inbox: Rc<RefCell<VecDeque<NetEvent>>>,
    running: HashMap<ReqId, Fetch>,
    events: Vec<HttpEvent>,
}

impl Run {
    fn new(m: HttpMachine) -> Self {
        Run {
            m,
            inbox: Rc::default(),
            running: HashMap::new(),
            events: Vec::new(),
        }
    }

    fn start(&mut self, req: HttpRequest) {
        let inbox = self.inbox.clone();
        let id = req.id;
        let f = fetch::execute(req, Rc::new(move |e| inbox.borrow_mut().push_back(e)));
        self.running.insert(id, f);
    }

    /// One turn: feed what the network did, act on what the machine wants.
    fn turn(&mut self) {
        let t = now();
        let arrived: Vec<NetEvent> = self.inbox.borrow_mut().drain(..).collect();
        for e in arrived {
            self.m.handle_net(t, e);
        }
        if self.m.poll_timeout().is_some_and(|at| at <= t) {
            self.m.handle_timeout(t);
        }
        while let Some(r) = self.m.poll_abort() {
            if let Some(f) = self.running.remove(&r) {
                f.abort();
            }
        }
        while let Some(req) = self.m.poll_request() {
            self.start(req);
        }
        while let Some(e) = self.m.poll_event() {
            self.events.push(e);
        }
    }

    async fn wait(&mut self, until: fn(&[HttpEvent]) -> bool) -> Result<(), String> {
        for _ in 0..1000 {
            self.turn();
            if until(&self.events) {
                return Ok(());
            }
            sleep(10).await;
        }
        Err(format!("timed out waiting; events {:?}", self.events))
    }
}

/// A plain request through the same executor (for the server's log).
async fn plain(method: Method, url: String) -> Result<Vec<u8>, String> {
    let inbox: Rc<RefCell<VecDeque<NetEvent>>> = Rc::default();
    let sink = inbox.clone();
    let req = HttpRequest {
        id: ReqId(0),
        method,
        url,
        headers: Vec::new(),
        body: None,
    };
    let _f = fetch::execute(req, Rc::new(move |e| sink.borrow_mut().push_back(e)));
    let mut body = Vec::new();
    for _ in 0..500 {
        while let Some(e) = inbox.borrow_mut().pop_front() {
            match e {
                NetEvent::Chunk(_, c) => body.extend(c),
                NetEvent::End(_) => return Ok(body),
                NetEvent::Failed(_, f) => return Err(f.to_string()),
                NetEvent::Head { .. } => {}
            }
        }
        sleep(5).await;
    }
    Err("no answer within 2.5 s".into())
}

async fn seen(base: &str, name: &str) -> Vec<Seen> {
    let body = plain(Method::Get, format!("{base}/log/{name}"))
        .await
        .unwrap_or_default();
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    v.as_array()
        .map(|a| a.iter().map(Seen::from_value).collect())
        .unwrap_or_default()
}

async fn play(base: &str, case: &Case) -> Result<(), String> {
    plain(Method::Post, format!("{base}/reset/{}", case.name)).await?;
    let cfg = cases::config(case, format!("{base}/cases/{}", case.name));
    let mut run = Run::new(HttpMachine::new(cfg));
    for step in (case.steps)() {
        match step {
            Step::Send(out) => run.m.send(now(), out),
            Step::Close => run.m.close(now()),
            Step::Wait(until) => run.wait(until).await?,
        }
        run.turn();
    }
    // What the server saw may trail what the client did (an abort travels as a
    // closed connection): judge again for a while before calling it a failure.
    let mut verdict = Err(String::new());
    for _ in 0..50 {
        run.turn();
        verdict = (case.check)(&run.events, &seen(base, case.name).await);
        if verdict.is_ok() {
            break;
        }
        sleep(20).await;
    }
    run.m.close(now());
    run.turn();
    verdict
}

#[wasm_bindgen_test]
async fn every_case_passes_through_fetch() {
    let Some(base) = BASE else {
        if REQUIRE == Some("1") {
            panic!("MCPG_HTTP_CASES_URL was not set at compile time and MCPG_REQUIRE_PEERS=1");
        }
        web_sys::console::log_1(&"SKIPPED: MCPG_HTTP_CASES_URL not set at compile time (xtask test starts the cases server)".into());
        return;
    };
    if let Err(e) = plain(Method::Get, format!("{base}/log/probe")).await {
        panic!("the cases server at {base} is unreachable: {e}");
    }
    let all = cases::all();
    let mut failed = Vec::new();
    for case in &all {
        if let Err(e) = play(base, case).await {
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
