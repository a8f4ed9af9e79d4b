//! Criterion benchmarks of the core, natively: decoding and dispatching one
//! `tools/list` page of 1,000 tools, and 10,000 `tools/call` round trips between a
//! client and a server joined in memory.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcpg_core::Timestamp;
use mcpg_core::client::{CallOptions, Client, ClientConfig, Event, GenerationMode};
use mcpg_core::jsonrpc::{Body, Message};
use mcpg_core::model::{CallToolResult, ListToolsResult, Tool};
use mcpg_core::server::{Server, ServerConfig, ServerEvent};
use serde_json::json;
use std::hint::black_box;

fn tools(n: usize) -> Vec<Tool> {
    (0..n)
        .map(|i| {
            serde_json::from_value(json!({
                "name": format!("tool_{i:04}"),
                "title": format!("Tool {i}"),
                "description": "Looks something up and returns it as text, with a few words more.",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "days": {"type": "integer", "minimum": 1}}, "required": ["city"]},
                "annotations": {"readOnlyHint": true}
            }))
            .unwrap()
        })
        .collect()
}

/// A connected client (initialize generation) with one `tools/list` request in flight,
/// and the text of a 1,000-tool page answering it.
fn list_fixture() -> (Client, String) {
    let mut c = Client::new(ClientConfig {
        mode: GenerationMode::Initialize,
        ..Default::default()
    });
    c.connect(Timestamp::ZERO);
    let init = c.poll_transmit().unwrap();
    let reply = Message::response(
        init.message.id().unwrap().clone(),
        json!({"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"b","version":"1"}}),
    );
    c.handle_text(Timestamp::ZERO, reply.raw());
    while c.poll_transmit().is_some() {}
    while c.poll_event().is_some() {}
    c.list_tools(Timestamp::ZERO);
    let req = c.poll_transmit().unwrap();
    let page = Message::response(
        req.message.id().unwrap().clone(),
        json!({ "tools": tools(1000) }),
    );
    (c, page.raw().to_owned())
}

fn bench_list(cr: &mut Criterion) {
    let (_, page) = list_fixture();
    let mut g = cr.benchmark_group("tools_list_page_1000");
    g.throughput(Throughput::Bytes(page.len() as u64));
    g.bench_function("decode_only", |b| {
        b.iter(|| black_box(Message::decode(black_box(&page)).unwrap()))
    });
    // The same bytes into typed tools, ours and rmcp's, side by side. (The raw text
    // is kept too, as the page shows it; rmcp keeps none.)
    g.bench_function("typed_mcpg", |b| {
        b.iter(|| {
            let m = Message::decode(black_box(&page)).unwrap();
            let Body::Response { result, .. } = m.into_body() else {
                unreachable!()
            };
            let r = ListToolsResult::from_value(result).unwrap();
            assert_eq!(r.tools.len(), 1000);
            black_box(r)
        })
    });
    g.bench_function("typed_rmcp", |b| {
        b.iter(|| {
            let m: rmcp::model::ServerJsonRpcMessage =
                serde_json::from_str(black_box(&page)).unwrap();
            let rmcp::model::JsonRpcMessage::Response(r) = &m else {
                unreachable!()
            };
            let rmcp::model::ServerResult::ListToolsResult(l) = &r.result else {
                unreachable!()
            };
            assert_eq!(l.tools.len(), 1000);
            black_box(m)
        })
    });
    g.bench_function("decode_and_dispatch", |b| {
        b.iter_batched(
            list_fixture,
            |(mut c, page)| {
                c.handle_text(Timestamp::ZERO, &page);
                let mut n = 0;
                while let Some(e) = c.poll_event() {
                    if let Event::ToolsPage { tools, .. } = e {
                        n += tools.len();
                    }
                }
                assert_eq!(n, 1000);
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();
}

fn round_trips(n: usize) {
    let mut c = Client::new(ClientConfig::default());
    let mut s = Server::new(ServerConfig::default(), tools(4));
    let now = Timestamp::ZERO;
    c.connect(now);
    let mut done = 0;
    let mut started = 0;
    let pump = |c: &mut Client, s: &mut Server| {
        while let Some(o) = c.poll_transmit() {
            s.handle_text(now, o.message.raw());
        }
        while let Some(e) = s.poll_event() {
            if let ServerEvent::CallTool { id, .. } = e {
                s.respond(now, &id, &CallToolResult::text("Austin: 91F, sunny"));
            }
        }
        while let Some(m) = s.poll_transmit() {
            c.handle_text(now, m.raw());
        }
    };
    pump(&mut c, &mut s);
    while done < n {
        if started < n {
            c.call_tool(
                now,
                "tool_0001",
                json!({"city": "Austin"}).as_object().cloned(),
                CallOptions::default(),
            );
            started += 1;
        }
        pump(&mut c, &mut s);
        while let Some(e) = c.poll_event() {
            if matches!(e, Event::CallFinished { .. }) {
                done += 1;
            }
        }
    }
}

fn bench_calls(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("tools_call_round_trips");
    g.sample_size(10);
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("10000_in_memory_stateless", |b| {
        b.iter(|| round_trips(10_000))
    });
    g.finish();
}

criterion_group!(benches, bench_list, bench_calls);
criterion_main!(benches);
