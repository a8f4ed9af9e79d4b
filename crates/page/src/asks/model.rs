//! A sampling request answered by a real model: the provider's request for it, built
//! with the host's provider formats (`mcpg_host::asks::sampling_request`) and sent
//! the way the loop's model turns are ([`crate::Output::ModelRequest`], the shell
//! adding the key), and its reply read back as a draft for the learner to approve.
//! Reached only through the engine, so this code leaves the page's first load.

use mcpg_host::asks::{Ask, Sampled, parse, sampled_from_reply, sampling_request};
use mcpg_host::provider::{Provider, endpoint, key_header};
use serde_json::Value;

use crate::engine::Asked;
use crate::input::ModelReply;
use crate::settings::LlmSettings;

/// The request to `provider` for sampling request `params`, or why there is none.
pub(crate) fn request(
    provider: Provider,
    settings: &LlmSettings,
    params: &Value,
) -> Result<Asked, String> {
    let ask = match parse("sampling/createMessage", Some(params)) {
        Ok(Ask::Sampling(s)) => s,
        Ok(_) => return Err("not a sampling request".to_owned()),
        Err(e) => return Err(e.to_string()),
    };
    let ep = endpoint(provider, &settings.base, &settings.model);
    let body = sampling_request(provider, &ask, &settings.model);
    Ok(Asked {
        head: serde_json::json!({"method": "POST", "url": ep.url}),
        url: ep.url,
        headers: ep.headers,
        key_header: key_header(provider, "k").map(|(name, _)| name),
        body: body.to_string(),
    })
}

/// The model's reply to sampling request `params`, as the message to approve.
pub(crate) fn reply(
    provider: Provider,
    params: &Value,
    reply: &ModelReply,
) -> Result<Sampled, String> {
    let ask = match parse("sampling/createMessage", Some(params)) {
        Ok(Ask::Sampling(s)) => s,
        _ => return Err("not a sampling request".to_owned()),
    };
    match reply {
        ModelReply::Http { status, body } if (200..300).contains(status) => {
            let v: Value = serde_json::from_str(body)
                .map_err(|e| format!("the model's reply is not JSON: {e}"))?;
            sampled_from_reply(provider, &ask, &v).map_err(|e| e.to_string())
        }
        ModelReply::Http { status, body } => Err(format!(
            "the model answered HTTP {status}: {}",
            mcpg_core::validate::truncate(body, 300)
        )),
        ModelReply::Unreachable { detail, .. } => {
            Err(format!("the model could not be reached: {detail}"))
        }
    }
}
