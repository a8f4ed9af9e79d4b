//! The two URL-elicitation messages a host shows outside the request itself
//! (2025-11-25): the `-32042` `URLElicitationRequiredError` and
//! `notifications/elicitation/complete`.

use serde_json::Value;

use crate::jsonrpc::{RpcError, code};

/// One `ElicitRequestURLParams` carried by a `-32042` error: a URL the user must
/// visit before the request can succeed. Untrusted: a host shows it, and opens it
/// only when the user asks.
#[derive(Clone, Debug, PartialEq)]
pub struct UrlElicitation {
    /// Why the user should go there.
    pub message: String,
    /// The URL, as sent.
    pub url: String,
    /// `elicitationId`, matched by `notifications/elicitation/complete`.
    pub elicitation_id: Option<String>,
    /// The params object as sent.
    pub raw: Value,
}

/// A `-32042` error read: the URL elicitations it carries (entries without a
/// `url` are skipped; the core reports them as an `elicitation` diagnostic).
#[derive(Clone, Debug, PartialEq)]
pub struct UrlElicitationRequired {
    /// The elicitations, in order.
    pub elicitations: Vec<UrlElicitation>,
}

impl UrlElicitationRequired {
    /// `Some` when `error` is a `-32042` (whatever its data holds).
    pub fn from_error(error: &RpcError) -> Option<Self> {
        if error.code != code::URL_ELICITATION_REQUIRED {
            return None;
        }
        let items = error
            .data
            .as_ref()
            .and_then(|d| d.get("elicitations"))
            .and_then(Value::as_array);
        let elicitations = items
            .into_iter()
            .flatten()
            .filter_map(|e| {
                let s = |k: &str| e.get(k).and_then(Value::as_str).map(str::to_owned);
                Some(UrlElicitation {
                    url: s("url")?,
                    message: s("message").unwrap_or_default(),
                    elicitation_id: s("elicitationId"),
                    raw: e.clone(),
                })
            })
            .collect();
        Some(UrlElicitationRequired { elicitations })
    }
}

/// `notifications/elicitation/complete`: the server says an out-of-band
/// elicitation finished (the host may retry what needed it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElicitationComplete {
    /// The elicitation that completed.
    pub elicitation_id: String,
}

impl ElicitationComplete {
    /// The method name.
    pub const METHOD: &'static str = "notifications/elicitation/complete";

    /// Reads a notification; `None` for any other method or without an id.
    pub fn from_notification(method: &str, params: Option<&Value>) -> Option<Self> {
        (method == Self::METHOD).then_some(())?;
        let id = params?.get("elicitationId")?.as_str()?;
        Some(ElicitationComplete {
            elicitation_id: id.to_owned(),
        })
    }
}
