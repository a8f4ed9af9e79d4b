//! `elicitation/create`: a form built from `requestedSchema`, or (2025-11-25 and
//! later) a URL the learner may open. A URL is only ever offered with the domain it
//! really goes to, and only http(s) URLs with a host are offered at all.

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
        /// Its host, lowercased, without user info or port: what the learner must
        /// see before choosing to open it.
        domain: String,
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
                domain,
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

/// The host an http(s) URL goes to, lowercased, without user info or port; or why
/// the URL must not be offered. `https://bank.example@evil.example/` goes to
/// `evil.example`, and that is what this returns.
pub fn url_domain(url: &str) -> Result<String, &'static str> {
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("it contains spaces or control characters");
    }
    let Some((scheme, rest)) = url.split_once(':') else {
        return Err("it has no scheme");
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err("only http and https URLs are opened");
    }
    let Some(rest) = rest.strip_prefix("//") else {
        return Err("it has no host");
    };
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, _)) => h,
            None => return Err("its IPv6 host is not closed"),
        }
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    if host.is_empty() {
        return Err("it has no host");
    }
    Ok(host.to_ascii_lowercase())
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
