//! One way a value does not fit its schema (found by `mcpg_host::schema`).

/// One way the instance does not fit the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// Where, as a JSON Pointer into the instance (`""` is the whole value).
    pub path: String,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}
