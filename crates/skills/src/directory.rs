//! One page of `resources/directory/read` (the extension's optional method, offered
//! when the server's settings say `directoryRead: true`): each child checked on its
//! own against the directory that was read, so one hostile child does not hide
//! the others and none can point outside.

use serde_json::Value;

/// The `mimeType` of a directory resource.
pub const DIRECTORY_MIME: &str = "inode/directory";

/// A direct child of the directory read, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child {
    /// Its resource URI: the directory's, `/`, and one segment.
    pub uri: String,
    /// That last segment (`invoice.md`, `regional`).
    pub segment: String,
    /// The `name` the server gave, if any (untrusted text, for display only).
    pub name: Option<String>,
    /// Its `mimeType`, if any.
    pub mime_type: Option<String>,
}

impl Child {
    /// Whether it is a subdirectory (`mimeType` `inode/directory`).
    pub fn is_directory(&self) -> bool {
        self.mime_type.as_deref() == Some(DIRECTORY_MIME)
    }
}

/// Why one child must not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChildError {
    /// Not an object, or no string `uri`.
    #[error("child {0} has no uri")]
    NoUri(usize),
    /// Not under the directory read.
    #[error("{0:?} is not inside the directory read")]
    Outside(String),
    /// Under it, but more than one segment down (`a/b`), or empty (`dir/`).
    #[error("{0:?} is not a direct child of the directory read")]
    NotDirect(String),
    /// A `.` or `..` segment, written plainly or percent-encoded.
    #[error("{0:?} names the directory itself or its parent")]
    DotSegment(String),
    /// Listed twice.
    #[error("{0:?} is listed twice")]
    Duplicate(String),
    /// `mimeType` present but not a string.
    #[error("{0:?} has a mimeType that is not a string")]
    BadMimeType(String),
}

/// Why an answer is not a `resources/directory/read` result at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DirectoryError {
    /// No `resources` array.
    #[error("the result has no resources array")]
    NoResources,
    /// The cursor is not a string.
    #[error("nextCursor is not a string")]
    BadCursor,
}

/// A page of `resources/directory/read`, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectoryPage {
    /// Every child in order: checked, or why it must not be used.
    pub children: Vec<Result<Child, ChildError>>,
    /// The cursor of the next page.
    pub next_cursor: Option<String>,
}

impl DirectoryPage {
    /// Reads a `resources/directory/read` result for the directory `dir` (its URI
    /// as sent, without a trailing slash, as the extension writes directories).
    pub fn from_result(dir: &str, result: &Value) -> Result<DirectoryPage, DirectoryError> {
        let list = result
            .get("resources")
            .and_then(Value::as_array)
            .ok_or(DirectoryError::NoResources)?;
        let next_cursor = match result.get("nextCursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(_) => return Err(DirectoryError::BadCursor),
        };
        let mut seen: Vec<&str> = Vec::new();
        let children = list
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let child = check(dir, i, v)?;
                let uri = v.get("uri").and_then(Value::as_str).unwrap_or_default();
                if seen.contains(&uri) {
                    return Err(ChildError::Duplicate(child.uri));
                }
                seen.push(uri);
                Ok(child)
            })
            .collect();
        Ok(DirectoryPage {
            children,
            next_cursor,
        })
    }
}

/// One child of `dir`, checked.
fn check(dir: &str, index: usize, v: &Value) -> Result<Child, ChildError> {
    let uri = v
        .get("uri")
        .and_then(Value::as_str)
        .ok_or(ChildError::NoUri(index))?;
    let segment = uri
        .strip_prefix(dir)
        .and_then(|rest| rest.strip_prefix('/'))
        .ok_or_else(|| ChildError::Outside(uri.to_owned()))?;
    // A backslash is a separator to some file systems: one segment must stay one.
    if segment.is_empty() || segment.contains(['/', '\\']) {
        return Err(ChildError::NotDirect(uri.to_owned()));
    }
    if is_dot(segment) {
        return Err(ChildError::DotSegment(uri.to_owned()));
    }
    let mime_type = match v.get("mimeType") {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) => Some(m.clone()),
        Some(_) => return Err(ChildError::BadMimeType(uri.to_owned())),
    };
    Ok(Child {
        uri: uri.to_owned(),
        segment: segment.to_owned(),
        name: v.get("name").and_then(Value::as_str).map(str::to_owned),
        mime_type,
    })
}

