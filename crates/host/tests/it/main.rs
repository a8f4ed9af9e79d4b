//! The integration tests of `mcpg-host`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.
//!
//! Proptest keeps its regression seeds in `tests/proptest-regressions/<module>.txt` (its
//! default once `tests/it/` has a `main.rs`).

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

// Helpers shared by the test modules.
mod support;

mod apps_visibility;
mod asks;
mod every_tool;
mod follow_up;
mod lint;
mod lint_recorded;
mod mock;
mod providers;
mod schema;
#[cfg(not(target_arch = "wasm32"))]
mod schema_vs_jsonschema;
mod seeded;
mod tool_loop;
