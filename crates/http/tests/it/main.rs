//! The integration tests of `mcpg-http`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod cases;
mod hold;
mod legacy;
mod machine;
#[cfg(target_arch = "wasm32")]
mod wasm_cases;
