//! "The server asks": the learner's answers as [`mcpg_page::AskCommand`]s, and the
//! one place the page opens a server's URL (only when the driver says the learner
//! clicked it).

use mcpg_host::asks::{Reply, Root};
use mcpg_page::{AskCommand, Command};

use super::inbox;

/// Sends the learner's answer to question `id`.
pub fn answer(id: u64, reply: Reply) {
    inbox::command(Command::Ask(AskCommand::Answer { id, reply }));
}

/// The learner asks the real model to write the reply to sampling request `id`,
/// asking it the request's params as edited (`asked`; `None`: as sent).
pub fn sample_with_model(id: u64, asked: Option<serde_json::Value>) {
    inbox::command(Command::Ask(AskCommand::SampleWithModel { id, asked }));
}

/// The learner clicked "Open" on a URL elicitation.
pub fn open_url(id: u64) {
    inbox::command(Command::Ask(AskCommand::OpenUrl { id }));
}

/// The learner's roots changed.
pub fn set_roots(roots: Vec<Root>) {
    inbox::command(Command::Ask(AskCommand::SetRoots(roots)));
}

/// Opens `url` in a new tab with no way back to this page (`noopener`) and no
/// `Referer`, for `Output::OpenUrl`, which the driver emits only on the learner's
/// click and only for a URL that passed the shared rule (`mcpg_safe_url`).
pub(super) fn open_tab(url: &str) {
    if !openable(url) {
        return;
    }
    if let Some(w) = web_sys::window() {
        // A blocked popup returns None; the learner can copy the URL shown instead.
        let _ = w.open_with_url_and_target_and_features(url, "_blank", "noopener,noreferrer");
    }
}

/// The last guard before a server's URL is opened (issue 26), should a refused one
/// ever get this far: `https:`, or `http:` to a loopback host, with no user name
/// or password, as the browser itself parses it (`URL`, WHATWG). This runs in the
/// first load's code, so it leans on the browser's parser rather than bringing
/// the `url` crate along; the driver applied the full rule before.
fn openable(url: &str) -> bool {
    let Ok(u) = web_sys::Url::new(url) else {
        return false;
    };
    let host = u.hostname();
    let loopback = host == "localhost"
        || host.ends_with(".localhost")
        || host == "[::1]"
        // The parser writes an IPv4 host as four decimal numbers.
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|a| a.is_loopback());
    let scheme_ok = match u.protocol().as_str() {
        "https:" => true,
        "http:" => loopback,
        _ => false,
    };
    scheme_ok && u.username().is_empty() && u.password().is_empty() && !host.is_empty()
}
