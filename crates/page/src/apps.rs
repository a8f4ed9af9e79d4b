//! MCP Apps as the first screen names them: what the learner and a view's frame
//! send in ([`AppCommand`]) and what a hosted view shows ([`AppView`]). The
//! dialogue itself (`mcpg_apps::AppSession`) runs in the later parts.

use std::sync::Arc;

/// What the shell hands in about a hosted view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppCommand {
    /// The view's frame posted a message (its data as JSON text; a value that is
    /// not JSON comes as the text `null`, which the dialogue refuses).
    FromView {
        /// The view.
        view: u64,
        /// The message.
        raw: String,
    },
    /// The learner opened (or dismissed) a link the view asked to open.
    Link {
        /// The view.
        view: u64,
        /// The request's ticket, as [`AppView::links`] names it.
        ticket: u32,
        /// Opened (else dismissed).
        open: bool,
    },
}

/// A link a view asked to open, checked, waiting for the learner's click.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppLink {
    /// Names the request.
    pub ticket: u32,
    /// The checked URL.
    pub url: String,
}

/// One hosted view, as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct AppView {
    /// Names the view (for the page's life).
    pub id: u64,
    /// The tool whose view it is.
    pub tool: String,
    /// Its `ui://` resource.
    pub uri: String,
    /// The HTML, written into the sandboxed frame once it loaded.
    pub html: Arc<str>,
    /// The Content-Security-Policy the frame's document gets (what the view
    /// declared, nothing more).
    pub policy: String,
    /// Where the dialogue stands, in words ("loading", "ready", "torn down"…).
    pub status: &'static str,
    /// The height the view asked for, in pixels (clamped).
    pub height: Option<u32>,
    /// Shown over the whole page.
    pub fullscreen: bool,
    /// Whether the view wants a border.
    pub border: bool,
    /// Links waiting for the learner's click.
    pub links: Vec<AppLink>,
    /// What the view did that the host must show: messages it added to the
    /// conversation, the model context it set, what was refused (newest last).
    pub notes: Vec<String>,
}

/// Where a hosted view belongs in the loop, for the picture of the loop (its lane
/// and arrows). Not a field of [`AppView`]: only the later parts make it and only
/// the picture reads it ([`crate::PageDriver::app_lifelines`]), so the first load
/// carries none of its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppLifeline {
    /// The view ([`AppView::id`]).
    pub view: u64,
    /// The index in the loop's steps of the step 5 whose result the view shows.
    pub step: usize,
    /// The tools the view called through the host that the server answered with a
    /// result, in order.
    pub calls: Vec<String>,
}
