//! The MCP Playground bridge: a small native server that lets the page (which cannot
//! start processes, and cannot call HTTP servers that send no CORS headers) use
//! local stdio servers and remote Streamable HTTP servers.
//!
//! It is a security boundary: a web page must never be able to make it run a
//! command. So it binds loopback only, every API call needs a fresh per-launch
//! token, `Origin` and `Host` are checked on every request, and the page can only
//! *name* a server from the config: commands and URLs never come from the browser.
//!
//! - `GET /api/servers`: the configured names.
//! - `GET /ws?server=NAME&channel=ID`: a WebSocket (subprotocol `mcp`) relayed to a
//!   fresh process of server NAME, one text frame per stdio line.
//! - `GET /api/events?channel=ID`: the side channel (SSE): spawned, stderr, exit, errors.
//! - `POST|GET|DELETE /relay/NAME`: Streamable HTTP to remote NAME, with CORS, the
//!   remote's configured headers, and the page's own token for it
//!   (`Mcpg-Remote-Authorization`, sent on as `Authorization`).
//! - `POST /api/oauth-fetch`: one HTTP exchange on the page's behalf with an
//!   authorization server that sends no CORS headers (OAuth discovery, registration,
//!   token requests).
//! - anything else: the built page from `dist/`.
//!
//! A page hosted elsewhere (`--page-origin`, [`PageOrigin`]) is trusted for its
//! origin only: the Origin check lets it through, and `/api/*` and `/relay/*` answer
//! it with CORS headers naming exactly that origin (never `*`), including Chrome's
//! Private Network Access preflight.

mod app;
mod child;
pub mod config;
mod demo_http;
mod demo_stdio;
mod egress;
mod error;
pub mod events;
mod guard;
mod oauth_fetch;
mod page_origin;
mod relay;
mod remote_headers;
mod reply;
mod serve;
mod servers;
mod state;
mod statics;
mod token;
mod ws;

pub use app::app;
pub use config::{Config, Limits, RemoteSpec, ServerSpec};
pub use demo_http::{DemoProfile, run_demo_http};
pub use demo_stdio::run_demo_stdio;
pub use error::BridgeError;
pub use events::SideEvent;
pub use page_origin::{PageOrigin, PageOriginError, bridge_base};
pub use remote_headers::RemoteHeaders;
pub use serve::{ServeOptions, check_bind, serve};
pub use state::AppState;
pub use token::Token;
