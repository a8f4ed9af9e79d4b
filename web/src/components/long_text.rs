//! Text that may be megabytes long (a tool's answer, a resource's contents, the
//! conversation's turns, step 2's JSON of a thousand tools): the first
//! [`HEAD_BYTES`] at once, the rest only when the learner asks. The browser's
//! layout of one 10 MB `<pre>` took about 8 s of main-thread work (issue #33's
//! profile: almost all of a 10 MB call's time was layout, mostly text shaping,
//! not the wasm), so the page never lays out more than this unasked. The text is a
//! text node, never HTML.

use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;

/// Bytes shown before "Show all": a few screens of text, laid out in a frame.
pub const HEAD_BYTES: usize = 32 * 1024;

/// The longest prefix of `text` of at most `max` bytes that ends on a char boundary.
pub fn head(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// A size in words: "812 bytes", "64.0 KB", "10.0 MB".
fn size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} bytes"),
        b if b < 1024 * 1024 => format!("{:.1} KB", b as f64 / 1024.0),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

/// A `<pre>` holding `text` (or, `inline`, a `<span>` inside running text), cut
/// to its head when it is long, with a note saying how much is shown and a button
/// that shows the rest.
#[component]
pub fn LongText(
    /// The text, as the server sent it (shared, not copied, when it is a step's).
    #[prop(into)]
    text: Arc<str>,
    /// The `data-testid` of the `<pre>`, if any.
    #[prop(optional)]
    testid: Option<&'static str>,
    /// The `<pre>`'s class, if any.
    #[prop(optional)]
    class: Option<&'static str>,
    /// A `<span>` and an inline note instead of a `<pre>` and a paragraph.
    #[prop(optional)]
    inline: bool,
) -> impl IntoView {
    let total = text.len();
    let cut = total > HEAD_BYTES;
    let all = RwSignal::new(false);
    let text = StoredValue::new(text);
    let shown = move || {
        if all.get() || !cut {
            text.with_value(|t| t.to_string())
        } else {
            text.with_value(|t| head(t, HEAD_BYTES).to_owned())
        }
    };
    let words = move || {
        format!(
            "Showing the first {} of {}. ",
            size(HEAD_BYTES),
            size(total)
        )
    };
    let button = move || {
        view! {
            <button class="quiet" data-testid="text-show-all" on:click=move |_| all.set(true)>
                "Show all"
            </button>
        }
    };
    let note = move || {
        (cut && !all.get()).then(|| {
            if inline {
                Either::Left(view! {
                    <span class="text-cut" data-testid="text-cut" role="status">
                        " … "{words()}{button()}
                    </span>
                })
            } else {
                Either::Right(view! {
                    <p class="text-cut" data-testid="text-cut" role="status">{words()}{button()}</p>
                })
            }
        })
    };
    if inline {
        Either::Left(view! { <span data-testid=testid class=class>{shown}</span>{note} })
    } else {
        Either::Right(
            view! { <pre tabindex="0" data-testid=testid class=class>{shown}</pre>{note} },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_ends_on_a_char_boundary_and_never_past_the_text() {
        assert_eq!(head("abc", 10), "abc");
        assert_eq!(head("abc", 2), "ab");
        // "é" is two bytes: a cut inside it steps back before it.
        assert_eq!(head("aé", 2), "a");
        assert_eq!(head("", 0), "");
    }

    #[test]
    fn sizes_read_in_words() {
        assert_eq!(size(812), "812 bytes");
        assert_eq!(size(HEAD_BYTES), "32.0 KB");
        assert_eq!(size(10_000_000), "9.5 MB");
    }
}
