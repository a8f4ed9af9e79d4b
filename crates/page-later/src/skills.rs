//! The Skills panel's code (MCP Skills, `io.modelcontextprotocol/skills`): the
//! listing (`skills/list`, every page), each skill's files read with
//! `resources/read` and checked against the size and SHA-256 the entry promises
//! (`mcpg-skills`), and which verified skills the next loops tell the model.
//!
//! As a host must, the page asks only when the server declared the extension, never
//! loads an invalid entry, and never uses a file whose bytes do not match.

use base64::Engine as _;
use mcpg_core::client::{OpError, OpId};
use mcpg_page::features::view::{
    FeatureChange, FileCheck, ListState, SkillFileView, SkillView, SkillsView,
};
use mcpg_page::{Page, ViewChange};
use mcpg_skills::{Listing, Skill, SkillFiles};
use serde_json::{Value, json};

/// What the panel shows, the entries behind it, and the requests in flight.
#[derive(Debug, Default)]
pub(crate) struct Skills {
    view: SkillsView,
    /// The checked entries, by the view's index (`None`: an invalid entry).
    entries: Vec<Option<Skill>>,
    list_op: Option<OpId>,
    /// `resources/read` in flight: the skill's and the file's index.
    reads: Vec<(OpId, usize, usize)>,
}

/// The file of `uri` inside `skill`, as shown (its path, else the URI).
fn path_of(skill: &Skill, uri: &str) -> String {
    skill.path_of(uri).unwrap_or(uri).to_owned()
}

fn view_of(skill: &Skill) -> SkillView {
    let files = match &skill.files {
        SkillFiles::Listed(files) => files
            .iter()
            .map(|f| SkillFileView {
                path: path_of(skill, &f.uri),
                uri: f.uri.clone(),
                size: f.size,
                digest: f.digest.to_string(),
                check: FileCheck::Unread,
            })
            .collect(),
        SkillFiles::Dynamic => Vec::new(),
    };
    SkillView {
        name: skill.name().to_owned(),
        description: skill.description().to_owned(),
        uri: skill.uri.clone(),
        invalid: None,
        files,
        instructions: None,
        used: false,
    }
}

/// The bytes of a `resources/read` result's first contents (text, or a base64 blob).
fn bytes_of(result: &Value) -> Result<Vec<u8>, String> {
    let c = result
        .get("contents")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .ok_or("the read returned no contents")?;
    if let Some(text) = c.get("text").and_then(Value::as_str) {
        return Ok(text.as_bytes().to_vec());
    }
    let blob = c
        .get("blob")
        .and_then(Value::as_str)
        .ok_or("the contents have neither text nor blob")?;
    base64::engine::general_purpose::STANDARD
        .decode(blob)
        .map_err(|e| format!("the blob is not base64: {e}"))
}

impl Skills {
    /// The extension's name as servers declare it.
    const EXTENSION: &'static str = mcpg_skills::EXTENSION;

    /// A new connection: nothing listed.
    pub(crate) fn reset(&mut self, page: &mut Page) {
        *self = Skills::default();
        self.show(page);
    }

    /// `skills/list` from the first page, if the server declared the extension.
    pub(crate) fn list(&mut self, page: &mut Page) {
        let declared = page.client.negotiated().map(|n| {
            n.capabilities
                .get("extensions")
                .and_then(|e| e.get(Self::EXTENSION))
                .is_some()
        });
        self.entries.clear();
        self.reads.clear();
        self.view.skills.clear();
        self.view.state = match declared {
            None => ListState::Undeclared("not connected yet".into()),
            Some(false) => ListState::Undeclared(format!(
                "the server does not declare the Skills extension ({}), so a host does not ask",
                Self::EXTENSION
            )),
            Some(true) => {
                self.list_op = Some(
                    page.client
                        .request(page.now, "skills/list", Some(json!({}))),
                );
                ListState::Listing
            }
        };
        self.show(page);
    }

