//! The hook that keeps the demo's answers apart. The server reaches the code that
//! answers tool calls, reads, prompts and completions (`serve.rs`, `handlers.rs`,
//! `asking/`, the content's text), and the catalogue of resources and prompts with
//! the core's code that checks tool calls and lists, checks and subscribes to
//! resources and prompts ([`RequestHandlers`]), only through [`Handlers`], so a
//! host whose first screen asks none of that (the page, before its loop's code is in) builds the
//! server without it ([`DemoServer::without_handlers`]) and hands it in later, and
//! that code stays out of its first download. [`DemoServer::new`] has it at once.

use std::fmt;

use mcpg_core::Timestamp;
use mcpg_core::server::{RequestHandlers, Server, ServerEvent};

use crate::DemoServer;

/// The demo's answers, as the server calls them.
pub trait Handlers: Sync + fmt::Debug {
    /// Hands the core's server its [`RequestHandlers`] and the demo's resources,
    /// templates and prompts (`content.json`), once, when the answers come in:
    /// before that the core's server answers every request they would serve with a
    /// JSON-RPC error saying it is not loaded yet, so none reaches the demo.
    fn install(&self, server: &mut Server);
    /// Answers one request of the client's (a tool call, a read, a prompt, a
    /// completion), or takes in the client's answer to the server's question.
    fn serve(&self, demo: &mut DemoServer, now: Timestamp, ev: &ServerEvent);
    /// Advances the slow tool's steps and the URL steps to `now`.
    fn advance(&self, demo: &mut DemoServer, now: Timestamp);
}

/// The one [`Handlers`].
#[derive(Debug)]
struct Answers;

impl Handlers for Answers {
    fn install(&self, server: &mut Server) {
        // `set_handlers` may come more than once: parse the catalogue once.
        if server.has_request_handlers() {
            return;
        }
        let (resources, templates, prompts) = crate::content::catalogue();
        server.set_catalogue(resources, templates, prompts);
        // Found through a tool's `_meta.ui` and through the skill's entry.
        let mut unlisted = vec![crate::content::WEATHER_CARD_URI.to_owned()];
        unlisted.extend(
            crate::content::skills::FILES
                .iter()
                .map(|(u, _)| (*u).to_owned()),
        );
        server.set_unlisted(unlisted);
        server.set_skills(crate::content::skills::entries());
        server.set_request_handlers(RequestHandlers::ALL);
    }

    fn serve(&self, demo: &mut DemoServer, now: Timestamp, ev: &ServerEvent) {
        demo.serve(now, ev);
    }

    fn advance(&self, demo: &mut DemoServer, now: Timestamp) {
        demo.advance(now);
    }
}

/// The demo's answers, for [`DemoServer::set_handlers`].
pub fn handlers() -> &'static dyn Handlers {
    static ANSWERS: Answers = Answers;
    &ANSWERS
}
