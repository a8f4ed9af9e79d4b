//! Native MCP transports on tokio, and a driver that runs the sans-IO core over them.
//!
//! - [`stdio`]: the server is a child process speaking one JSON-RPC message per line;
//!   stderr is captured apart; shutdown follows the spec (close stdin, SIGTERM, SIGKILL)
//!   and always reaps the process.
//! - [`http`]: Streamable HTTP (JSON or SSE answers, session ids, resuming broken
//!   streams with `Last-Event-ID`, DELETE on close).
//! - [`Link`]: the channel pair every transport offers; the driver only sees this.
//! - [`Driver`]: owns a [`mcpg_core::client::Client`] and a [`Link`] and offers
//!   `connect`, `list_tools`, `call_tool`, `request` and `close` as async calls, and
//!   the resources, prompts, completions and logging operations the same way.

pub mod driver;
mod error;
pub mod http;
mod link;
pub mod stdio;

pub use driver::{
    AnswerReport, CallReport, Driver, DriverConfig, DriverError, Listing, Log, Observed, Observer,
    ProgressUpdate, RequestHandler, ToolList, Update,
};
pub use error::TransportError;
pub use http::{
    AuthOptions, Authorizer, FollowRedirect, HttpConfig, HttpTransport, TransportChoice,
};
pub use link::{CloseReport, Link, LinkEvent, StderrLine, TransportEvent};
pub use stdio::StdioConfig;
