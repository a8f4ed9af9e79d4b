//! The page's sans-IO driver (`PageDriver`), first screen: everything the
//! playground page does before the tool loop that is not a browser API. It owns the
//! core's client session, the links (the embedded demo, a replayed recording, and
//! the plumbing of a Streamable HTTP link whose machine comes later; the shell
//! executes a bridge WebSocket and the machine's HTTP requests), the Tools panel's
//! list, the wire log and what a shared session records.
//!
//! What loads after the first tool list (the loop, the server's questions, the
//! panels, the HTTP machine) is `mcpg-page-later`'s, behind [`LaterParts`]: see
//! `later.rs`. This crate cannot name the host's code (`mcpg-host`) or the HTTP
//! machine (`mcpg-http`); it names only what they produce (`mcpg-loop-data`,
//! `mcpg-net`).
//!
//! In the style of the core's `Client`: the shell hands in one [`Input`] at a time
//! with the current time ([`PageDriver::handle`]), then drains [`Output`]s
//! ([`PageDriver::poll_output`]) and arms one timer for
//! [`PageDriver::poll_timeout`]. The driver does no I/O and reads no clock, so the
//! same code runs natively under a virtual clock in tests and as wasm in the page.
//!
//! Invariants: no input is dropped (a late one for an old connection or loop is
//! recorded as such in the log, not applied; work for later parts that are not in
//! is noted as not done); no API key ever enters the driver (only a masked hint for
//! display).

mod apply;
mod apps;
pub mod asks;
mod auth;
mod auth_hold;
mod bridge_event;
mod command;
mod driver;
pub mod features;
mod http_link;
mod http_port;
mod input;
mod later;
mod links;
mod log;
mod mailbox;
mod on_event;
mod output;
mod page;
mod parts;
mod record;
mod replay;
mod session_ops;
mod settings;
mod shared;
mod view;
mod waiting;

pub use apps::{AppCommand, AppLifeline, AppLink, AppView};
pub use asks::{AskCommand, AskKey, AskPlace, AskState, AskView};
pub use auth::{AuthCommand, AuthNeeded};
pub use bridge_event::{BridgeEvent, parse_bridge_event};
pub use driver::{PageDriver, RUN_PACE};
pub use features::FeatureCommand;
pub use features::view::FeatureChange;
pub use http_port::{HttpPort, HttpRoute};
pub use input::{Command, ConnId, Input, LoopId, ModelReply};
pub use later::{Later, for_later};
pub use links::{HttpTarget, LinkSpec};
pub use log::{LOG_CAPACITY, LogRow, WireLog};
pub use mailbox::Mailbox;
pub use mcpg_bridge_api::SideEvent;
pub use mcpg_net::{HttpEvent, HttpRequest, Method, NetEvent, NetFailure, ReqId};
pub use output::{ModelRequest, Output};
pub use page::Page;
pub use parts::{LaterKit, LaterParts};
pub use record::{
    RECORD_CEILING_BYTES, Recorder, connection, demo_exchange, link_session, public_url,
    seed_record, seed_turns, source_of,
};
pub use replay::ReplayLink;
pub use settings::{LlmSettings, ModelChoice, Pin, slot};
pub use view::{
    CallView, Conn, LogMeta, Notice, ReplayInfo, ServerInfo, Source, Unrecorded, ViewChange,
};
