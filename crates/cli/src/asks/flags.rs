//! `--on-elicit`, `--on-sample` and `--root`: how mcpg answers what a server asks
//! of it, read and checked before anything is started.

use std::path::{Path, PathBuf};

use clap::Args;
use mcpg_core::model::JsonObject;
use serde_json::Value;

/// The answering flags every server command takes. With none of them the client
/// declares no capability, so servers ask nothing.
#[derive(Debug, Default, Args)]
pub struct AskFlags {
    /// Answer the server's elicitation requests (forms and URLs): `ask` prompts in
    /// this terminal (stdin must be a terminal), `decline` declines every one, and
    /// a FILE.json answers from the file: one JSON object of field values, e.g.
    /// `{"party_size": 4, "time": "19:30"}`, merged over each form's defaults
    /// (fields a form does not have are left out of its answer; `{}` accepts the
    /// defaults), and URL elicitations declined. A URL is never opened by mcpg:
    /// `ask` prints it with its domain and waits for Enter.
    #[arg(long, value_name = "ask|decline|FILE.json")]
    pub on_elicit: Option<String>,
    /// Answer the server's sampling requests (`sampling/createMessage`): `mock`
    /// answers with the playground's deterministic mock model, `decline` rejects
    /// every one, any other TEXT is sent back as the model's answer.
    #[arg(long, value_name = "mock|decline|TEXT")]
    pub on_sample: Option<String>,
    /// A root (`file://` URI) to give the server when it asks `roots/list`;
    /// repeat for several.
    #[arg(long = "root", value_name = "URI")]
    pub roots: Vec<String>,
}

/// What `--on-elicit` says.
#[derive(Clone, Debug, PartialEq)]
pub enum OnElicit {
    /// Prompt the person at the terminal.
    Ask,
    /// Decline every elicitation.
    Decline,
    /// Accept with these field values over each form's defaults.
    Answers(JsonObject),
}

/// What `--on-sample` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnSample {
    /// The deterministic mock model.
    Mock,
    /// Reject every sampling request.
    Decline,
    /// This text, as the model's answer.
    Text(String),
}

/// The answering flags, checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answering {
    /// `--on-elicit`, if given.
    pub elicit: Option<OnElicit>,
    /// `--on-sample`, if given.
    pub sample: Option<OnSample>,
    /// Every `--root`, in order.
    pub roots: Vec<String>,
}

impl Answering {
    /// Whether no flag was given: the client then declares nothing.
    pub fn is_empty(&self) -> bool {
        self.elicit.is_none() && self.sample.is_none() && self.roots.is_empty()
    }
}

/// Why the answering flags cannot be used; every one is a usage error (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum FlagError {
    /// `--root` is not a `file://` URI with a path.
    #[error("--root {0:?} is not a file:// URI (e.g. file:///home/me/project)")]
    NotFileUri(String),
    /// `--root` holds whitespace or control characters.
    #[error("--root {0:?} has spaces or control characters; percent-encode them (%20)")]
    BadCharacter(String),
    /// `--on-elicit ask` without a terminal to ask in.
    #[error(
        "--on-elicit ask needs a terminal on stdin to prompt in; give a FILE.json of answers or decline instead"
    )]
    NoTerminal,
    /// The answers file cannot be read.
    #[error("--on-elicit: cannot read {path}: {reason}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The answers file is not a JSON object.
    #[error("--on-elicit: {path} must hold one JSON object of field values ({reason})")]
    NotAnObject {
        /// The file.
        path: PathBuf,
        /// What it holds instead.
        reason: String,
    },
    /// `--on-sample` was given an empty text.
    #[error("--on-sample needs mock, decline or a non-empty text")]
    EmptySample,
}

impl AskFlags {
    /// Checks the flags; `stdin_is_terminal` decides whether `ask` can prompt.
    pub fn check(&self, stdin_is_terminal: bool) -> Result<Answering, FlagError> {
        let elicit = match self.on_elicit.as_deref() {
            None => None,
            Some("ask") if stdin_is_terminal => Some(OnElicit::Ask),
            Some("ask") => return Err(FlagError::NoTerminal),
            Some("decline") => Some(OnElicit::Decline),
            Some(path) => Some(OnElicit::Answers(answers_file(Path::new(path))?)),
        };
        let sample = match self.on_sample.as_deref() {
            None => None,
            Some("mock") => Some(OnSample::Mock),
            Some("decline") => Some(OnSample::Decline),
            Some("") => return Err(FlagError::EmptySample),
            Some(text) => Some(OnSample::Text(text.to_owned())),
        };
        for r in &self.roots {
            check_root(r)?;
        }
        Ok(Answering {
            elicit,
            sample,
            roots: self.roots.clone(),
        })
    }
}

