//! The integration tests of `mcpg`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.
//!
//! Data the tests read at run time (`tests/fixtures`, `tests/golden`) stays in `tests/`.

// Helpers shared by the test modules.
mod asks_support;
mod auth_support;
mod bridge_support;
mod fake_model;
mod guarded;
mod mcpg_run;
#[path = "../../../transport/tests/it/support/peers.rs"]
mod peers;

mod advice;
mod apps;
mod asks_demo;
mod asks_everything;
mod asks_python;
mod auth_cache;
mod auth_headers;
mod auth_hostile;
mod auth_login;
mod auth_peers;
mod bridge;
mod catalog;
mod catalog_demo;
mod catalog_fixture;
mod cli;
mod demo_http;
mod demo_http_conformance;
mod demo_http_listen;
mod demo_http_mrtr;
mod diff;
mod doctor;
mod doctor_http;
mod doctor_login;
mod doctor_tls;
mod eval;
mod hosted;
mod inspector;
mod loop_cmd;
mod mock;
mod mock_http;
mod old_sse;
mod oversized;
mod replay;
mod skills;
mod skills_dir;
mod tasks;
mod tasks_ext;
mod tools_lint;
