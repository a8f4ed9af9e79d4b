//! The report for people: one line per check (symbol, title, evidence), the fix
//! indented below, and a count.

use mcpg_doctor::{Report, Verdict};

/// The report as text; `clean` escapes (and masks) every text that may quote
/// the server.
pub fn text(target: &str, report: &Report, clean: impl Fn(&str) -> String) -> String {
    let mut out = format!("doctor: {}\n", clean(target));
    for f in report.findings() {
        let symbol = match f.verdict {
            Verdict::Pass => "✔",
            Verdict::Warn => "⚠",
            Verdict::Fail => "✘",
            Verdict::Skip => "-",
        };
        out.push_str(&format!(
            "{symbol} {:<5} {}: {}\n",
            f.verdict.id(),
            f.check.title(),
            clean(&f.evidence)
        ));
        if let Some(fix) = &f.fix {
            out.push_str(&format!("      fix: {}\n", clean(fix)));
        }
    }
    let count = |v: Verdict| report.findings().iter().filter(|f| f.verdict == v).count();
    out.push_str(&format!(
        "{} passed, {} warned, {} failed, {} skipped\n",
        count(Verdict::Pass),
        count(Verdict::Warn),
        count(Verdict::Fail),
        count(Verdict::Skip)
    ));
    out
}
