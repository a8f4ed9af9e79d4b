//! Protocol revisions and the two generations they fall into.

use std::fmt;

/// A dated revision of the MCP specification that this crate speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// `2024-11-05`: the first release (stdio and HTTP+SSE).
    V2024_11_05,
    /// `2025-03-26`: Streamable HTTP, tool annotations, audio content, batching.
    V2025_03_26,
    /// `2025-06-18`: `outputSchema`, `structuredContent`, `resource_link`, elicitation; batching removed.
    V2025_06_18,
    /// `2025-11-25`: icons, tool-name guidance, tasks, JSON Schema 2020-12 by default.
    V2025_11_25,
    /// `2026-07-28`: stateless; no `initialize`, `server/discover`, per-request `_meta`.
    V2026_07_28,
}

/// How a client and server establish a shared revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Generation {
    /// 2024-11-05 … 2025-11-25: an `initialize` handshake, then a session.
    Initialize,
    /// 2026-07-28: no handshake; every request carries its version in `_meta`.
    Stateless,
}

impl ProtocolVersion {
    /// Every revision, oldest first.
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The newest revision.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// The newest revision that still uses `initialize`.
    pub const LATEST_WITH_INITIALIZE: ProtocolVersion = ProtocolVersion::V2025_11_25;

    /// The date string used on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Parses a wire date string; `None` for revisions this crate does not know.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// Which handshake this revision uses.
    pub fn generation(self) -> Generation {
        if self >= ProtocolVersion::V2026_07_28 {
            Generation::Stateless
        } else {
            Generation::Initialize
        }
    }

    /// Whether JSON-RPC batches are allowed (only 2025-03-26).
    pub fn allows_batches(self) -> bool {
        self == ProtocolVersion::V2025_03_26
    }

    /// Whether `outputSchema` / `structuredContent` / `resource_link` exist.
    pub fn has_structured_output(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// Whether HTTP requests must carry `MCP-Protocol-Version`.
    pub fn requires_version_header(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Generation::Initialize => "initialize (2024-11-05 … 2025-11-25)",
            Generation::Stateless => "stateless (2026-07-28)",
        })
    }
}
