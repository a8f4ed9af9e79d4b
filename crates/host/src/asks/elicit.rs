//! `elicitation/create`: a form built from `requestedSchema`, or (2025-11-25 and
//! later) a URL the learner may open. A URL is only ever offered with the domain it
//! really goes to (as the WHATWG parser, so the browser, reads it; punycode beside
//! Unicode), and only URLs that pass the one URL rule (`mcpg_safe_url`: https, or
//! http to a loopback host, no user name or password) are offered at all.

use serde_json::Value;

use super::{AskError, opt_str, params_object, req_str};

/// What an `elicitation/create` asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct ElicitAsk {
    /// The message to show the user (untrusted text).
    pub message: String,
    /// Form or URL.
    pub mode: ElicitMode,
    /// The params exactly as sent, for display.
    pub raw: Value,
}

/// The two elicitation modes.
#[derive(Clone, Debug, PartialEq)]
pub enum ElicitMode {
    /// `ElicitRequestFormParams`: fill in a flat form.
    Form {
        /// `requestedSchema`, as sent (see [`super::elicit_fields`]).
        requested_schema: Value,
    },
    /// `ElicitRequestURLParams`: open a URL, out of band.
    Url {
        /// The full URL, as sent.
        url: String,
        /// Its host as it goes on the wire (lower case, punycode, IPv6 in
        /// brackets), without user info or port: what the learner must see before
        /// choosing to open it.
        domain: String,
        /// The same host in Unicode (equal to `domain` unless the name is
        /// international): shown beside `domain`, so a look-alike shows its `xn--`.
        domain_unicode: String,
        /// `elicitationId` (2025-11-25), matched by `notifications/elicitation/complete`.
        elicitation_id: Option<String>,
    },
}

pub(super) fn parse(params: Option<&Value>) -> Result<ElicitAsk, AskError> {
    let o = params_object(params)?;
    let message = req_str(o, "message")?;
    // 2025-06-18 has no `mode`: every elicitation there is a form.
    let mode = match opt_str(o, "mode")?.as_deref() {
        None | Some("form") => match o.get("requestedSchema") {
            Some(s @ Value::Object(_)) => ElicitMode::Form {
                requested_schema: s.clone(),
            },
            Some(_) => {
                return Err(AskError::Invalid {
                    field: "params.requestedSchema".into(),
                    expected: "an object schema",
                });
            }
            None => return Err(AskError::Missing("params.requestedSchema".into())),
        },
        Some("url") => {
            let url = req_str(o, "url")?;
            let domain = url_domain(&url).map_err(|reason| AskError::BadUrl {
                url: url.clone(),
                reason,
            })?;
            ElicitMode::Url {
                url,
                domain: domain.ascii,
                domain_unicode: domain.unicode,
                elicitation_id: opt_str(o, "elicitationId")?,
            }
        }
        Some(_) => {
            return Err(AskError::Invalid {
                field: "params.mode".into(),
                expected: "\"form\" or \"url\"",
            });
        }
    };
    Ok(ElicitAsk {
        message,
        mode,
        raw: Value::Object(o.clone()),
    })
}

/// Where a URL goes, both ways a person may need to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domain {
    /// As it goes on the wire: lower case, punycode (`xn--…`), IPv6 in brackets.
    pub ascii: String,
    /// As a person reads it: Unicode where the name is international.
    pub unicode: String,
}

/// The host a URL goes to (without user info or port), as the WHATWG parser, so
/// the browser, reads it; or why the URL must not be offered (it breaks the one
/// URL rule, [`mcpg_safe_url::RULE`]). `https://bank.example\@evil.example/` goes
/// to `bank.example` (a backslash ends the host), and that is what this returns.
pub fn url_domain(url: &str) -> Result<Domain, mcpg_safe_url::Refusal> {
    let checked = mcpg_safe_url::check(url)?;
    Ok(Domain {
        ascii: checked.host_ascii(),
        unicode: checked.host_unicode(),
    })
}

/// The URL elicitations a `-32042` error carries (`data.elicitations`), each read
/// as an [`ElicitAsk`] (URL mode, domain checked) so the host shows them as it
/// shows `elicitation/create`; empty for any other error.
pub fn url_elicitations(error: &mcpg_core::jsonrpc::RpcError) -> Vec<Result<ElicitAsk, AskError>> {
    let Some(required) = mcpg_core::model::UrlElicitationRequired::from_error(error) else {
        return Vec::new();
    };
    let items = error
        .data
        .as_ref()
        .and_then(|d| d.get("elicitations"))
        .and_then(Value::as_array);
    match items {
        // Every entry, the malformed ones too (as errors naming the field).
        Some(all) => all
            .iter()
            .map(|e| {
                let mut p = e.clone();
                if let Some(o) = p.as_object_mut() {
                    o.entry("mode").or_insert_with(|| Value::from("url"));
                }
                parse(Some(&p))
            })
            .collect(),
        None if required.elicitations.is_empty() => {
            vec![Err(AskError::Missing("error.data.elicitations".into()))]
        }
        None => Vec::new(),
    }
}
