//! The protected demo against the page's own OAuth client (`mcpg_auth::AuthFlow`),
//! in-process: the flow discovers, registers, is sent to consent, exchanges the
//! code and the resource then answers MCP with the token; and every refusal the
//! flow's security rests on.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod flow;
