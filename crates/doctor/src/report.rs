//! The ordered findings of one run, the worst verdict, and the stable JSON shape
//! `mcpg doctor --json` prints for CI.

use serde_json::{Value, json};

use crate::check::{Check, Finding, Verdict};

/// The findings of one doctor run, in the order the checks ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    findings: Vec<Finding>,
}

impl Report {
    /// An empty report.
    pub fn new() -> Self {
        Report::default()
    }

    /// Adds one finding.
    pub fn push(&mut self, f: Finding) {
        self.findings.push(f);
    }

    /// Puts `f` in place of its check's finding (at its place), or adds it.
    pub fn replace(&mut self, f: Finding) {
        match self.findings.iter_mut().find(|old| old.check == f.check) {
            Some(old) => *old = f,
            None => self.push(f),
        }
    }

    /// Adds a skip, saying `why`, for each of `checks` not reported yet (the checks
    /// that depend on one that failed).
    pub fn skip_rest(&mut self, checks: &[Check], why: &str) {
        for &c in checks {
            if self.get(c).is_none() {
                self.push(Finding::skip(c, why));
            }
        }
    }

    /// The finding of `check`, when it was reported.
    pub fn get(&self, check: Check) -> Option<&Finding> {
        self.findings.iter().find(|f| f.check == check)
    }

    /// The findings, in order.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The worst verdict (`Skip` for an empty report).
    pub fn worst(&self) -> Verdict {
        self.findings
            .iter()
            .map(|f| f.verdict)
            .fold(Verdict::Skip, Verdict::worst)
    }

    /// The report as JSON: `{"target", "worst", "checks": [{"id", "title",
    /// "verdict", "evidence", "fix"}]}`, `fix` null when there is none. `clean`
    /// is applied to every text that may quote the server (the CLI escapes control
    /// characters with it).
    pub fn to_json(&self, target: &str, clean: impl Fn(&str) -> String) -> Value {
        let checks: Vec<Value> = self
            .findings
            .iter()
            .map(|f| {
                json!({
                    "id": f.check.id(),
                    "title": f.check.title(),
                    "verdict": f.verdict.id(),
                    "evidence": clean(&f.evidence),
                    "fix": f.fix.as_deref().map(&clean),
                })
            })
            .collect();
        json!({
            "target": clean(target),
            "worst": self.worst().id(),
            "checks": checks,
        })
    }
}
