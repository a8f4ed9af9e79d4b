//! Opening a shared session: a replay with no network.

use mcpg_core::client::Client;
use mcpg_core::model::JsonObject;
use mcpg_host::script::Script;
use mcpg_loop_data::Provider;
use mcpg_page::{Page, ReplayInfo, ReplayLink, ViewChange, demo_exchange, slot, source_of};
use mcpg_recording::{Connection, Recording, rehydrate_with};

use crate::parts::LoopParts;

impl LoopParts {
    /// Replays `session` with no network: the recording answers for the server (the
    /// embedded demo's elided answers are regenerated first) and its script for the
    /// model. A session that cannot be replayed gives one notice and nothing else.
    pub(crate) fn open_shared(&mut self, page: &mut Page, mut session: Recording, from: &str) {
        // The demo's code that regenerates its answers comes with the later parts.
        let why = if session.connection == Connection::Embedded
            && let Err(e) = rehydrate_with(&mut session, demo_exchange(mcpg_demo::handlers()))
        {
            Some(e.to_string())
        } else if let Some(i) = session.wire.iter().position(|w| w.text.is_none()) {
            Some(format!(
                "message {i} was left out and only the embedded demo server can regenerate it"
            ))
        } else if let Err(e) = Script::from_values(&session.script) {
            Some(format!("its model script is invalid ({e})"))
        } else {
            None
        };
        if let Some(why) = why {
            page.notice(format!(
                "This session {from} cannot be replayed: {why}. Nothing was loaded or connected."
            ));
            return;
        }
        if let Some(p) = session.model.format.as_deref().and_then(Provider::from_id) {
            page.provider = p;
            page.emit(ViewChange::Provider(p));
            // The model name only: never the base URL (a hostile link could otherwise
            // point the learner's key at its own server).
            let name = session.model.settings.get("model").and_then(|v| v.as_str());
            if session.model.kind == p.id()
                && let Some(name) = name
                && let Some(s) = page.llm.get_mut(slot(p))
            {
                name.clone_into(&mut s.model);
                page.emit(ViewChange::LlmModel {
                    provider: p,
                    model: name.to_owned(),
                });
            }
        }
        if let Some(m) = session.messages.first() {
            page.prompt = m.clone();
            page.emit(ViewChange::Prompt(m.clone()));
        }
        page.script_values = session.script.clone();
        page.emit(ViewChange::Script(session.script.clone()));
        let link = ReplayLink::new(&session);
        let source = source_of(&session.connection);
        let info = ReplayInfo {
            source: source.clone(),
            wire: session.wire.len(),
            steps: session.cursor,
        };
        page.open(source, Some(link));
        if let Some(caps) = session.declared_capabilities() {
            declare(page, caps);
        }
        if went_on(&session) {
            page.notice(format!(
                "This session {from} went on after the model's answer with a later message (a view's ui/message): the replay plays the loop to its first answer, and does not press anything inside a view."
            ));
        }
        page.replay = Some(session);
        page.emit(ViewChange::Replay(Some(info)));
    }
}

/// Whether the recorded loop went on after an answer: a step 3 right after a
/// step 6 (within one message, step 6 leads to step 4 or to the end).
fn went_on(session: &Recording) -> bool {
    let n: Vec<Option<u64>> = session
        .steps
        .iter()
        .map(|s| s.get("n").and_then(serde_json::Value::as_u64))
        .collect();
    n.windows(2).any(|w| w[0] == Some(6) && w[1] == Some(3))
}

/// Replaces the client `Page::open` just made, before it sent anything, with one
/// that declares `caps` (here, so the first screen carries none of this).
fn declare(page: &mut Page, mut caps: JsonObject) {
    let mut cfg = page.client.config().clone();
    // The Tasks extension is the configuration's to stamp (2026-07-28 only): a
    // recording made before the page declared it declares it not, and replays so.
    cfg.tasks_extension = take_tasks_extension(&mut caps);
    cfg.capabilities = caps;
    page.client = Client::new(cfg);
    page.client.connect(page.now);
}

/// Removes the Tasks extension from recorded capabilities; whether it was there.
/// An `extensions` left empty stays, so the stamp puts it back where it was.
fn take_tasks_extension(caps: &mut JsonObject) -> bool {
    caps.get_mut("extensions")
        .and_then(serde_json::Value::as_object_mut)
        .and_then(|e| e.remove(mcpg_core::client::TASKS_EXTENSION))
        .is_some()
}
