//! The notice that the session recording reached its byte ceiling (issue 26): the
//! share link and the export then hold the session's start only, and the learner
//! should know before sharing it.

use leptos::prelude::*;

use crate::state::use_app;

/// Shown in the share bar once the recording left a message out.
#[component]
pub fn UnrecordedNotice() -> impl IntoView {
    let st = use_app();
    // A projection: the share bar re-renders only when what was left out changes.
    let unrecorded = Memo::new(move |_| st.log.with(|m| m.unrecorded));
    move || {
        let u = unrecorded.get();
        (u.messages > 0).then(|| {
            view! {
                <p class="bad" role="status" data-testid="recorder-dropped">
                    {format!(
                        "The recording is full ({} MB): {} later wire messages ({} bytes) are not in the share link or the export. The wire log still shows them.",
                        mcpg_page::RECORD_CEILING_BYTES >> 20,
                        u.messages,
                        u.bytes,
                    )}
                </p>
            }
        })
    }
}
