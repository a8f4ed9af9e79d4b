//! One component per file.

pub mod answer;
pub mod app;
pub mod connect_bar;
pub mod content_block;
pub mod conversation;
pub mod form_field;
pub mod header;
pub mod json_block;
pub mod log_row;
pub mod loop_controls;
pub mod loop_panel;
pub mod model_bar;
pub mod notice_bar;
pub mod panels;
pub mod play_box;
pub mod replay_banner;
pub mod result_panel;
pub mod script_editor;
pub mod server_panel;
pub mod share_bar;
pub mod step_card;
pub mod tool_form;
pub mod tool_row;
pub mod tools_panel;
pub mod wire_log;
