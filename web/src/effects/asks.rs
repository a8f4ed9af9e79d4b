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

/// Opens `url` in a new tab with no way back to this page (`noopener`), for
/// `Output::OpenUrl`, which the driver emits only on the learner's click.
pub(super) fn open_tab(url: &str) {
    if let Some(w) = web_sys::window() {
        // A blocked popup returns None; the learner can copy the URL shown instead.
        let _ = w.open_with_url_and_target_and_features(url, "_blank", "noopener");
    }
}
