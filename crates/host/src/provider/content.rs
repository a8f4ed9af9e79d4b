//! Turning a tool's outcome into what a model can read: text for every provider,
//! images where the provider accepts them in tool results.

use mcpg_core::model::{ContentBlock, ResourceContents};

use mcpg_loop_data::ResultView;

/// Image MIME types the providers accept in tool results.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Size in bytes of base64 `data` (without decoding it).
fn b64_len(data: &str) -> usize {
    let pad = data.bytes().rev().take_while(|&b| b == b'=').count();
    (data.len() / 4) * 3 - pad.min(2)
}

/// One piece of a result, as a provider sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Text.
    Text(String),
    /// An image the provider may take inline.
    Image {
        /// MIME type.
        mime: String,
        /// Base64 data.
        data: String,
    },
}

/// Whether the model must be told the call failed.
pub fn is_error(v: &ResultView) -> bool {
    match v {
        ResultView::Result(r) => r.failed(),
        ResultView::ProtocolError { .. } | ResultView::Failed(_) => true,
    }
}

/// The outcome as parts; `images` says whether the provider takes images here
/// (if not, each image becomes a text note, so the model knows one was there).
pub fn parts(v: &ResultView, images: bool) -> Vec<Part> {
    let r = match v {
        ResultView::Result(r) => r,
        ResultView::ProtocolError { code, message } => {
            return vec![Part::Text(format!(
                "Error: the server rejected the call (JSON-RPC error {code}: {message})"
            ))];
        }
        ResultView::Failed(why) => {
            return vec![Part::Text(format!("Error: the call failed: {why}"))];
        }
    };
    let mut out = Vec::new();
    for block in &r.content {
        match block {
            ContentBlock::Text(t) => out.push(Part::Text(t.text.clone())),
            ContentBlock::Image(i) if images && IMAGE_TYPES.contains(&i.mime_type.as_str()) => {
                out.push(Part::Image {
                    mime: i.mime_type.clone(),
                    data: i.data.clone(),
                });
            }
            ContentBlock::Image(i) => out.push(Part::Text(format!(
                "[image {}, {} bytes]",
                i.mime_type,
                b64_len(&i.data)
            ))),
            ContentBlock::Audio(a) => out.push(Part::Text(format!(
                "[audio {}, {} bytes]",
                a.mime_type,
                b64_len(&a.data)
            ))),
            ContentBlock::ResourceLink(l) => {
                let title = l.title.as_deref().unwrap_or(&l.name);
                out.push(Part::Text(format!("[resource link: {title} <{}>]", l.uri)));
            }
            ContentBlock::Resource(e) => out.push(Part::Text(match &e.resource {
                ResourceContents::Text(t) => format!("[resource {}]\n{}", t.uri, t.text),
                ResourceContents::Blob(b) => format!(
                    "[resource {}: {}, {} bytes]",
                    b.uri,
                    b.mime_type.as_deref().unwrap_or("binary"),
                    b64_len(&b.blob)
                ),
                ResourceContents::Unknown(v) => format!("[resource {v}]"),
            })),
            ContentBlock::Unknown(v) => out.push(Part::Text(format!("[content {v}]"))),
        }
    }
    // Servers should mirror structuredContent as text; when one does not (no text
    // at all, or only a summary), the model would not see the data, so the host
    // adds it. (A naive host drops structuredContent before this: `Pitfall::DropStructured`.)
    if let Some(sc) = &r.structured_content
        && !mirrors(&out, sc)
    {
        out.push(Part::Text(sc.to_string()));
    }
    if out.is_empty() {
        out.push(Part::Text(String::new()));
    }
    out
}

/// Whether one text part already carries `sc` (the same JSON, however printed).
fn mirrors(parts: &[Part], sc: &serde_json::Value) -> bool {
    parts.iter().any(|p| match p {
        Part::Text(t) => serde_json::from_str::<serde_json::Value>(t).is_ok_and(|v| &v == sc),
        Part::Image { .. } => false,
    })
}

/// Whether the result has `structuredContent` that no text block mirrors, so the
/// host adds it for the model (see [`parts`]).
pub fn structured_unmirrored(v: &ResultView) -> bool {
    let ResultView::Result(r) = v else {
        return false;
    };
    let Some(sc) = &r.structured_content else {
        return false;
    };
    let texts: Vec<Part> = r
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text(t) => Some(Part::Text(t.text.clone())),
            _ => None,
        })
        .collect();
    !mirrors(&texts, sc)
}

/// The outcome as one string (for providers whose tool results are text only).
pub fn text(v: &ResultView) -> String {
    parts(v, false)
        .into_iter()
        .map(|p| match p {
            Part::Text(t) => t,
            Part::Image { mime, data } => format!("[image {mime}, {} bytes]", b64_len(&data)),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_lengths() {
        assert_eq!(b64_len("QUJD"), 3);
        assert_eq!(b64_len("QUI="), 2);
        assert_eq!(b64_len("QQ=="), 1);
    }
}
