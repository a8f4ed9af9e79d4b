//! Every URL a server or an authorization server hands the flow passes
//! [`mcpg_safe_url::check`] before it is fetched or opened: `resource_metadata`,
//! `authorization_servers`, the metadata's endpoints, every request the flow
//! queues and the authorization URL. A refusal is a refused step: a card whose
//! finding names the rule, and [`AuthError::UnsafeUrl`], so no driver ever
//! fetches or opens it (a `javascript:` sign-in link would run in the page).

use mcpg_core::diag::Severity;
use mcpg_safe_url::{Checked, RULE};

use crate::cards::Card;
use crate::{AuthError, AuthFlow, Step};

/// The finding's stable rule id on a refused URL.
pub(crate) const UNSAFE_URL: &str = "auth-unsafe-url";

/// How much of a refused URL an error or a card repeats (a `data:` URL can be
/// megabytes).
const SHOWN: usize = 160;

/// `url`, cut to [`SHOWN`] characters for a message.
pub(crate) fn short(url: &str) -> String {
    match url.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}…", &url[..end]),
        None => url.to_owned(),
    }
}

/// Checks `url`, read from `field` of what a server sent; on a refusal, adds the
/// finding naming the rule to `card` and returns the error that stops the flow.
pub(crate) fn check(card: &mut Card, field: &'static str, url: &str) -> Result<Checked, AuthError> {
    mcpg_safe_url::check(url).map_err(|refusal| {
        card.finding(
            UNSAFE_URL,
            Severity::Error,
            &format!("{field}: {RULE}"),
            &format!("{} ({refusal}; rule: {})", short(url), refusal.rule()),
        );
        AuthError::UnsafeUrl {
            field,
            url: url.to_owned(),
            refusal,
        }
    })
}

impl AuthFlow {
    /// Emits the card of a refused step and stops the flow.
    pub(crate) fn refuse(&mut self, card: Card, e: AuthError) {
        self.emit_card(card);
        self.fail(e);
    }

    /// Whether `url` (from `field`) may be fetched or opened; when not, a card of
    /// `step` shows the refusal and the flow stops. For URLs without a card of
    /// their own yet: the challenge's `resource_metadata`, a request about to be
    /// queued, the authorization URL about to be handed to the browser.
    pub(crate) fn url_ok(&mut self, step: Step, field: &'static str, url: &str) -> bool {
        if mcpg_safe_url::check(url).is_ok() {
            return true;
        }
        let mut card = Card::plain(
            step,
            crate::cards::spec_for(step, &self.cfg.revision),
            format!(
                "The client refuses {field}: a URL from a server is fetched or opened only when it is https, or http to a loopback host, without user name or password."
            ),
            format!("(refused: neither fetched nor opened) {}", short(url)),
        );
        if let Err(e) = check(&mut card, field, url) {
            self.refuse(card, e);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_urls_are_cut_for_messages() {
        let long = format!("data:text/html,{}", "x".repeat(1000));
        let s = short(&long);
        assert_eq!(s.chars().count(), SHOWN + 1);
        assert!(s.ends_with('…'));
        assert_eq!(short("https://as.example/"), "https://as.example/");
    }
}