/// `.` or `..`, also as `%2e` (which a URI resolver decodes to a dot).
fn is_dot(segment: &str) -> bool {
    let decoded = segment.to_ascii_lowercase().replace("%2e", ".");
    decoded == "." || decoded == ".."
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    const DIR: &str = "skill://pdf/templates";

    fn one(child: Value) -> Result<Child, ChildError> {
        let page = DirectoryPage::from_result(DIR, &json!({"resources": [child]})).unwrap();
        page.children.into_iter().next().unwrap()
    }

    #[test]
    fn files_and_subdirectories_are_read() {
        let page = DirectoryPage::from_result(
            DIR,
            &json!({"resources": [
                {"uri": "skill://pdf/templates/invoice.md", "name": "invoice.md", "mimeType": "text/markdown"},
                {"uri": "skill://pdf/templates/regional", "name": "regional", "mimeType": "inode/directory"},
                {"uri": "skill://pdf/templates/plain"},
            ], "nextCursor": "p2"}),
        )
        .unwrap();
        let kids: Vec<Child> = page.children.into_iter().map(Result::unwrap).collect();
        assert_eq!(kids[0].segment, "invoice.md");
        assert!(!kids[0].is_directory());
        assert_eq!(kids[1].segment, "regional");
        assert!(kids[1].is_directory());
        assert_eq!(kids[2].mime_type, None);
        assert_eq!(kids[2].name, None);
        assert_eq!(page.next_cursor.as_deref(), Some("p2"));
    }

    #[test]
    fn an_empty_directory_is_an_empty_page() {
        let page = DirectoryPage::from_result(DIR, &json!({"resources": []})).unwrap();
        assert!(page.children.is_empty());
        assert_eq!(page.next_cursor, None);
    }

    #[test]
    fn children_outside_the_directory_are_refused_by_name() {
        for uri in [
            "skill://pdf/SKILL.md",
            "skill://pdf/templatesX/a.md",
            "skill://other/templates/a.md",
            "file:///etc/passwd",
            "skill://pdf/template",
        ] {
            assert_eq!(
                one(json!({"uri": uri})),
                Err(ChildError::Outside(uri.into())),
                "{uri}"
            );
        }
    }

    #[test]
    fn deeper_or_empty_or_dotted_children_are_refused() {
        for uri in [
            "skill://pdf/templates/regional/eu.md",
            "skill://pdf/templates/",
            "skill://pdf/templates//etc",
            "skill://pdf/templates/a\\..\\..\\x",
        ] {
            assert_eq!(
                one(json!({"uri": uri})),
                Err(ChildError::NotDirect(uri.into())),
                "{uri}"
            );
        }
        for uri in [
            "skill://pdf/templates/..",
            "skill://pdf/templates/.",
            "skill://pdf/templates/%2e%2E",
            "skill://pdf/templates/.%2e",
        ] {
            assert_eq!(
                one(json!({"uri": uri})),
                Err(ChildError::DotSegment(uri.into())),
                "{uri}"
            );
        }
        // Dots inside a name are an ordinary file name.
        assert_eq!(
            one(json!({"uri": "skill://pdf/templates/..hidden"}))
                .unwrap()
                .segment,
            "..hidden"
        );
    }

    #[test]
    fn a_bad_child_does_not_hide_the_others() {
        let page = DirectoryPage::from_result(
            DIR,
            &json!({"resources": [
                42,
                {"uri": "skill://pdf/templates/a.md"},
                {"uri": "skill://pdf/templates/a.md"},
                {"uri": "skill://pdf/templates/b.md", "mimeType": 7},
                {"name": "no uri"},
            ]}),
        )
        .unwrap();
        let c = &page.children;
        assert_eq!(c[0], Err(ChildError::NoUri(0)));
        assert!(c[1].is_ok());
        assert_eq!(
            c[2],
            Err(ChildError::Duplicate("skill://pdf/templates/a.md".into()))
        );
        assert_eq!(
            c[3],
            Err(ChildError::BadMimeType("skill://pdf/templates/b.md".into()))
        );
        assert_eq!(c[4], Err(ChildError::NoUri(4)));
    }

    #[test]
    fn a_result_without_resources_or_with_a_bad_cursor_is_not_a_page() {
        assert_eq!(
            DirectoryPage::from_result(DIR, &json!({"contents": []})),
            Err(DirectoryError::NoResources)
        );
        assert_eq!(
            DirectoryPage::from_result(DIR, &json!({"resources": [], "nextCursor": 3})),
            Err(DirectoryError::BadCursor)
        );
    }
}
