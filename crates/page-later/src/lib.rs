//! What the page loads after its first tool list, run on `mcpg_page`'s driver
//! behind its `LaterParts` trait: the tool loop (step and run mode, the learner
//! playing the model, a real model's request and reply), the server's questions,
//! the Resources, Prompts and Logs panels and the Streamable HTTP machine.
//!
//! [`LoopParts`] owns this state; the driver queues work for it
//! (`mcpg_page::Later`) and hands it the first screen's state (`mcpg_page::Page`) to
//! do it on. The shell gets everything as one [`later_kit`], in the browser from a
//! split wasm chunk, so none of this code is in the first load.
//!
//! [`diagram`] is the picture of the loop: a pure projection of the steps into a
//! sequence diagram's arrows, which the page draws as SVG.

mod apps;
mod asks;
pub mod diagram;
mod features;
mod kit;
mod loop_ops;
mod loop_view;
mod model_http;
mod panel_ops;
mod parts;
pub mod session_diff;
mod shared;
mod shown;
mod skills;

pub use kit::later_kit;
pub use parts::LoopParts;
