//! Sharing: catching a replay up, "Run it live", and recording the page into a
//! recording (never a key or a token). Opening a shared session is the later
//! parts' (it checks the recording's model script with the host's code).

use mcpg_recording::Recording;

use crate::links::Link;
use crate::page::Page;
use crate::record::{connection, public_url, source_of};
use crate::settings::{ModelChoice, slot};
use crate::view::ViewChange;

impl Page {
    /// In a replay, sends again the requests the recording made before its next
    /// loop (see [`crate::replay::ReplayLink::requests_before_loop`]), once the
    /// connection is negotiated: the loop's own requests then carry the ids they
    /// were recorded with (and the wire reads as recorded).
    pub fn catch_up_replay(&mut self) {
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
        self.move_frames();
    }

    /// The link of a replay, if this connection is one.
    pub fn replay_link(&self) -> Option<&crate::ReplayLink> {
        match &self.link {
            Link::Replay(r) => Some(r),
            _ => None,
        }
    }

    /// "Run it live": the same kind of server, the same first message.
    pub fn run_live(&mut self) {
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
        script.extend(self.recorder.loop_played.iter().cloned());
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
        s.steps.clone_from(&self.recorder.loop_steps);
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
