//! A real model's HTTP request, built for the loop's next turn or for a server's
//! sampling request, and a sampling request's reply read back.

use mcpg_host::ToolLoop;
use mcpg_host::asks::{Ask, Sampled, SamplingAsk, parse, sampled_from_reply, sampling_request};
use mcpg_host::provider::{Provider, endpoint, key_header, shown_request};
use mcpg_page::LlmSettings;
use serde_json::Value;

/// A real model's request as the driver sends it (body and URL) and shows it in
/// step 3 (`head`: the request line and headers, the key as its masked hint only).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ModelHttp {
    /// Request line and headers as shown.
    pub(crate) head: Value,
    /// URL to POST to.
    pub(crate) url: String,
    /// Headers without the key.
    pub(crate) headers: Vec<(&'static str, String)>,
    /// The header that carries the key, if the provider uses one.
    pub(crate) key_header: Option<&'static str>,
    /// The JSON body.
    pub(crate) body: String,
}

/// The request in `provider`'s format for the loop's next turn (`hint`: the key's
/// masked hint, shown in its header).
pub(crate) fn loop_request(
    run: &mut ToolLoop,
    provider: Provider,
    settings: &LlmSettings,
    hint: Option<String>,
) -> ModelHttp {
    run.set_model_name(&settings.model);
    let ep = endpoint(provider, &settings.base, &settings.model);
    // The request as shown in step 3: the key header carries the masked hint only.
    let key_name = key_header(provider, "k").map(|(name, _)| name);
    let mut head = shown_request(provider, &ep, "");
    if let (Some(name), Some(hint)) = (key_name, hint)
        && let Some(h) = head.get_mut("headers").and_then(Value::as_object_mut)
    {
        let bearer = key_header(provider, "k").is_some_and(|(_, v)| v.starts_with("Bearer "));
        let shown = if bearer {
            format!("Bearer {hint}")
        } else {
            hint
        };
        h.insert(name.to_owned(), Value::from(shown));
    }
    ModelHttp {
        head,
        url: ep.url,
        headers: ep.headers,
        key_header: key_name,
        body: run.model_request().to_string(),
    }
}

/// The request for a server's sampling request's `params`, or why not.
pub(crate) fn sampling_http(
    provider: Provider,
    settings: &LlmSettings,
    params: &Value,
) -> Result<ModelHttp, String> {
    let ask = sampling_ask(params)?;
    let ep = endpoint(provider, &settings.base, &settings.model);
    Ok(ModelHttp {
        head: serde_json::json!({"method": "POST", "url": ep.url}),
        url: ep.url,
        headers: ep.headers,
        key_header: key_header(provider, "k").map(|(name, _)| name),
        body: sampling_request(provider, &ask, &settings.model).to_string(),
    })
}

/// A real model's HTTP answer to that request, as the message to approve.
pub(crate) fn sampled(
    provider: Provider,
    params: &Value,
    status: u16,
    body: &str,
) -> Result<Sampled, String> {
    let ask = sampling_ask(params)?;
    if !(200..300).contains(&status) {
        let said = mcpg_core::validate::truncate(body, 300);
        return Err(format!("the model answered HTTP {status}: {said}"));
    }
    let v: Value =
        serde_json::from_str(body).map_err(|e| format!("the model's reply is not JSON: {e}"))?;
    sampled_from_reply(provider, &ask, &v).map_err(|e| e.to_string())
}

/// A server's sampling request, read (a real model is asked only for one).
fn sampling_ask(params: &Value) -> Result<SamplingAsk, String> {
    match parse("sampling/createMessage", Some(params)) {
        Ok(Ask::Sampling(s)) => Ok(s),
        Ok(_) => Err("not a sampling request".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}
