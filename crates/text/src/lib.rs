//! Text helpers that stand in for the standard library's, to keep the page small.
//!
//! Not protocol, so not in the core: the host (mock model, explanations, schema
//! messages), the demo server and the page use them.
//!
//! - [`case`]: letter case and word characters by arithmetic, without Unicode tables.
//! - [`num`]: numbers as text through serde_json's printer, without `core::fmt`'s.

pub mod case;
pub mod num;
