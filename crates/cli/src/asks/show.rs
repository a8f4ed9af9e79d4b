//! What the server asked and what mcpg answered, one or two lines each for
//! stderr. Everything the server wrote is escaped for the terminal.

use std::sync::Arc;

use mcpg_core::jsonrpc::RpcError;
use mcpg_core::model::ElicitationComplete;
use mcpg_host::asks::{self, Ask, ElicitAction, ElicitAsk, ElicitMode, Reply};
use mcpg_transport::{Observed, Observer};
use serde_json::Value;

use crate::escape;

/// How long a quoted text may get before it is cut.
const QUOTE_LIMIT: usize = 200;

/// The ask, as `server asks (METHOD): …`.
pub fn ask(ask: &Ask) -> String {
    let what = match ask {
        Ask::Roots => "which roots it may see".to_owned(),
        Ask::Sampling(s) => {
            let mut line = format!(
                "a model's answer to {} (maxTokens {})",
                quote(&s.last_user_text()),
                s.max_tokens
            );
            if let Some(p) = &s.system_prompt {
                line.push_str(&format!(", system prompt {}", quote(p)));
            }
            if !s.tools.is_empty() {
                line.push_str(&format!(", {} tools", s.tools.len()));
            }
            line
        }
        Ask::Elicit(e) => match &e.mode {
            ElicitMode::Form { requested_schema } => {
                let fields: Vec<String> = requested_schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().map(|k| escape::line(k)).collect())
                    .unwrap_or_default();
                format!(
                    "{} (form: {})",
                    quote(&e.message),
                    if fields.is_empty() {
                        "no fields".to_owned()
                    } else {
                        fields.join(", ")
                    }
                )
            }
            ElicitMode::Url { url, domain, .. } => format!(
                "{} (open {} on {})",
                quote(&e.message),
                quote(url),
                escape::line(domain)
            ),
        },
    };
    format!("server asks ({}): {what}", ask.method())
}

/// The reply, as `mcpg answered: …`.
pub fn reply(reply: &Reply) -> String {
    let what = match reply {
        Reply::Sampled(s) => {
            let text = s.content.get("text").and_then(Value::as_str);
            let body = text.map_or_else(|| escape::line(&s.content.to_string()), quote);
            format!("{body} (model {})", escape::line(&s.model))
        }
        Reply::SamplingRejected => "rejected the sampling request (-1)".to_owned(),
        Reply::Elicited(ElicitAction::Accept(c)) if c.is_empty() => "accept".to_owned(),
        Reply::Elicited(ElicitAction::Accept(c)) => {
            format!(
                "accept {}",
                escape::line(&Value::Object(c.clone()).to_string())
            )
        }
        Reply::Elicited(ElicitAction::Decline) => "decline".to_owned(),
        Reply::Elicited(ElicitAction::Cancel) => "cancel".to_owned(),
        Reply::Roots(roots) if roots.is_empty() => "no roots".to_owned(),
        Reply::Roots(roots) => roots
            .iter()
            .map(|r| escape::line(&r.uri))
            .collect::<Vec<_>>()
            .join(", "),
    };
    format!("mcpg answered: {what}")
}

/// `-32042` (URL elicitation required): each URL the server wants opened, with
/// its domain, one line each; empty for any other error. mcpg opens none.
pub fn url_required(e: &RpcError) -> Vec<String> {
    asks::url_elicitations(e)
        .into_iter()
        .map(|el| match el {
            Ok(ElicitAsk {
                message,
                mode: ElicitMode::Url { url, domain, .. },
                ..
            }) => format!(
                "server needs a URL opened first: {} (open {} on {}; mcpg does not open it, then call again)",
                quote(&message),
                quote(&url),
                escape::line(&domain)
            ),
            Ok(_) => "server sent a -32042 elicitation that is not a URL".to_owned(),
            Err(why) => format!(
                "server sent a URL elicitation mcpg will not offer: {}",
                escape::line(&why.to_string())
            ),
        })
        .collect()
}

/// `notifications/elicitation/complete`, as a line for stderr; `None` for any
/// other notification.
pub fn completion(method: &str, params: Option<&Value>) -> Option<String> {
    let done = ElicitationComplete::from_notification(method, params)?;
    Some(format!(
        "server says URL elicitation {} is complete",
        quote(&done.elicitation_id)
    ))
}

/// Without `--verbose`, the driver's only observer: it prints [`completion`].
pub fn completion_observer() -> Observer {
    Arc::new(|o: &Observed| {
        if let Observed::Notification { method, params } = o
            && let Some(line) = completion(method, params.as_ref())
        {
            eprintln!("{line}");
        }
    })
}

/// A text in quotes, on one line, cut at [`QUOTE_LIMIT`] characters.
fn quote(s: &str) -> String {
    let cut: String = s.chars().take(QUOTE_LIMIT).collect();
    let more = if cut.len() < s.len() { "…" } else { "" };
    format!("\"{}{more}\"", escape::line(&cut))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use mcpg_host::asks::{Root, parse};
    use serde_json::json;

    use super::*;

    #[test]
    fn asks_and_replies_read_as_text() {
        let url = json!({"mode": "url", "message": "Pay\u{1b}]0;x", "url": "https://pay.example.com/a", "elicitationId": "e1"});
        let got = ask(&parse("elicitation/create", Some(&url)).unwrap());
        assert_eq!(
            got,
            "server asks (elicitation/create): \"Pay\\u{1b}]0;x\" (open \"https://pay.example.com/a\" on pay.example.com)"
        );
        let form = json!({"message": "Size?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}});
        let got = ask(&parse("elicitation/create", Some(&form)).unwrap());
        assert_eq!(got, "server asks (elicitation/create): \"Size?\" (form: n)");
        let roots = Reply::Roots(vec![Root::new("file:///a"), Root::new("file:///b")]);
        assert_eq!(reply(&roots), "mcpg answered: file:///a, file:///b");
        let mut c = mcpg_core::model::JsonObject::new();
        c.insert("n".into(), json!(2));
        assert_eq!(
            reply(&Reply::Elicited(ElicitAction::Accept(c))),
            "mcpg answered: accept {\"n\":2}"
        );
        let e = RpcError {
            code: -32042,
            message: "open it".into(),
            data: Some(json!({"elicitations": [
                {"mode": "url", "url": "https://a.example/x", "message": "Sign in", "elicitationId": "1"},
                {"mode": "url", "url": "javascript:alert(1)", "message": "no"}
            ]})),
        };
        let lines = url_required(&e);
        assert_eq!(
            lines[0],
            "server needs a URL opened first: \"Sign in\" (open \"https://a.example/x\" on a.example; mcpg does not open it, then call again)"
        );
        assert!(
            lines[1].starts_with("server sent a URL elicitation mcpg will not offer: the URL \"javascript:alert(1)\" cannot be offered"),
            "{}",
            lines[1]
        );
        assert!(url_required(&RpcError::new(-32602, "x")).is_empty());
        let done = json!({"elicitationId": "link-1"});
        assert_eq!(
            completion("notifications/elicitation/complete", Some(&done)).as_deref(),
            Some("server says URL elicitation \"link-1\" is complete")
        );
        assert_eq!(completion("notifications/message", Some(&done)), None);
        assert_eq!(
            reply(&Reply::SamplingRejected),
            "mcpg answered: rejected the sampling request (-1)"
        );
    }
}
