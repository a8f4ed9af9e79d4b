//! [`Engine`]'s one value, over `mcpg_host` (its loop, mock model, provider formats,
//! schema checker and asks), the Streamable HTTP machine, the Resources, Prompts and
//! Logs panels' code and the embedded demo's answers. Only the shell names
//! [`host_engine`], so in the page all of it is in the engine's split chunk.

use std::any::Any;
use std::sync::Arc;

use mcpg_core::client::Event;
use mcpg_core::jsonrpc::RpcError;
use mcpg_core::model::JsonObject;
use mcpg_core::model::{CallToolResult, Tool};
use mcpg_host::asks::{
    Ask, Reply, Sampled, SamplingAsk, parse, sampled_from_reply, sampling_request,
};
use mcpg_host::provider::{
    ModelTurn, Provider, RequestOptions, Turn, endpoint, key_header, shown_request,
};
use mcpg_host::schema::{self, SchemaError};
use mcpg_host::script::Script;
use mcpg_host::{MockModel, ToolLoop};
use mcpg_http::{HttpConfig, HttpMachine};
use serde_json::Value;

use crate::driver::PageDriver;
use crate::engine::{Asked, Engine, EngineRef};
use crate::features::{FeatureCommand, FeatureCtx};
use crate::http_port::HttpPort;
use crate::later::Later;
use crate::settings::LlmSettings;

/// The host's engine (`mcpg_host`'s loop, mock and provider formats). Only the
/// shell calls this: code reached from here alone leaves the page's first load.
pub fn host_engine() -> EngineRef {
    static HOST: HostEngine = HostEngine;
    EngineRef(&HOST)
}

/// [`Engine`] over `mcpg_host`.
struct HostEngine;

impl Engine for HostEngine {
    fn start(
        &self,
        prompt: &str,
        seed: Option<Vec<Turn>>,
        provider: Provider,
        opts: RequestOptions,
    ) -> ToolLoop {
        let seeded =
            seed.and_then(|turns| ToolLoop::from_turns(turns, provider, opts.clone()).ok());
        seeded.unwrap_or_else(|| ToolLoop::new(prompt, provider, opts))
    }

    fn script(&self, values: &[Value]) -> Script {
        Script::from_values(values).unwrap_or_default()
    }

    fn played(&self, run: &ToolLoop) -> Vec<Value> {
        run.played().iter().map(|t| t.to_value()).collect()
    }

    fn on_event(&self, run: &mut ToolLoop, ev: &Event) {
        run.on_event(ev);
    }

    fn reshape(&self, run: &mut ToolLoop) {
        run.reshape();
    }

    fn replied(&self, run: &mut ToolLoop, turn: ModelTurn, why: &str) {
        run.model_replied(turn, None, why);
    }

    fn ask_mock(&self, run: &mut ToolLoop) {
        run.ask_mock(&MockModel);
    }

    fn ask_script(&self, run: &mut ToolLoop, script: &mut Script) -> bool {
        run.ask_script(script, &MockModel)
    }

    fn ask(
        &self,
        run: &mut ToolLoop,
        provider: Provider,
        settings: &LlmSettings,
        hint: Option<String>,
    ) -> Asked {
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
        Asked {
            head,
            url: ep.url,
            headers: ep.headers,
            key_header: key_name,
            body: run.model_request().to_string(),
        }
    }

    fn http_reply(&self, run: &mut ToolLoop, status: u16, body: &str, head: &Value) {
        run.model_http_reply(status, body, head);
    }

    fn unreachable(&self, run: &mut ToolLoop, detail: &str, head: &Value, origin: &str) {
        run.model_unreachable(detail, head, origin);
    }

    fn check(&self, tool: &Tool, result: &CallToolResult) -> Option<Result<(), Vec<SchemaError>>> {
        schema::check_structured(tool, result)
    }

    fn http(&self, url: &str) -> Box<dyn HttpPort> {
        // A 401 (or a step-up's 403) holds the requests for the page's sign-in
        // instead of failing them (issue 15).
        let mut cfg = HttpConfig::new(url);
        cfg.hold_unauthorized = true;
        Box::new(HttpMachine::new(cfg))
    }

    fn answer_result(&self, reply: &Reply) -> Result<Value, RpcError> {
        reply.to_result()
    }

    fn input_responses(&self, replies: &[(String, Reply)]) -> JsonObject {
        mcpg_host::asks::input_responses(replies)
    }

    fn url_ok(&self, url: &str) -> bool {
        mcpg_host::asks::url_domain(url).is_ok()
    }

    fn url_elicitations(&self, error: &RpcError) -> Vec<Result<Value, String>> {
        mcpg_host::asks::url_elicitations(error)
            .into_iter()
            .map(|a| a.map(|a| a.raw).map_err(|e| e.to_string()))
            .collect()
    }

    fn sample(
        &self,
        provider: Provider,
        settings: &LlmSettings,
        params: &Value,
    ) -> Result<Asked, String> {
        let ask = sampling_ask(params)?;
        let ep = endpoint(provider, &settings.base, &settings.model);
        Ok(Asked {
            head: serde_json::json!({"method": "POST", "url": ep.url}),
            url: ep.url,
            headers: ep.headers,
            key_header: key_header(provider, "k").map(|(name, _)| name),
            body: sampling_request(provider, &ask, &settings.model).to_string(),
        })
    }

    fn sampled(
        &self,
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
        let v: Value = serde_json::from_str(body)
            .map_err(|e| format!("the model's reply is not JSON: {e}"))?;
        sampled_from_reply(provider, &ask, &v).map_err(|e| e.to_string())
    }

    fn demo_handlers(&self) -> &'static dyn mcpg_demo::Handlers {
        mcpg_demo::handlers()
    }

    fn answer_readers(&self) -> mcpg_core::client::AnswerReaders {
        mcpg_core::client::AnswerReaders::ALL
    }

    fn feature_command(&self, ctx: &mut FeatureCtx<'_>, c: FeatureCommand) {
        ctx.feature_command(c);
    }

    fn feature_event(&self, ctx: &mut FeatureCtx<'_>, ev: Event) {
        ctx.on_feature_event(ev);
    }

    fn reset_features(&self, ctx: &mut FeatureCtx<'_>) {
        ctx.reset();
    }

    fn read_sent(&self, ctx: &mut FeatureCtx<'_>, raw: &Arc<str>) {
        ctx.read_sent(raw);
    }

    fn relist_features(&self, ctx: &mut FeatureCtx<'_>) {
        ctx.relist();
    }

    fn later(&self, driver: &mut dyn Any, work: Later) {
        // Only the driver calls this, with itself.
        if let Some(driver) = driver.downcast_mut::<PageDriver>() {
            driver.later(work);
        }
    }
}

/// A server's sampling request, read (a real model is asked only for one).
fn sampling_ask(params: &Value) -> Result<SamplingAsk, String> {
    match parse("sampling/createMessage", Some(params)) {
        Ok(Ask::Sampling(s)) => Ok(s),
        Ok(_) => Err("not a sampling request".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}
