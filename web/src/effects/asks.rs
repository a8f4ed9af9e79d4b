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
/// ever get this far: only an `https://` or `http://` URL, never `javascript:`,
/// `data:` or another scheme that would run or show something in this origin. The
/// driver applied the full rule before (`mcpg_safe_url`: loopback-only http, no
/// user name); this runs in the first load's code, so it is a prefix test, which
/// is exact for the scheme: the WHATWG parser reads a URL that starts with
/// `https://` as scheme `https` (leading spaces, which the parser would strip, and
/// upper case fail the test, so they are refused, not misread).
fn openable(url: &str) -> bool {
    url.starts_with("https://") || url.starts_with("http://")
}

#[cfg(test)]
mod tests {
    use super::openable;

    #[test]
    fn only_http_and_https_urls_are_opened() {
        for ok in ["https://example.com/a", "http://127.0.0.1:3000/cb"] {
            assert!(openable(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "JAVASCRIPT:alert(1)",
            " javascript:alert(1)",
            "data:text/html,<script>1</script>",
            "blob:https://example.com/x",
            "file:///etc/passwd",
            "//example.com",
            " https://example.com",
            "",
        ] {
            assert!(!openable(bad), "{bad}");
        }
    }
}