    /// Reads every listed file of skill `name`.
    pub(crate) fn read(&mut self, page: &mut Page, name: &str) {
        let Some(i) = self.view.skills.iter().position(|s| s.name == name) else {
            return page.note(format!("no skill named {name:?} is listed"));
        };
        let uris: Vec<String> = self.view.skills[i]
            .files
            .iter()
            .map(|f| f.uri.clone())
            .collect();
        for (j, uri) in uris.into_iter().enumerate() {
            let op = page
                .client
                .request(page.now, "resources/read", Some(json!({ "uri": uri })));
            self.reads.push((op, i, j));
            if let Some(f) = self.view.skills[i].files.get_mut(j) {
                f.check = FileCheck::Reading;
            }
        }
        self.show(page);
    }

    /// Uses (or stops using) skill `name` in the next loops: only a verified one.
    pub(crate) fn use_skill(&mut self, page: &mut Page, name: &str, on: bool) {
        let Some(s) = self.view.skills.iter_mut().find(|s| s.name == name) else {
            return page.note(format!("no skill named {name:?} is listed"));
        };
        if on && s.instructions.is_none() {
            return page.note(format!(
                "skill {name:?} is not used: its SKILL.md has not been read and verified"
            ));
        }
        s.used = on;
        self.show(page);
    }

    /// The instructions of the skills in use: (name, `SKILL.md`).
    pub(crate) fn in_use(&self) -> Vec<(String, String)> {
        self.view
            .skills
            .iter()
            .filter(|s| s.used)
            .filter_map(|s| Some((s.name.clone(), s.instructions.clone()?)))
            .collect()
    }

    /// A raw request's answer: whether it was this panel's.
    pub(crate) fn on_response(
        &mut self,
        page: &mut Page,
        op: OpId,
        outcome: &Result<Value, OpError>,
    ) -> bool {
        if self.list_op == Some(op) {
            self.list_op = None;
            self.listed(page, outcome);
        } else if let Some(k) = self.reads.iter().position(|(o, _, _)| *o == op) {
            let (_, i, j) = self.reads.remove(k);
            self.file_read(i, j, outcome);
        } else {
            return false;
        }
        self.show(page);
        true
    }

    fn listed(&mut self, page: &mut Page, outcome: &Result<Value, OpError>) {
        let listing = match outcome {
            Ok(v) => Listing::from_result(v).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let listing = match listing {
            Ok(l) => l,
            Err(why) => {
                self.view.state = ListState::Failed(why);
                return;
            }
        };
        for entry in listing.entries {
            match entry {
                Ok(skill) => {
                    self.view.skills.push(view_of(&skill));
                    self.entries.push(Some(skill));
                }
                Err((uri, why)) => {
                    self.view.skills.push(SkillView {
                        name: uri.clone().unwrap_or_else(|| "(no uri)".into()),
                        description: String::new(),
                        uri: uri.unwrap_or_default(),
                        invalid: Some(why.to_string()),
                        files: Vec::new(),
                        instructions: None,
                        used: false,
                    });
                    self.entries.push(None);
                }
            }
        }
        self.view.state = match listing.next_cursor {
            Some(cursor) => {
                let params = json!({ "cursor": cursor });
                self.list_op = Some(page.client.request(page.now, "skills/list", Some(params)));
                ListState::Listing
            }
            None => ListState::Done,
        };
    }

    fn file_read(&mut self, i: usize, j: usize, outcome: &Result<Value, OpError>) {
        let (Some(Some(skill)), Some(view)) = (self.entries.get(i), self.view.skills.get_mut(i))
        else {
            return;
        };
        let Some(file) = view.files.get_mut(j) else {
            return;
        };
        let bytes = match outcome {
            Ok(v) => bytes_of(v),
            Err(e) => Err(e.to_string()),
        };
        let checked = bytes.and_then(|b| {
            skill.verify(&file.uri, &b).map_err(|e| e.to_string())?;
            Ok(b)
        });
        match checked {
            Ok(bytes) => {
                file.check = FileCheck::Verified;
                if file.uri == skill.uri {
                    view.instructions = Some(String::from_utf8_lossy(&bytes).into_owned());
                }
            }
            Err(why) => {
                file.check = FileCheck::Refused(why);
                if file.uri == skill.uri {
                    view.instructions = None;
                    view.used = false;
                }
            }
        }
    }

    fn show(&self, page: &mut Page) {
        page.emit(ViewChange::Feature(FeatureChange::Skills(Box::new(
            self.view.clone(),
        ))));
    }
}
