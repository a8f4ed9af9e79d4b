//! What the page fetches right after the first tool list, as two split functions
//! fetched one after the other, in the order a learner reaches them:
//!
//! - `mcpg_later`: the tool loop's code and the Streamable HTTP machine
//!   (`mcpg_page_later::later_kit`), and the loop's controls and steps: what a
//!   first Step needs;
//! - `mcpg_later_rest`: the lessons panel, the loop's picture and the share bar
//!   (and the service worker's registration), fetched once the first has come, so
//!   they never share the link with it.
//!
//! Two split functions rather than one per part: `wasm_split_cli_support` puts the
//! code two split functions share in a chunk of its own per combination, so each
//! entry point fetched together makes more small files; `cargo xtask dist` packs
//! each function's chunks into one file (`dist/pack.rs`), the code the two share
//! travelling with the first.
//!
//! The split functions hand back plain function pointers, to the later parts' kit
//! and to the views: code reached only through them leaves the first load with it.

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use mcpg_page::LaterKit;

use super::lessons_panel::LessonsPanel;
use super::loop_body::LoopBody;
use super::loop_diagram::LoopDiagram;
use super::once_shown::Loaded;
use super::share_bar::ShareBar;
use crate::effects;
use crate::feature_state::FeatureState;

/// What a first Step needs: the later parts and the loop's controls.
#[derive(Clone, Copy)]
struct LaterChunk {
    later_kit: fn() -> LaterKit,
    loop_body: fn() -> AnyView,
}

/// The parts of the first screen a first Step does not need.
#[derive(Clone, Copy)]
struct RestChunk {
    lessons: fn() -> AnyView,
    diagram: fn() -> AnyView,
    share: fn() -> AnyView,
}

#[wasm_split(mcpg_later, wasm_split_path = ::leptos::wasm_split, fallible)]
fn parts() -> Result<LaterChunk, SplitLoaderError> {
    crate::effects::stylesheet::add_later();
    // The panels' signal writer comes with this chunk too (see effects' feature_sink).
    effects::set_feature_writer(FeatureState::apply);
    Ok(LaterChunk {
        later_kit: mcpg_page_later::later_kit,
        loop_body: || view! { <LoopBody/> }.into_any(),
    })
}

#[wasm_split(mcpg_later_rest, wasm_split_path = ::leptos::wasm_split, fallible)]
fn rest_parts() -> Result<RestChunk, SplitLoaderError> {
    crate::effects::stylesheet::add_later();
    // The page's files are all in by now: the worker's precaching fetches none
    // while the first load, or the first pack, is on the link.
    effects::offline::register_service_worker();
    Ok(RestChunk {
        lessons: || view! { <LessonsPanel/> }.into_any(),
        diagram: || view! { <LoopDiagram/> }.into_any(),
        share: || view! { <ShareBar/> }.into_any(),
    })
}

/// The rest, fetched only once the first part came (or failed), so the two
/// fetches never share the link.
async fn rest() -> Result<RestChunk, SplitLoaderError> {
    // A failed first part does not hold the rest back: the rest has its own
    // chunks, and its "Try again" asks for both anew.
    let _first = parts().await;
    rest_parts().await
}

/// Lets the effects load the later parts from this chunk (they cannot import the
/// components, which import them).
pub fn register_later_kit() {
    effects::set_later_loader(later_kit);
}

fn later_kit() -> Pin<Box<dyn Future<Output = Option<LaterKit>>>> {
    Box::pin(async { parts().await.ok().map(|p| (p.later_kit)()) })
}

/// The loop's controls and steps.
pub async fn loop_body() -> Loaded {
    parts().await.map(|p| (p.loop_body)())
}

/// The lesson track (with its effects and texts).
pub async fn lessons() -> Loaded {
    rest().await.map(|p| (p.lessons)())
}

/// The loop's picture.
pub async fn diagram() -> Loaded {
    rest().await.map(|p| (p.diagram)())
}

/// Share, export, import and the model script.
pub async fn share() -> Loaded {
    rest().await.map(|p| (p.share)())
}
