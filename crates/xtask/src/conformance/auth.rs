//! The authorization scenarios of the conformance stage (issue 15): every auth
//! scenario either suite lists runs; the ones in the suite's requirement sets
//! (`conformance list --client --requirements 2025-11-25` and `2026-07-28`) are
//! required, and the 2026-07-28 set also runs the older ones at its own wire.
//! Extensions (`client-credentials-*`, `dpop*`, …) and the 2025-03-26 back-compat
//! scenarios are reported, not required.

/// The 2025-11-25 requirement set's auth scenarios.
pub(super) const REQUIRED_2025_11_25: [&str; 14] = [
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
];

/// What the 2026-07-28 requirement set adds (25 with the ones above).
pub(super) const REQUIRED_2026_07_28_NEW: [&str; 11] = [
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
];

/// The wire (`--spec-version`) of the 2026-07-28 requirement set.
pub(super) const WIRE_2026_07_28: &str = "2026-07-28";

/// One scenario run of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Planned {
    pub scenario: String,
    pub required: bool,
    /// `--spec-version`, when not the scenario's own default.
    pub wire: Option<&'static str>,
}

/// The auth runs for a suite: every listed auth scenario at its default wire;
/// with `next` (the suite that knows 2026-07-28), the 2025-11-25 set once more at
/// the 2026-07-28 wire.
pub(super) fn plan(listed: &[String], next: bool) -> Vec<Planned> {
    let required = |s: &str| {
        REQUIRED_2025_11_25.contains(&s) || (next && REQUIRED_2026_07_28_NEW.contains(&s))
    };
    let mut out: Vec<Planned> = listed
        .iter()
        .filter(|s| s.starts_with("auth/"))
        .map(|s| Planned {
            scenario: s.clone(),
            required: required(s),
            wire: None,
        })
        .collect();
    // A required scenario the suite does not list still gets a (failing) row.
    let wanted = REQUIRED_2025_11_25.iter().chain(if next {
        &REQUIRED_2026_07_28_NEW[..]
    } else {
        &[]
    });
    for s in wanted {
        if !listed.iter().any(|l| l == s) {
            out.push(Planned {
                scenario: (*s).to_owned(),
                required: true,
                wire: None,
            });
        }
    }
    if next {
        out.extend(REQUIRED_2025_11_25.iter().map(|s| Planned {
            scenario: (*s).to_owned(),
            required: true,
            wire: Some(WIRE_2026_07_28),
        }));
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "a test fails by panicking")]
mod tests {
    use super::*;

    #[test]
    fn plans_required_and_reported_runs() {
        let listed: Vec<String> = [
            "initialize",
            "auth/metadata-default",
            "auth/dpop",
            "auth/iss-supported",
        ]
        .map(String::from)
        .to_vec();
        let old = plan(&listed, false);
        assert_eq!(
            old.len(),
            3 + 13,
            "three listed auth runs plus 13 unlisted required"
        );
        assert!(
            old.iter()
                .any(|p| p.scenario == "auth/metadata-default" && p.required)
        );
        assert!(old.iter().any(|p| p.scenario == "auth/dpop" && !p.required));
        assert!(
            old.iter()
                .any(|p| p.scenario == "auth/iss-supported" && !p.required)
        );
        let next = plan(&listed, true);
        assert!(
            next.iter()
                .any(|p| p.scenario == "auth/iss-supported" && p.required)
        );
        let at_2026 = next
            .iter()
            .filter(|p| p.wire == Some(WIRE_2026_07_28))
            .count();
        assert_eq!(at_2026, 14);
        assert_eq!(next.iter().filter(|p| p.required).count(), 25 + 14);
    }
}
