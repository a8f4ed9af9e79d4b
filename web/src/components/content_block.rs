//! One content block of a `CallToolResult`: text, image, audio, resource link or
//! embedded resource. Text stays text; images and audio only render from checked
//! base64 with an image/ or audio/ type; links are shown, never followed.

use leptos::prelude::*;
use mcpg_core::model::{ContentBlock, ResourceContents};

use super::long_text::LongText;
use crate::state::pretty;

/// A MIME type safe to put in a `data:` URL of the given family, or `None`.
fn safe_mime(mime: &str, family: &str) -> Option<String> {
    let m = mime.trim().to_ascii_lowercase();
    let ok = m.starts_with(family)
        && m.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'+' | b'-' | b'.'));
    ok.then_some(m)
}

/// A `data:` URL, when the payload really is base64.
pub(crate) fn data_url(mime: &str, family: &str, data: &str) -> Option<String> {
    let mime = safe_mime(mime, family)?;
    let b64 = data
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'\n' | b'\r'));
    b64.then(|| format!("data:{mime};base64,{}", data.replace(['\n', '\r'], "")))
}

pub(crate) fn bytes_of(b64: &str) -> usize {
    b64.len() / 4 * 3
}

/// One block.
#[component]
pub fn ContentView(
    /// The block, as the server sent it.
    block: ContentBlock,
) -> impl IntoView {
    match block {
        ContentBlock::Text(t) => view! {
            <div class="block text"><span class="block-kind">"text"</span>
                <LongText text=t.text testid="content-text"/></div>
        }
        .into_any(),
        ContentBlock::Image(i) => {
            let caption = format!("image, {}, about {} bytes", i.mime_type, bytes_of(&i.data));
            match data_url(&i.mime_type, "image/", &i.data) {
                Some(src) => view! {
                    <figure class="block image"><span class="block-kind">"image"</span>
                        <img data-testid="content-image" src=src alt="image returned by the tool"/>
                        <figcaption>{caption}</figcaption></figure>
                }
                .into_any(),
                None => view! { <p class="block bad">{format!("{caption}: not shown (not a base64 image)")}</p> }.into_any(),
            }
        }
        ContentBlock::Audio(a) => {
            let caption = format!("audio, {}, about {} bytes", a.mime_type, bytes_of(&a.data));
            match data_url(&a.mime_type, "audio/", &a.data) {
                Some(src) => view! {
                    <figure class="block audio"><span class="block-kind">"audio"</span>
                        <audio data-testid="content-audio" controls=true src=src></audio>
                        <figcaption>{caption}</figcaption></figure>
                }
                .into_any(),
                None => view! { <p class="block bad">{format!("{caption}: not played (not base64 audio)")}</p> }.into_any(),
            }
        }
        ContentBlock::ResourceLink(l) => {
            let detail = [l.title.clone(), l.mime_type.clone(), l.description.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" · ");
            let uri = l.uri.clone();
            view! {
                <div class="block link" data-testid="content-resource-link">
                    <span class="block-kind">"resource_link"</span>
                    <p><code>{l.uri}</code>" "{l.name}</p>
                    <p class="muted">{detail}</p>
                    <p class="muted">"A link to a resource the client may read with resources/read; the page never follows it by itself."</p>
                    <button type="button" class="quiet" data-testid="read-it"
                        aria-label=format!("Read it: resources/read {uri}")
                        on:click=move |_| crate::effects::features::read(uri.clone(), true)>"Read it"</button>
                </div>
            }
            .into_any()
        }
        ContentBlock::Resource(e) => {
            let inner = match e.resource {
                ResourceContents::Text(t) => view! {
                    <p><code>{t.uri}</code>" "{t.mime_type.unwrap_or_default()}</p>
                    <LongText text=t.text/>
                }
                .into_any(),
                ResourceContents::Blob(b) => view! {
                    <p><code>{b.uri}</code>" "{format!("{}, about {} bytes of binary", b.mime_type.unwrap_or_default(), bytes_of(&b.blob))}</p>
                }
                .into_any(),
                ResourceContents::Unknown(v) => view! { <pre tabindex="0">{pretty(&v)}</pre> }.into_any(),
            };
            view! {
                <div class="block resource" data-testid="content-resource">
                    <span class="block-kind">"embedded resource"</span>
                    {inner}
                </div>
            }
            .into_any()
        }
        ContentBlock::Unknown(v) => view! {
            <div class="block bad"><span class="block-kind">"unknown content type"</span>
                <pre tabindex="0">{pretty(&v)}</pre></div>
        }
        .into_any(),
    }
}
