//! The code for connections, as a split wasm chunk (`mcpg_links`): the links the
//! shell opens for the driver (a bridge WebSocket, a Streamable HTTP endpoint) by
//! connection id, and real models' requests. None of it runs before the first tool
//! list (the embedded demo is an in-memory link inside the driver), so it is fetched
//! on first need, or right after the first tool list (`link_chunk`).
//!
//! The bridge's list of servers (`bridge_list`) is read with it too.
//!
//! The split function hands back plain function pointers, [`Transports`]: code
//! reached only through them (`ws`, `http` with `mcpg_http::fetch`, `llm::send`,
//! `bridge_list`, the web-sys bindings they use) leaves the first load with them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;

use leptos::prelude::*;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use mcpg_page::{Command, ConnId, HttpTarget, Input, LinkSpec, Output};

use super::bridge_addr;
use super::here;
use super::http::HttpLink;
use super::inbox;
use super::no_bridge;
use super::ws::WsLink;
use crate::state::AppState;

/// What the chunk hands back.
#[derive(Clone, Copy)]
pub struct Transports {
    /// Runs one of the driver's link or model outputs (others are ignored).
    pub run: fn(AppState, Output),
    /// Reads the bridge's server list into the page's state.
    pub list_bridge: fn(AppState),
}

/// A transport the shell holds for the driver.
enum ShellLink {
    Ws(WsLink),
    Http(HttpLink),
}

thread_local! {
    static LINKS: RefCell<HashMap<ConnId, ShellLink>> = RefCell::new(HashMap::new());
}

/// The chunk's code, once fetched (`None`: it could not be).
pub async fn load() -> Option<Transports> {
    transports().await.ok()
}

#[wasm_split(mcpg_links, wasm_split_path = ::leptos::wasm_split, fallible)]
fn transports() -> Result<Transports, SplitLoaderError> {
    Ok(Transports {
        run,
        list_bridge: super::bridge_list::list,
    })
}

fn run(st: AppState, out: Output) {
    match out {
        Output::OpenLink { conn, link } => open(st, conn, link),
        Output::CloseLink { conn } => {
            let link = LINKS.with(|l| l.borrow_mut().remove(&conn));
            // The driver asked for the DELETE itself and it was answered (or gave
            // up): what still runs is aborted. Dropping a WebSocket link closes it
            // and detaches its callbacks.
            if let Some(ShellLink::Http(h)) = &link {
                h.close();
            }
        }
        Output::SendFrame { conn, text } => LINKS.with(|l| {
            if let Some(ShellLink::Ws(w)) = l.borrow().get(&conn) {
                w.send(&text);
            }
        }),
        // A fetch reports from its own task, never from inside the shell.
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
        Output::AppPost { view, text } => super::app_post::post(view, &text),
        Output::View(_) | Output::LoadLater | Output::OpenUrl { .. } => {}
    }
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
            .map(|(link, missed)| (ShellLink::Ws(link), missed)),
        // The driver's machine writes `/relay/NAME`; the bridge's address (for a
        // hosted page) and the token go on here only.
        LinkSpec::Http(target @ HttpTarget::Relay(_)) => Ok((
            ShellLink::Http(HttpLink::new(conn, &target, base, Some(token))),
            Vec::new(),
        )),
        LinkSpec::Http(target @ HttpTarget::Url(_)) => Ok((
            ShellLink::Http(HttpLink::new(conn, &target, String::new(), None)),
            Vec::new(),
        )),
    };
    match made {
        Ok((l, missed)) => {
            LINKS.with(|links| {
                links.borrow_mut().insert(conn, l);
            });
            // What a socket opened early fired meanwhile, now that the outputs it
            // causes (the first frame) find the link.
            for input in missed {
                inbox::send(input);
            }
        }
        // Told to the driver after this batch of outputs (it is free by then).
        Err(why) => {
            super::early_ws::discard(conn);
            set_timeout(
                move || inbox::send(Input::LinkClosed { conn, why }),
                Duration::ZERO,
            );
        }
    }
}
