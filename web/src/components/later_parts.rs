//! What the page fetches right after the first tool list, as one split chunk: the
//! tool loop's code and the Streamable HTTP machine (`mcpg_page_later::later_kit`), the
//! loop's controls and steps, the lessons panel, the loop's picture and the share
//! bar. One split function for all of them, rather than one
//! each: `wasm_split_cli_support` puts the code two split functions share in a chunk
//! of its own per combination, so four entry points fetched together made dozens of
//! small files (and requests) where one makes a few.
//!
//! The split function hands back plain function pointers, to the later parts' kit
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

/// The parts of the first screen that come right after the first tool list.
#[derive(Clone, Copy)]
struct LaterChunk {
    later_kit: fn() -> LaterKit,
    loop_body: fn() -> AnyView,
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
        lessons: || view! { <LessonsPanel/> }.into_any(),
        diagram: || view! { <LoopDiagram/> }.into_any(),
        share: || view! { <ShareBar/> }.into_any(),
    })
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
    parts().await.map(|p| (p.lessons)())
}

/// The loop's picture.
pub async fn diagram() -> Loaded {
    parts().await.map(|p| (p.diagram)())
}

/// Share, export, import and the model script.
pub async fn share() -> Loaded {
    parts().await.map(|p| (p.share)())
}
