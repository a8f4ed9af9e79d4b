//! The integration tests of `mcpg-transport`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.

// Helpers shared by the test modules.
mod support;

mod catalog_peers;
mod http_cases;
mod http_listen_2025_03_26;
mod http_peers;
mod http_redirects;
mod http_sessions;
mod http_stateless;
mod oauth;
mod stdio_faults;
mod stdio_peers;
