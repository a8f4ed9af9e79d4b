//! The driver's resource, prompt, completion, subscription and logging calls
//! against the real peers: the Python SDK (both generations) and
//! server-everything (updates and log messages on `Driver::updates`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use mcpg_core::client::{Answer, GenerationMode};
use mcpg_core::model::{
    CompletionReference, ContentBlock, JsonObject, LoggingLevel, ResourceContents,
};
use mcpg_transport::{DriverError, Update};
use serde_json::json;
use support::{Peer, config, stdio};

fn strings(v: serde_json::Value) -> JsonObject {
    v.as_object().cloned().unwrap()
}

async fn python(mode: GenerationMode) {
    let mut cfg = config();
    cfg.client.mode = mode;
    let Some(d) = stdio(Peer::Python, cfg) else {
        return;
    };
    d.connect().await.unwrap();

    let resources = d.list_resources().await.unwrap();
    assert_eq!((resources.pages.len(), resources.len()), (1, 1));
    assert_eq!(
        resources.items().next().unwrap().uri,
        "note://python/readme"
    );
    assert_eq!(resources.responses.len(), 1);
    let templates = d.list_resource_templates().await.unwrap();
    assert_eq!(
        templates.items().next().unwrap().uri_template,
        "greeting://{name}"
    );
    let prompts = d.list_prompts().await.unwrap();
    assert_eq!(prompts.items().next().unwrap().name, "review");

    let read = d.read_resource("greeting://ann").await.unwrap();
    let Answer::Read(r) = read.answer else {
        panic!("{read:?}")
    };
    match &r.contents[..] {
        [ResourceContents::Text(t)] => assert_eq!(t.text, "Hello, ann!"),
        other => panic!("{other:?}"),
    }
    assert!(read.response.is_some());

    let args = strings(json!({"code": "fn main() {}", "language": "rust"}));
    let got = d.get_prompt("review", args).await.unwrap();
    let Answer::Prompt(p) = got.answer else {
        panic!("{got:?}")
    };
    match &p.messages[0].content {
        ContentBlock::Text(t) => assert_eq!(t.text, "Please review this rust code:\nfn main() {}"),
        other => panic!("{other:?}"),
    }

    let reference = CompletionReference::Prompt {
        name: "review".into(),
    };
    let done = d
        .complete(reference, "language", "ty", JsonObject::new())
        .await
        .unwrap();
    let Answer::Completion(c) = done.answer else {
        panic!("{done:?}")
    };
    assert_eq!(c.values, ["typescript"]);

    // An unknown prompt is the server's JSON-RPC error, typed as such.
    let err = d.get_prompt("nope", JsonObject::new()).await.unwrap_err();
    assert!(err.is_rpc(), "{err:?}");

    // The level: refused by the classic handshake (no `logging` capability), only
    // stamped on later requests under 2026-07-28 (no request, no response).
    let level = d.set_log_level(LoggingLevel::Debug).await;
    match mode {
        GenerationMode::Stateless => {
            let report = level.unwrap();
            assert_eq!((report.answer, report.response), (Answer::Done, None));
        }
        _ => assert!(matches!(level, Err(DriverError::Rpc { .. })), "{level:?}"),
    }
    d.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_classic() {
    python(GenerationMode::Initialize).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_stateless() {
    python(GenerationMode::Stateless).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_updates_and_log_messages_arrive_then_the_stream_ends() {
    let Some(d) = stdio(Peer::Everything, config()) else {
        return;
    };
    d.connect().await.unwrap();
    let mut updates = d.updates().unwrap();
    let uri = "demo://resource/static/document/features.md";
    d.set_log_level(LoggingLevel::Info).await.unwrap();
    let done = d.subscribe_resource(uri).await.unwrap();
    assert_eq!(done.answer, Answer::Done);
    let call = d.call_tool("toggle-subscriber-updates", None, false).await;
    assert!(call.is_ok(), "{call:?}");
    // The subscription's own log message, then the update sent at once.
    let mut log = None;
    let mut updated = None;
    while log.is_none() || updated.is_none() {
        match updates.recv().await.expect("an update") {
            Update::Log(m) => log = log.or(Some(m)),
            Update::ResourceUpdated { uri } => updated = Some(uri),
            Update::ResourcesListChanged | Update::PromptsListChanged => {}
        }
    }
    let log = log.unwrap();
    assert_eq!(log.level, LoggingLevel::Info);
    assert!(
        log.data
            .as_str()
            .unwrap()
            .starts_with("Received Subscribe Resource request")
    );
    assert_eq!(updated.as_deref(), Some(uri));
    d.unsubscribe_resource(uri).await.unwrap();
    d.close().await.unwrap();
    drop(d);
    // The loop has stopped: the stream ends once what was sent is read.
    while updates.recv().await.is_some() {}
}
