//! Tool names: a reversible mapping where a provider's rules differ from MCP's.
//! Rewriting can make two names collide, so the map keeps both directions and
//! records why each name changed, for the learner to see.

use std::collections::{BTreeMap, HashSet};

/// A provider's naming rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRules {
    /// Longest allowed name.
    pub max_len: usize,
    /// Extra characters allowed besides ASCII letters, digits and `_`.
    pub extra: &'static [u8],
    /// Whether the first character must be a letter or `_`.
    pub letter_first: bool,
}

impl NameRules {
    /// Anthropic and OpenAI: `^[a-zA-Z0-9_-]{1,64}$`.
    pub const OPENAI_ANTHROPIC: NameRules = NameRules {
        max_len: 64,
        extra: b"-",
        letter_first: false,
    };
    /// Gemini: starts with a letter or `_`; `a-zA-Z0-9_.:-`; at most 64. The Gemini
    /// API's `FunctionDeclaration` (`v1beta`, which the page calls) allows 64;
    /// Vertex AI's reference has said 128, but a name the Gemini API refuses must
    /// not reach it.
    pub const GEMINI: NameRules = NameRules {
        max_len: 64,
        extra: b".:-",
        letter_first: true,
    };

    fn allowed(&self, b: u8) -> bool {
        b.is_ascii_alphanumeric() || b == b'_' || self.extra.contains(&b)
    }

    /// The rule as the providers' error messages print it (`^[a-zA-Z0-9_-]{1,64}$`).
    pub fn pattern(&self) -> String {
        let extra: String = self.extra.iter().map(|b| char::from(*b)).collect();
        let first = if self.letter_first { "[a-zA-Z_]" } else { "" };
        let min = usize::from(!self.letter_first);
        let max = if self.letter_first {
            self.max_len - 1
        } else {
            self.max_len
        };
        format!("^{first}[a-zA-Z0-9_{extra}]{{{min},{max}}}$")
    }

    /// Whether `name` is acceptable as it is.
    pub fn accepts(&self, name: &str) -> bool {
        let first_ok = !self.letter_first
            || name
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
        !name.is_empty()
            && name.len() <= self.max_len
            && first_ok
            && name.bytes().all(|b| self.allowed(b))
    }
}

/// One rewritten name.
#[derive(Clone, Debug, PartialEq)]
pub struct NameChange {
    /// The MCP name.
    pub mcp: String,
    /// The provider name.
    pub provider: String,
    /// Why it changed.
    pub reason: String,
}

/// MCP name ↔ provider name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NameMap {
    to_provider: BTreeMap<String, String>,
    to_mcp: BTreeMap<String, String>,
    changes: Vec<NameChange>,
}

impl NameMap {
    /// Builds the map for `names` under `rules`.
    pub fn build<'a>(names: impl IntoIterator<Item = &'a str>, rules: NameRules) -> NameMap {
        let mut map = NameMap::default();
        let names: Vec<&str> = names.into_iter().collect();
        // Names that are already fine keep priority, so a rewrite never steals them.
        let mut taken: HashSet<String> = names
            .iter()
            .filter(|n| rules.accepts(n))
            .map(|n| (*n).to_owned())
            .collect();
        for name in names {
            if map.to_provider.contains_key(name) {
                continue;
            }
            if rules.accepts(name) {
                map.insert(name, name.to_owned());
                continue;
            }
            let (base, mut reason) = sanitize(name, rules);
            let mut candidate = base.clone();
            let mut n = 2;
            while taken.contains(&candidate) {
                let suffix = format!("_{n}");
                let keep = rules.max_len.saturating_sub(suffix.len()).min(base.len());
                candidate = format!("{}{suffix}", &base[..keep]);
                n += 1;
            }
            if candidate != base {
                reason.push_str("; renamed again to avoid a collision");
            }
            taken.insert(candidate.clone());
            map.changes.push(NameChange {
                mcp: name.to_owned(),
                provider: candidate.clone(),
                reason,
            });
            map.insert(name, candidate);
        }
        map
    }

    /// The map a naive host works with: every name as it is, nothing rewritten,
    /// whatever the provider's rules say.
    pub fn unchanged<'a>(names: impl IntoIterator<Item = &'a str>) -> NameMap {
        let mut map = NameMap::default();
        for name in names {
            map.insert(name, name.to_owned());
        }
        map
    }

    fn insert(&mut self, mcp: &str, provider: String) {
        self.to_mcp.insert(provider.clone(), mcp.to_owned());
        self.to_provider.insert(mcp.to_owned(), provider);
    }

    /// The provider's name for MCP tool `mcp`.
    pub fn to_provider(&self, mcp: &str) -> Option<&str> {
        self.to_provider.get(mcp).map(String::as_str)
    }

    /// The MCP name for the provider's `name`.
    pub fn to_mcp(&self, name: &str) -> Option<&str> {
        self.to_mcp.get(name).map(String::as_str)
    }

    /// Every rewrite, in tool order.
    pub fn changes(&self) -> &[NameChange] {
        &self.changes
    }
}

fn sanitize(name: &str, rules: NameRules) -> (String, String) {
    let mut reasons = Vec::new();
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii() && rules.allowed(c as u8) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out != name {
        reasons.push("characters the provider does not allow became _");
    }
    if rules.letter_first && !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
        reasons.push("the provider needs a letter or _ first");
    }
    if out.is_empty() {
        out.push_str("tool");
        reasons.push("empty name");
    }
    if out.len() > rules.max_len {
        // Keep the name readable, and unique through a short checksum of the original.
        let sum = name
            .bytes()
            .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
        let tag = format!("_{:06x}", sum & 0xff_ffff);
        out.truncate(rules.max_len - tag.len());
        out.push_str(&tag);
        reasons.push("longer than the provider allows");
    }
    let reason = if reasons.is_empty() {
        "rewritten".to_owned()
    } else {
        reasons.join("; ")
    };
    (out, reason)
}
