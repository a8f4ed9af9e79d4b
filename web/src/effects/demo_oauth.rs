//! The demo behind OAuth (`mcpg_demo_auth`), answered inside the page: requests to
//! its two origins never reach `fetch` (they are answered here, a task later, as
//! the network would), and its authorization server's consent is shown in the
//! sign-in panel instead of a window. So the OAuth lesson runs from a static page,
//! offline. Reached from the links chunk (HTTP) and the OAuth chunk only.

use std::cell::RefCell;

use mcpg_demo_auth::{Answer, ConsentError, ProtectedDemo, Request, Screen};

use super::clock::now;

pub use mcpg_demo_auth::{RESOURCE_URL, is_in_page};

thread_local! {
    /// Both servers' state, for the page's life (a reload forgets every token).
    static DEMO: RefCell<ProtectedDemo> = RefCell::new(ProtectedDemo::new());
}

/// The answer to a request for one of the in-page origins.
pub fn answer(method: &str, url: &str, headers: &[(String, String)], body: Option<&str>) -> Answer {
    DEMO.with(|d| {
        d.borrow_mut().answer(
            now(),
            &Request {
                method,
                url,
                headers,
                body,
            },
        )
    })
}

/// What the in-page authorization server's consent screen shows for `url`.
pub fn screen(url: &str) -> Result<Screen, ConsentError> {
    DEMO.with(|d| d.borrow().consent_screen(url))
}

/// The learner approved or denied on the consent screen: the redirect back.
pub fn consent(url: &str, approve: bool) -> Result<String, ConsentError> {
    DEMO.with(|d| d.borrow_mut().consent(url, approve))
}
