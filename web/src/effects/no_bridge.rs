//! What a page that no bridge served (a static host: no token) says about the
//! connections only a bridge can make, instead of asking its own host for `/ws` or
//! `/relay/`, which a static host does not have.

use mcpg_page::{HttpTarget, LinkSpec};

/// The connection status's reason: short, so the status line shows it whole (the
/// notice says the rest).
pub const STATUS: &str = "needs the bridge: `mcpg serve`";

/// For a link that needs the bridge on a page without one: the notice that says so
/// in full, naming the server and the command that makes a bridge trust `page`
/// (this page's address). `None` when the link can be opened.
pub fn refusal(link: &LinkSpec, has_bridge: bool, page: &str) -> Option<String> {
    if has_bridge {
        return None;
    }
    let what = match link {
        LinkSpec::Bridge(name) => format!("{name:?} is a stdio server of the bridge"),
        LinkSpec::Http(HttpTarget::Relay(name)) => {
            format!("{name:?} is a remote the bridge relays")
        }
        LinkSpec::Http(HttpTarget::Url(_)) => return None,
    };
    Some(format!(
        "{what}, and no bridge serves this page. Run `mcpg serve --page-origin {page}` \
         (or `cargo xtask play` in a checkout) and open the link it prints. Here the \
         embedded demo server and Streamable HTTP URLs (servers that send CORS headers) \
         work without one."
    ))
}
