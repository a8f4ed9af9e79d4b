//! The shell: executes the driver's outputs. Links it opens (a WebSocket, a
//! Streamable HTTP endpoint) live here by connection id; the one timer is re-armed
//! for the driver's deadline after every input; view changes go to `apply`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Duration;

use leptos::prelude::*;
use mcpg_page::{Command, ConnId, HttpTarget, Input, LinkSpec, Output};

use super::apply::apply;
use super::bridge_addr;
use super::clock::now;
use super::here;
use super::http::HttpLink;
use super::inbox;
use super::no_bridge;
use super::ws::{WsLink, encode};
use crate::state::AppState;

/// A transport the shell holds for the driver.
enum ShellLink {
    Ws(WsLink),
    Http(HttpLink),
}

thread_local! {
    static STATE: Cell<Option<AppState>> = const { Cell::new(None) };
    static LINKS: RefCell<HashMap<ConnId, ShellLink>> = RefCell::new(HashMap::new());
    static TIMER: RefCell<Option<TimeoutHandle>> = const { RefCell::new(None) };
}

/// Starts the shell for the page's state: from now on every input's outputs run here.
pub fn start(st: AppState) {
    STATE.with(|s| s.set(Some(st)));
    inbox::set_executor(execute);
}

fn execute(outs: Vec<Output>) {
    let Some(st) = STATE.with(Cell::get) else {
        return;
    };
    for out in outs {
        match out {
            Output::View(change) => apply(st, change),
            Output::OpenLink { conn, link } => open(st, conn, link),
            Output::CloseLink { conn } => {
                let link = LINKS.with(|l| l.borrow_mut().remove(&conn));
                // The driver asked for the DELETE itself and it was answered (or
                // gave up): what still runs is aborted. Dropping a WebSocket link
                // closes it and detaches its callbacks.
                if let Some(ShellLink::Http(h)) = &link {
                    h.close();
                }
            }
            Output::SendFrame { conn, text } => LINKS.with(|l| {
                if let Some(ShellLink::Ws(w)) = l.borrow().get(&conn) {
                    w.send(&text);
                }
            }),
            // A fetch reports from its own task, never from inside `execute`.
            Output::Http { conn, request } => LINKS.with(|l| {
                if let Some(ShellLink::Http(h)) = l.borrow().get(&conn) {
                    h.execute(request);
                }
            }),
            Output::AbortHttp { conn, req } => LINKS.with(|l| {
                if let Some(ShellLink::Http(h)) = l.borrow().get(&conn) {
                    h.abort(req);
                }
            }),
            Output::ModelRequest(req) => super::llm::send(st, req),
            Output::LoadEngine => super::engine::load(),
            Output::OpenUrl { url } => super::asks::open_tab(&url),
        }
    }
    arm_timer();
}

fn open(st: AppState, conn: ConnId, link: LinkSpec) {
    let has_bridge = st.bridge.with_untracked(|b| b.token.is_some());
    if let Some(notice) = no_bridge::refusal(&link, has_bridge, &here::page_url()) {
        set_timeout(
            move || {
                inbox::send(Input::LinkClosed {
                    conn,
                    why: no_bridge::STATUS.to_owned(),
                });
                inbox::command(Command::ShowNotice(notice));
            },
            Duration::ZERO,
        );
        return;
    }
    let (token, base, root) = st.bridge.with_untracked(|b| {
        (
            b.token.clone().unwrap_or_default(),
            b.base.clone().unwrap_or_default(),
            bridge_addr::root(b, false),
        )
    });
    let made = match link {
        LinkSpec::Bridge(name) => root
            .ok_or_else(|| "the page has no location".to_owned())
            .and_then(|root| WsLink::open(conn, &root, &name, &token))
            .map(ShellLink::Ws),
        // The driver's machine writes `/relay/NAME`; the bridge's address (for a
        // hosted page) and the token go on here only.
        LinkSpec::Http(target @ HttpTarget::Relay(_)) => Ok(ShellLink::Http(HttpLink::new(
            conn,
            &target,
            base,
            format!("?token={}", encode(&token)),
        ))),
        LinkSpec::Http(target @ HttpTarget::Url(_)) => Ok(ShellLink::Http(HttpLink::new(
            conn,
            &target,
            String::new(),
            String::new(),
        ))),
    };
    match made {
        Ok(l) => LINKS.with(|links| {
            links.borrow_mut().insert(conn, l);
        }),
        // Told to the driver after this batch of outputs (it is free by then).
        Err(why) => {
            set_timeout(
                move || inbox::send(Input::LinkClosed { conn, why }),
                Duration::ZERO,
            );
        }
    }
}

/// One timer, for the driver's one deadline.
fn arm_timer() {
    let due = inbox::read(mcpg_page::PageDriver::poll_timeout).flatten();
    TIMER.with(|t| {
        if let Some(old) = t.borrow_mut().take() {
            old.clear();
        }
        let Some(due) = due else { return };
        let wait = due.as_millis().saturating_sub(now().as_millis());
        *t.borrow_mut() =
            set_timeout_with_handle(|| inbox::send(Input::Timer), Duration::from_millis(wait)).ok();
    });
}
