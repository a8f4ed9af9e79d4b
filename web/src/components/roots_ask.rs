//! `roots/list`: the learner's roots, an editable list of `file://` URIs. Saving an
//! edit tells the server (`notifications/roots/list_changed`); answering sends the
//! list as it stands.

use leptos::prelude::*;
use mcpg_host::asks::{Reply, Root};

use crate::effects::asks::{answer, set_roots};
use crate::state::use_app;

/// The roots from the editor's text, one `file://` URI per line (an optional name
/// after a space), or the first line that is not one.
fn read_roots(text: &str) -> Result<Vec<Root>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (uri, name) = match l.split_once(' ') {
                Some((u, n)) => (u, Some(n.trim().to_owned())),
                None => (l, None),
            };
            if uri.starts_with("file://") {
                Ok(Root {
                    uri: uri.to_owned(),
                    name,
                })
            } else {
                Err(format!("{uri:?} is not a file:// URI"))
            }
        })
        .collect()
}

fn show_roots(roots: &[Root]) -> String {
    roots
        .iter()
        .map(|r| match &r.name {
            Some(n) => format!("{} {n}", r.uri),
            None => r.uri.clone(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The roots editor and the answer to one `roots/list`.
#[component]
pub fn RootsAsk(
    /// The question's number.
    id: u64,
    /// Still waiting for an answer.
    waiting: bool,
) -> impl IntoView {
    let st = use_app();
    let text = RwSignal::new(st.roots.with_untracked(|r| show_roots(r)));
    let problem = RwSignal::new(None::<String>);
    let save = move || match read_roots(&text.get_untracked()) {
        Ok(roots) => {
            problem.set(None);
            set_roots(roots.clone());
            Some(roots)
        }
        Err(e) => {
            problem.set(Some(e));
            None
        }
    };
    view! {
        <div class="roots-ask" data-testid="roots-ask">
            <label for=format!("roots-{id}")>"Your roots: one file:// URI per line, a name after a space"</label>
            <textarea id=format!("roots-{id}") data-testid="roots-edit" rows="3"
                placeholder="file:///home/learner/project project"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            {move || problem.get().map(|p| view! { <p class="error" role="alert">{p}</p> })}
            <div class="buttons">
                <button data-testid="roots-save" on:click=move |_| { save(); }>
                    "Save (tells the server: notifications/roots/list_changed)"
                </button>
                <Show when=move || waiting>
                    <button class="primary" data-testid="roots-send" on:click=move |_| {
                        if let Some(roots) = save() {
                            answer(id, Reply::Roots(roots));
                        }
                    }>"Send these roots"</button>
                </Show>
            </div>
        </div>
    }
}
