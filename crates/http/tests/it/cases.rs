//! Every case of the shared table, played against the machine alone: the scripted
//! server answers in-process and time is virtual (no sockets, no sleeps).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The same tests run natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::HashMap;

use mcpg_core::Timestamp;
use mcpg_http::cases::{self, Case, Seen, Step};
use mcpg_http::{HttpEvent, HttpMachine, ReqId};

/// The machine plus an in-process server, stepping a virtual clock.
struct Sim<'a> {
    case: &'a Case,
    m: HttpMachine,
    now: Timestamp,
    seen: Vec<Seen>,
    /// Which logged request each HTTP request is.
    open: HashMap<ReqId, usize>,
    events: Vec<HttpEvent>,
}

impl Sim<'_> {
    /// Serves every request the machine asked for and collects events.
    fn pump(&mut self) {
        loop {
            while let Some(r) = self.m.poll_abort() {
                if let Some(i) = self.open.remove(&r) {
                    self.seen[i].aborted = true;
                }
            }
            while let Some(e) = self.m.poll_event() {
                self.events.push(e);
            }
            let Some(req) = self.m.poll_request() else {
                return;
            };
            let seen = Seen {
                method: req.method.as_str().into(),
                headers: req
                    .headers
                    .iter()
                    .map(|(k, v)| (k.to_ascii_lowercase(), v.clone()))
                    .collect(),
                body: req.body.clone().unwrap_or_default(),
                aborted: false,
            };
            let reply = (self.case.serve)(&seen, &self.seen);
            self.seen.push(seen);
            self.open.insert(req.id, self.seen.len() - 1);
            self.m
                .handle_head(self.now, req.id, reply.status, &reply.headers);
            for c in &reply.chunks {
                self.m.handle_body(self.now, req.id, c);
            }
            if !reply.hang {
                self.open.remove(&req.id);
                self.m.handle_end(self.now, req.id);
            }
        }
    }

    fn wait(&mut self, until: fn(&[HttpEvent]) -> bool) -> Result<(), String> {
        for _ in 0..100 {
            self.pump();
            if until(&self.events) {
                return Ok(());
            }
            let Some(t) = self.m.poll_timeout() else {
                break;
            };
            self.now = self.now.max(t);
            self.m.handle_timeout(self.now);
        }
        Err(format!(
            "stuck waiting; events {:?}; seen {:?}",
            self.events, self.seen
        ))
    }
}

fn play(case: &Case) -> Result<(), String> {
    let cfg = cases::config(case, format!("http://cases.test/cases/{}", case.name));
    let mut sim = Sim {
        case,
        m: HttpMachine::new(cfg),
        now: Timestamp::from_millis(1_000),
        seen: Vec::new(),
        open: HashMap::new(),
        events: Vec::new(),
    };
    for step in (case.steps)() {
        match step {
            Step::Send(out) => sim.m.send(sim.now, out),
            Step::Close => sim.m.close(sim.now),
            Step::Wait(until) => sim.wait(until)?,
        }
        sim.pump();
    }
    (case.check)(&sim.events, &sim.seen)
}

#[test]
fn every_case_passes_against_the_machine_alone() {
    let mut failed = Vec::new();
    let all = cases::all();
    for case in &all {
        if let Err(e) = play(case) {
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
    assert!(all.len() >= 17, "the table has {} cases", all.len());
}
