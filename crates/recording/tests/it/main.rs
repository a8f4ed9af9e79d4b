//! The integration tests of `mcpg-recording`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

// Helpers shared by the test modules.
mod support;

mod diff;
mod links;
mod seeds;
