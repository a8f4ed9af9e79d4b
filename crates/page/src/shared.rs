//! Sharing: opening a shared session as a replay (no network), "Run it live", and
//! recording the page into a recording (never a key or a token).

use mcpg_host::provider::Provider;
use mcpg_host::script::Script;
use mcpg_recording::{Connection, Recording, rehydrate_with};

use crate::driver::PageDriver;
use crate::links::Link;
use crate::record::{connection, demo_exchange, public_url, source_of};
use crate::replay::ReplayLink;
use crate::settings::{ModelChoice, slot};
use crate::view::{ReplayInfo, ViewChange};

impl PageDriver {
    /// Replays `session` with no network: the recording answers for the server (the
    /// embedded demo's elided answers are regenerated first) and its script for the
    /// model. A session that cannot be replayed gives one notice and nothing else.
    pub(crate) fn open_shared(&mut self, mut session: Recording, from: &str) {
        // An embedded session waited for the engine (`waiting.rs`), which brings
        // the demo's code that regenerates its answers.
        let handlers = self.engine.map(|e| e.0.demo_handlers());
        let why = if session.connection == Connection::Embedded
            && let Some(handlers) = handlers
            && let Err(e) = rehydrate_with(&mut session, demo_exchange(handlers))
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
            self.notice(format!(
                "This session {from} cannot be replayed: {why}. Nothing was loaded or connected."
            ));
            return;
        }
        if let Some(p) = session.model.format.as_deref().and_then(Provider::from_id) {
            self.provider = p;
            self.emit(ViewChange::Provider(p));
            // The model name only: never the base URL (a hostile link could otherwise
            // point the learner's key at its own server).
            let name = session.model.settings.get("model").and_then(|v| v.as_str());
            if session.model.kind == p.id()
                && let Some(name) = name
                && let Some(s) = self.llm.get_mut(slot(p))
            {
                name.clone_into(&mut s.model);
                self.emit(ViewChange::LlmModel {
                    provider: p,
                    model: name.to_owned(),
                });
            }
        }
        if let Some(m) = session.messages.first() {
            self.prompt = m.clone();
            self.emit(ViewChange::Prompt(m.clone()));
        }
        self.script_values = session.script.clone();
        self.emit(ViewChange::Script(session.script.clone()));
        let link = ReplayLink::new(&session);
        let source = source_of(&session.connection);
        let info = ReplayInfo {
            source: source.clone(),
            wire: session.wire.len(),
            steps: session.cursor,
        };
        self.open(source, Some(link));
        self.replay = Some(session);
        self.emit(ViewChange::Replay(Some(info)));
    }

    /// In a replay, sends again the requests the recording made before its next
    /// loop (see [`crate::replay::ReplayLink::requests_before_loop`]), once the
    /// connection is negotiated: the loop's own requests then carry the ids they
    /// were recorded with (and the wire reads as recorded).
    pub(crate) fn catch_up_replay(&mut self) {
        let Link::Replay(r) = &self.link else { return };
        if self.client.negotiated().is_none() {
            return;
        }
        let asked = r.requests_before_loop();
        if asked.is_empty() {
            return;
        }
        for (method, params) in asked {
            self.client.request(self.now, &method, params);
        }
        // Their answers come in now, before the loop's first request, in the order
        // the recording has them.
        self.pump();
    }

    /// "Run it live": the same kind of server, the same first message.
    pub(crate) fn run_live(&mut self) {
        let Some(session) = self.replay.take() else {
            return;
        };
        self.emit(ViewChange::Replay(None));
        self.open(source_of(&session.connection), None);
        if let Some(m) = session.messages.first() {
            self.prompt = m.clone();
            self.emit(ViewChange::Prompt(m.clone()));
        }
    }

    /// The page as a recording: connection, model choice (non-secret settings
    /// only), messages, script, every wire frame, the steps of the current loop.
    pub fn record(&self) -> Recording {
        let mut s = Recording::new(connection(&self.source));
        s.model = self.model_choice();
        let mut script = self.recorder.played.clone();
        if let Some(run) = &self.run {
            script.extend(run.played().iter().map(|t| t.to_value()));
        }
        s.messages = if self.recorder.prompts.is_empty() {
            vec![self.prompt.clone()]
        } else {
            self.recorder.prompts.clone()
        };
        if self.recorder.seeds.iter().any(Option::is_some) {
            s.seeds.clone_from(&self.recorder.seeds);
        }
        s.script = if script.is_empty() {
            self.script_values.clone()
        } else {
            script
        };
        s.wire = self.recorder.wire_records();
        s.steps = self.run.as_ref().map_or_else(Vec::new, |run| {
            run.steps()
                .iter()
                .map(|x| serde_json::json!({"n": x.number, "status": x.status.as_str()}))
                .collect()
        });
        s.cursor = s.steps.len();
        s.redact();
        s
    }

    /// Who answered for the model, with a real model's non-secret settings.
    fn model_choice(&self) -> mcpg_recording::ModelChoice {
        let provider = self.provider;
        let mut m = mcpg_recording::ModelChoice {
            kind: match self.model {
                ModelChoice::Mock => "mock".into(),
                ModelChoice::Play => "player".into(),
                ModelChoice::Real => provider.id().into(),
            },
            format: Some(provider.id().into()),
            ..Default::default()
        };
        if self.model == ModelChoice::Real
            && let Some(l) = self.llm.get(slot(provider))
        {
            m.settings
                .insert("base_url".into(), public_url(&l.base).into());
            m.settings.insert("model".into(), l.model.clone().into());
        }
        m
    }
}
