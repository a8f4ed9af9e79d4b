//! The integration tests of `mcpg-core`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.
//!
//! Proptest keeps its regression seeds in `tests/proptest-regressions/<module>.txt` (its
//! default once `tests/it/` has a `main.rs`).

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

// Helpers shared by the test modules.
mod raw;
mod support;
#[cfg(not(target_arch = "wasm32"))]
mod twin;

mod answer_readers;
mod client_asks;
mod client_asks_mrtr;
mod client_asks_url;
#[cfg(not(target_arch = "wasm32"))]
mod decode_props;
mod faults;
mod jsonrpc;
mod logging;
#[cfg(not(target_arch = "wasm32"))]
mod model_twin;
#[cfg(not(target_arch = "wasm32"))]
mod model_twin_catalog;
mod mrtr;
mod negotiation;
mod param_headers;
mod prompts;
mod request_handlers;
mod resources;
mod server_asks;
mod server_content;
mod server_mrtr;
mod server_mrtr_refusals;
mod server_notices;
mod server_tasks;
#[cfg(not(target_arch = "wasm32"))]
mod spec_schemas;
mod subscriptions;
mod tasks;
mod tasks_ext;
mod tools;
