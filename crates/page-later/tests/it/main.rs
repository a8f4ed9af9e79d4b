//! The integration tests of `mcpg-page-later`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

// Helpers shared by the test modules.
mod diagram_support;
mod support;

mod apps;
mod asked_replay;
mod asks;
mod auth_hold;
mod diagram;
mod diagram_kinds;
mod diagram_views;
mod ext_task_loop;
mod faults;
mod features;
mod http_faults;
mod http_link;
mod later_parts;
mod loop_modes;
mod pitfalls;
mod replay_log_pin;
mod seeded_replay;
mod session_diff;
mod skills;
