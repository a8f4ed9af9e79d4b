//! Why a typed view could not be read from the JSON a server sent.

/// What was wrong, without where (see [`ModelError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelErrorKind {
    /// An object was expected; `found` names what came ("an array", "null"…).
    NotAnObject {
        /// The JSON type found.
        found: &'static str,
    },
    /// A required member is absent (or `null`).
    Missing {
        /// The member's name.
        member: String,
    },
    /// A member has the wrong JSON type.
    WrongType {
        /// The member's name.
        member: String,
        /// What the spec wants ("a string", "a whole number"…).
        expected: &'static str,
        /// What came.
        found: &'static str,
    },
    /// A log level that is not one of RFC 5424's eight.
    UnknownLevel {
        /// The level as sent, shortened to 40 characters.
        level: String,
    },
}

impl std::fmt::Display for ModelErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelErrorKind::NotAnObject { found } => {
                write!(f, "expected an object, found {found}")
            }
            ModelErrorKind::Missing { member } => write!(f, "missing field `{member}`"),
            ModelErrorKind::WrongType {
                member,
                expected,
                found,
            } => write!(f, "`{member}` must be {expected}, not {found}"),
            ModelErrorKind::UnknownLevel { level } => {
                write!(f, "level {level:?} is not one of the eight RFC 5424 levels")
            }
        }
    }
}

/// A typed view that could not be read: where in the JSON (outermost first, such as
/// `tools[3]` then `annotations`) and what was wrong. Shown as
/// "tools[3]: annotations: `readOnlyHint` must be a boolean, not a string".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    /// The path to the member at fault, outermost first; empty at the top.
    pub at: Vec<String>,
    /// What was wrong there.
    pub kind: ModelErrorKind,
}

impl ModelError {
    /// `kind` at the top of the JSON being read.
    pub fn new(kind: ModelErrorKind) -> Self {
        ModelError {
            at: Vec::new(),
            kind,
        }
    }

    /// A required member that is absent.
    pub fn missing(member: &str) -> Self {
        ModelError::new(ModelErrorKind::Missing {
            member: member.to_owned(),
        })
    }

    /// The same error, seen from the object that holds `place` (a member name or
    /// `name[i]`).
    #[must_use]
    pub fn within(mut self, place: impl Into<String>) -> Self {
        self.at.insert(0, place.into());
        self
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for place in &self.at {
            write!(f, "{place}: ")?;
        }
        self.kind.fmt(f)
    }
}

impl std::error::Error for ModelError {}

// Callers that only report the error keep a `String` through `?`.
impl From<ModelError> for String {
    fn from(e: ModelError) -> Self {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_reads_as_before_outermost_place_first() {
        let e = ModelError::new(ModelErrorKind::WrongType {
            member: "readOnlyHint".into(),
            expected: "a boolean",
            found: "a string",
        })
        .within("annotations")
        .within("tools[3]");
        assert_eq!(
            e.to_string(),
            "tools[3]: annotations: `readOnlyHint` must be a boolean, not a string"
        );
        assert_eq!(e.at, ["tools[3]", "annotations"]);
        assert_eq!(
            ModelError::missing("content").to_string(),
            "missing field `content`"
        );
    }
}
