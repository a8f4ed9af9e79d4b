//! The page's sans-IO driver (`PageDriver`): everything the playground page does
//! that is not a browser API. It owns the core's client session, the host's tool
//! loop, the model script, the links (the embedded demo, a replayed recording and
//! Streamable HTTP's `mcpg_http::HttpMachine` run inside it; the shell executes a
//! bridge WebSocket and the machine's HTTP requests), the wire log and what a shared
//! session records.
//!
//! In the style of the core's `Client`: the shell hands in one [`Input`] at a time
//! with the current time ([`PageDriver::handle`]), then drains [`Output`]s
//! ([`PageDriver::poll_output`]) and arms one timer for
//! [`PageDriver::poll_timeout`]. The driver does no I/O and reads no clock, so the
//! same code runs natively under a virtual clock in tests and as wasm in the page.
//!
//! Invariants: no input is dropped (a late one for an old connection or loop is
//! recorded as such in the log, not applied); no API key ever enters the driver
//! (only a masked hint for display); Run and Step never start a second loop while
//! one runs.
//!
//! [`diagram`] is the picture of the loop: a pure projection of the steps into a
//! sequence diagram's arrows, which the page draws as SVG.

mod apply;
pub mod asks;
mod auth;
mod auth_hold;
mod bridge_event;
mod command;
pub mod diagram;
mod driver;
mod engine;
pub mod features;
mod host_engine;
mod http_link;
mod http_port;
mod input;
mod later;
mod later_ops;
mod links;
mod log;
mod loop_ops;
mod mailbox;
mod on_event;
mod output;
mod panel_ops;
mod record;
mod replay;
mod session_ops;
mod settings;
mod shared;
mod shown;
mod view;
mod waiting;

pub use asks::{AskCommand, AskKey, AskPlace, AskState, AskView};
pub use auth::{AuthCommand, AuthNeeded};
pub use bridge_event::{BridgeEvent, parse_bridge_event};
pub use driver::{PageDriver, RUN_PACE};
pub use engine::{Asked, Engine, EngineRef};
pub use features::FeatureCommand;
pub use features::view::FeatureChange;
pub use host_engine::host_engine;
pub use http_port::HttpPort;
pub use input::{Command, ConnId, Input, LoopId, ModelReply};
pub use later::Later;
pub use links::{HttpTarget, LinkSpec};
pub use log::{LOG_CAPACITY, LogRow, WireLog};
pub use mailbox::Mailbox;
pub use mcpg_bridge_api::SideEvent;
pub use mcpg_http::{HttpRequest, Method, NetEvent, NetFailure, ReqId};
pub use output::{ModelRequest, Output};
pub use record::{RECORD_CEILING_BYTES, connection, link_session, public_url, source_of};
pub use replay::ReplayLink;
pub use settings::{LlmSettings, ModelChoice, Pin, slot};
pub use view::{
    CallView, Conn, LogMeta, Notice, ReplayInfo, ServerInfo, Source, Unrecorded, ViewChange,
};
