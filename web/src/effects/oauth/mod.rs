//! The OAuth 2.1 sign-in in the page (issue 15), run by the shell: the flow
//! (`mcpg_auth::AuthFlow`, sans-IO) is driven here, in the page's OAuth chunk (only
//! the panel's handlers call it, so none of it is in the first load).
//!
//! - `browser`: `fetch` for the flow's requests (redirects not followed, answers
//!   bounded), entropy from `crypto.getRandomValues`, the sign-in window (no
//!   opener, checked URLs only), and the redirect handed back by
//!   `oauth-callback.html` (accepted from this origin only).
//! - `runner`: the flow's state for the connection, its events as signals (the
//!   exchange cards, the status, step mode), the token into `conn_headers`.

mod browser;
mod runner;

pub use browser::{BridgeFetch, bridge_fetch, redirect_uri, refused, run as perform};
pub use runner::{
    OAuthView, Start, Status, begin, can_refresh, consent_in_page, forget, give_up, next,
    open_sign_in,
};
