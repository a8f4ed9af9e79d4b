//! The classic host mistakes, as switches: a lesson turns one on (the naive host),
//! breaks the loop with it, then turns it off (the careful host) to show the fix.
//! Only the names and the notes live here, so the page's first screen can carry
//! the switches without the host's code that acts on them.

/// One mistake a naive host makes. Closed: the host, the page and the lessons all
/// name the same six.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pitfall {
    /// Step 1 reads only the first page of `tools/list` and ignores `nextCursor`.
    FirstPageOnly,
    /// Step 2 sends the MCP tool names to the model API unchanged, even those the
    /// API's naming rules refuse (`math.square` for OpenAI and Anthropic).
    RawNames,
    /// Step 6 feeds a result with `isError: true` back as a success (the provider's
    /// error marker left out).
    ErrorAsSuccess,
    /// The host ignores `notifications/tools/list_changed` and keeps its stale list.
    IgnoreListChanged,
    /// Step 6 passes only `content` and drops `structuredContent`.
    DropStructured,
    /// Step 4 sends `tools/call` for any tool the model names, even one the server
    /// never listed.
    AcceptInventedTool,
}

impl Pitfall {
    /// Every pitfall, in the order of the steps they concern.
    pub const ALL: [Pitfall; 6] = [
        Pitfall::FirstPageOnly,
        Pitfall::RawNames,
        Pitfall::AcceptInventedTool,
        Pitfall::IgnoreListChanged,
        Pitfall::ErrorAsSuccess,
        Pitfall::DropStructured,
    ];

    /// A stable identifier (for a link, a selector or a test): `first-page-only`…
    pub fn id(self) -> &'static str {
        match self {
            Pitfall::FirstPageOnly => "first-page-only",
            Pitfall::RawNames => "raw-names",
            Pitfall::ErrorAsSuccess => "error-as-success",
            Pitfall::IgnoreListChanged => "ignore-list-changed",
            Pitfall::DropStructured => "drop-structured",
            Pitfall::AcceptInventedTool => "accept-invented-tool",
        }
    }

    /// Parses [`Pitfall::id`].
    pub fn from_id(id: &str) -> Option<Pitfall> {
        Pitfall::ALL.into_iter().find(|p| p.id() == id)
    }

    /// What the naive host does, in a few words for the learner's switch.
    pub fn label(self) -> &'static str {
        match self {
            Pitfall::FirstPageOnly => "Read only the first page of tools/list",
            Pitfall::RawNames => "Send MCP tool names to the model API unchanged",
            Pitfall::ErrorAsSuccess => "Feed isError results back as successes",
            Pitfall::IgnoreListChanged => "Ignore notifications/tools/list_changed",
            Pitfall::DropStructured => "Drop structuredContent when feeding results back",
            Pitfall::AcceptInventedTool => "Call any tool the model names, listed or not",
        }
    }

    /// The step (1–6) where the mistake is made.
    pub fn step(self) -> u8 {
        match self {
            Pitfall::FirstPageOnly => 1,
            Pitfall::RawNames => 2,
            Pitfall::AcceptInventedTool => 4,
            // The notification arrives while a call runs.
            Pitfall::IgnoreListChanged => 5,
            Pitfall::ErrorAsSuccess | Pitfall::DropStructured => 6,
        }
    }

    /// Its bit in [`Pitfalls`].
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// Which mistakes the host makes: a small set of [`Pitfall`]s. The default, none,
/// is the careful host.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pitfalls(u8);

impl Pitfalls {
    /// No mistake: the careful host.
    pub const NONE: Pitfalls = Pitfalls(0);

    /// Only `p`.
    pub fn only(p: Pitfall) -> Pitfalls {
        Pitfalls(p.bit())
    }

    /// Every mistake at once.
    pub fn all() -> Pitfalls {
        Pitfall::ALL.into_iter().collect()
    }

    /// Whether the host makes mistake `p`.
    pub fn has(self, p: Pitfall) -> bool {
        self.0 & p.bit() != 0
    }

    /// The same set with `p` switched `on` or off.
    #[must_use]
    pub fn with(self, p: Pitfall, on: bool) -> Pitfalls {
        if on {
            Pitfalls(self.0 | p.bit())
        } else {
            Pitfalls(self.0 & !p.bit())
        }
    }

    /// Switches `p` on or off.
    pub fn set(&mut self, p: Pitfall, on: bool) {
        *self = self.with(p, on);
    }

    /// Whether no mistake is on (the careful host).
    pub fn is_careful(self) -> bool {
        self.0 == 0
    }

    /// The mistakes switched on, in [`Pitfall::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Pitfall> {
        Pitfall::ALL.into_iter().filter(move |p| self.has(*p))
    }
}

impl FromIterator<Pitfall> for Pitfalls {
    fn from_iter<I: IntoIterator<Item = Pitfall>>(iter: I) -> Self {
        iter.into_iter()
            .fold(Pitfalls::NONE, |set, p| set.with(p, true))
    }
}

/// What the host chose at a step where a pitfall was relevant: the careful choice,
/// or the naive one with its consequence. Every step card shows whose it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostChoice {
    /// The mistake this choice is about.
    pub pitfall: Pitfall,
    /// Whether the naive host made it (the pitfall was on).
    pub naive: bool,
    /// What the host did, in one sentence, without the "Careful host:" prefix.
    pub text: String,
}

impl HostChoice {
    /// The careful host's choice about `pitfall`.
    pub fn careful(pitfall: Pitfall, text: impl Into<String>) -> HostChoice {
        HostChoice {
            pitfall,
            naive: false,
            text: text.into(),
        }
    }

    /// The naive host's choice about `pitfall`.
    pub fn naive(pitfall: Pitfall, text: impl Into<String>) -> HostChoice {
        HostChoice {
            pitfall,
            naive: true,
            text: text.into(),
        }
    }

    /// Whose choice it was: "Careful host" or "Naive host".
    pub fn who(&self) -> &'static str {
        if self.naive {
            "Naive host"
        } else {
            "Careful host"
        }
    }
}

impl std::fmt::Display for HostChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.who(), self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pitfall_switches_on_its_own() {
        for p in Pitfall::ALL {
            let one = Pitfalls::only(p);
            assert!(one.has(p));
            assert_eq!(one.iter().collect::<Vec<_>>(), [p]);
            assert!(one.with(p, false).is_careful());
            assert_eq!(Pitfall::from_id(p.id()), Some(p));
        }
        assert!(Pitfalls::default().is_careful());
        assert_eq!(Pitfalls::all().iter().count(), Pitfall::ALL.len());
    }

    #[test]
    fn a_choice_says_whose_it_was() {
        let c = HostChoice::naive(Pitfall::FirstPageOnly, "read page 1 only");
        assert_eq!(c.to_string(), "Naive host: read page 1 only");
        let c = HostChoice::careful(Pitfall::FirstPageOnly, "followed nextCursor");
        assert_eq!(c.to_string(), "Careful host: followed nextCursor");
    }
}
