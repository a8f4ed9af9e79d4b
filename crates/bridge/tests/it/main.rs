//! The integration tests of `mcpg-bridge`, one test binary: each module is what
//! used to be its own file in `tests/` (one binary links once, not once per file). The
//! modules run as threads of one process: no test may change process-wide state (the
//! environment, the current directory) or rely on a fixed port or a shared temp path.

// Helpers shared by the test modules.
mod support;

mod child_containment;
mod http_relay;
mod oauth_fetch;
mod page_origin;
mod private_destinations;
mod remote_auth;
mod security;
mod side_channel;
mod statics;
mod ws_relay;
