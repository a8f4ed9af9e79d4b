//! One item of a `ReadResourceResult`'s `contents`: text as text (JSON
//! pretty-printed), images and audio as media from checked base64 in a `data:` URL,
//! any other binary as its type and size. Nothing a server sends becomes HTML.

use leptos::prelude::*;
use mcpg_core::model::ResourceContents;

use super::content_block::{bytes_of, data_url};
use super::long_text::LongText;
use crate::state::pretty;

/// Whether text of this type (or, untyped, this text) reads as JSON.
fn json_text(mime: Option<&str>, text: &str) -> Option<String> {
    let typed = mime.is_some_and(|m| {
        let m = m.trim().to_ascii_lowercase();
        m == "application/json" || m.ends_with("+json")
    });
    let looks = mime.is_none() && matches!(text.trim_start().chars().next(), Some('{' | '['));
    (typed || looks)
        .then(|| serde_json::from_str(text).ok())
        .flatten()
        .map(|v| pretty(&v))
}

/// One item of `contents`.
#[component]
pub fn ResourceContentsView(
    /// The item, as the server sent it.
    contents: ResourceContents,
) -> impl IntoView {
    match contents {
        ResourceContents::Text(t) => {
            let mime = t
                .mime_type
                .clone()
                .unwrap_or_else(|| "no mimeType".to_owned());
            let (kind, body) = match json_text(t.mime_type.as_deref(), &t.text) {
                Some(p) => ("text, JSON pretty-printed", p),
                None => ("text", t.text),
            };
            view! {
                <div class="block text" data-testid="resource-text">
                    <span class="block-kind">{kind}</span>
                    <p class="muted"><code>{t.uri}</code>" · "{mime}</p>
                    <LongText text=body testid="resource-text-body"/>
                </div>
            }
            .into_any()
        }
        ResourceContents::Blob(b) => {
            let mime = b.mime_type.clone().unwrap_or_default();
            let caption = format!(
                "{}, about {} bytes",
                if mime.is_empty() {
                    "no mimeType"
                } else {
                    &mime
                },
                bytes_of(&b.blob)
            );
            let media = if let Some(src) = data_url(&mime, "image/", &b.blob) {
                view! { <img data-testid="resource-image" src=src alt=format!("image resource {}", b.uri)/> }.into_any()
            } else if let Some(src) = data_url(&mime, "audio/", &b.blob) {
                view! { <audio data-testid="resource-audio" controls=true src=src></audio> }
                    .into_any()
            } else {
                view! { <p data-testid="resource-binary">{format!("binary: {caption}")}</p> }
                    .into_any()
            };
            view! {
                <figure class="block blob" data-testid="resource-blob">
                    <span class="block-kind">"blob"</span>
                    {media}
                    <figcaption><code>{b.uri}</code>" · "{caption}</figcaption>
                </figure>
            }
            .into_any()
        }
        ResourceContents::Unknown(v) => view! {
            <div class="block bad"><span class="block-kind">"contents the page cannot read"</span>
                <pre tabindex="0">{pretty(&v)}</pre></div>
        }
        .into_any(),
    }
}
