//! The Agent Skills naming rules a skill's `name` (the last segment of its path)
//! must follow.

/// Why a skill name breaks the Agent Skills rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty, or longer than 64 characters.
    #[error("a skill name has 1 to 64 characters, this one {0}")]
    Length(usize),
    /// A character other than a lowercase letter, a digit or a hyphen.
    #[error("a skill name has only lowercase letters, digits and hyphens, not {0:?}")]
    Character(char),
    /// A hyphen at the start or the end, or two in a row.
    #[error("a skill name neither starts nor ends with a hyphen nor has two in a row")]
    Hyphen,
}

/// Checks `name` against the Agent Skills rules: 1 to 64 characters, lowercase
/// letters (Unicode lowercase included), digits and hyphens, no hyphen at either
/// end and none doubled.
pub fn check_name(name: &str) -> Result<(), NameError> {
    let len = name.chars().count();
    if len == 0 || len > 64 {
        return Err(NameError::Length(len));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_lowercase() || c.is_numeric() || *c == '-'))
    {
        return Err(NameError::Character(c));
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        return Err(NameError::Hyphen);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{NameError, check_name};

    #[test]
    fn the_rules() {
        assert_eq!(check_name("git-workflow"), Ok(()));
        assert_eq!(check_name("pdf2"), Ok(()));
        assert_eq!(check_name(""), Err(NameError::Length(0)));
        assert_eq!(check_name(&"a".repeat(65)), Err(NameError::Length(65)));
        assert_eq!(check_name(&"a".repeat(64)), Ok(()));
        assert_eq!(check_name("Git"), Err(NameError::Character('G')));
        assert_eq!(check_name("a_b"), Err(NameError::Character('_')));
        assert_eq!(check_name("a/b"), Err(NameError::Character('/')));
        assert_eq!(check_name("-a"), Err(NameError::Hyphen));
        assert_eq!(check_name("a-"), Err(NameError::Hyphen));
        assert_eq!(check_name("a--b"), Err(NameError::Hyphen));
    }
}
