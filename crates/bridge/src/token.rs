//! The per-launch secret. Without it nothing but static files is served, so a page
//! from another site cannot drive the bridge even if it reaches the port.

use std::fmt;

use crate::error::BridgeError;

/// 32 random bytes, as 64 lowercase hex digits.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A fresh random token.
    pub fn generate() -> Result<Token, BridgeError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| BridgeError::Random(e.to_string()))?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// A given token (tests, or a caller that manages its own secret).
    pub fn from_string(s: impl Into<String>) -> Token {
        Token(s.into())
    }

    /// The token's text, for the printed URL.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Compares in constant time, so response timing says nothing about how many
    /// leading characters of a guess were right.
    pub fn matches(&self, candidate: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), candidate.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

// Never print the secret by accident (in a log of the state, say).
impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_64_hex_digits_and_fresh_each_time() {
        let a = Token::generate().unwrap();
        let b = Token::generate().unwrap();
        assert_eq!(a.as_str().len(), 64);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(a.matches(a.as_str()));
        assert!(!a.matches(b.as_str()));
        assert!(!a.matches(""));
        assert!(!format!("{a:?}").contains(a.as_str()));
    }
}