/// A root must be a `file://` URI naming a path, written as a URI (no raw spaces
/// or control characters, which a server would have to guess about).
pub fn check_root(uri: &str) -> Result<(), FlagError> {
    if uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(FlagError::BadCharacter(uri.to_owned()));
    }
    let rest = uri
        .get(..7)
        .filter(|scheme| scheme.eq_ignore_ascii_case("file://"))
        .and_then(|_| uri.get(7..))
        .ok_or_else(|| FlagError::NotFileUri(uri.to_owned()))?;
    // `file:///path` (empty host) or `file://host/path`: a path must follow.
    match rest.find('/') {
        Some(i) if rest.len() > i + 1 || i == 0 => Ok(()),
        _ => Err(FlagError::NotFileUri(uri.to_owned())),
    }
}

/// Reads the answers file: one JSON object.
fn answers_file(path: &Path) -> Result<JsonObject, FlagError> {
    let text = std::fs::read_to_string(path).map_err(|e| FlagError::Unreadable {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(other) => Err(FlagError::NotAnObject {
            path: path.to_owned(),
            reason: format!("it holds {}", mcpg_core::validate::kind_of(&other)),
        }),
        Err(e) => Err(FlagError::NotAnObject {
            path: path.to_owned(),
            reason: format!("not JSON: {e}"),
        }),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn flags(elicit: Option<&str>, sample: Option<&str>, roots: &[&str]) -> AskFlags {
        AskFlags {
            on_elicit: elicit.map(str::to_owned),
            on_sample: sample.map(str::to_owned),
            roots: roots.iter().map(|r| (*r).to_owned()).collect(),
        }
    }

    #[test]
    fn no_flags_is_empty() {
        assert!(AskFlags::default().check(false).unwrap().is_empty());
    }

    #[test]
    fn roots_must_be_file_uris() {
        assert!(check_root("file:///home/me/project").is_ok());
        assert!(check_root("FILE:///tmp").is_ok());
        assert!(check_root("file://server/share").is_ok());
        for bad in [
            "/home/me",
            "http://x/y",
            "file://",
            "file://host",
            "file:/x",
        ] {
            assert!(
                matches!(check_root(bad), Err(FlagError::NotFileUri(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            check_root("file:///my dir"),
            Err(FlagError::BadCharacter(_))
        ));
        let err = flags(None, None, &["file:///a", "nope"]).check(true);
        assert!(matches!(err, Err(FlagError::NotFileUri(u)) if u == "nope"));
    }

    #[test]
    fn ask_needs_a_terminal() {
        let f = flags(Some("ask"), None, &[]);
        assert!(matches!(f.check(false), Err(FlagError::NoTerminal)));
        assert_eq!(f.check(true).unwrap().elicit, Some(OnElicit::Ask));
    }

    #[test]
    fn sample_words_and_text() {
        let got = |s| flags(None, Some(s), &[]).check(false).unwrap().sample;
        assert_eq!(got("mock"), Some(OnSample::Mock));
        assert_eq!(got("decline"), Some(OnSample::Decline));
        assert_eq!(got("Paris"), Some(OnSample::Text("Paris".into())));
        assert!(matches!(
            flags(None, Some(""), &[]).check(false),
            Err(FlagError::EmptySample)
        ));
    }

    #[test]
    fn answers_file_is_one_object() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("a.json");
        std::fs::write(&good, r#"{"party_size": 4}"#).unwrap();
        let got = flags(Some(good.to_str().unwrap()), None, &[])
            .check(false)
            .unwrap();
        let Some(OnElicit::Answers(o)) = got.elicit else {
            panic!("{got:?}")
        };
        assert_eq!(o.get("party_size"), Some(&Value::from(4)));
        let list = dir.path().join("l.json");
        std::fs::write(&list, "[1]").unwrap();
        let err = flags(Some(list.to_str().unwrap()), None, &[]).check(false);
        assert!(matches!(err, Err(FlagError::NotAnObject { .. })));
        let missing = dir.path().join("none.json");
        let err = flags(Some(missing.to_str().unwrap()), None, &[]).check(false);
        assert!(matches!(err, Err(FlagError::Unreadable { .. })));
    }
}
