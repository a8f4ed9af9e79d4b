//! The integration tests of `mcpg-bridge-api`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.

mod link;
mod twin;
