//! The eval's results: the table (pass rate per case and model, tokens, time), the
//! failures with their reasons, and JUnit XML for CI.

use std::path::PathBuf;
use std::time::Duration;

/// One run of one case with one model.
#[derive(Debug, Clone)]
pub struct RunRecord {
    /// Index into the suite's cases.
    pub case: usize,
    /// Index into the models.
    pub model: usize,
    /// Which repeat, from 1.
    pub repeat: u32,
    /// Why it failed (empty: it passed).
    pub reasons: Vec<String>,
    /// Input and output tokens, when the provider reported them.
    pub tokens: Option<(u64, u64)>,
    /// 429s asked again.
    pub retried: u32,
    /// Its time.
    pub elapsed: Duration,
    /// The session file of a failed run.
    pub saved: Option<PathBuf>,
}

/// One row of the table: a case with a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The case's name.
    pub case: String,
    /// The model's label.
    pub model: String,
    /// Runs that passed.
    pub passed: usize,
    /// Runs in all.
    pub runs: usize,
    /// Tokens summed over the runs that reported them.
    pub tokens: Option<(u64, u64)>,
    /// Mean time per run.
    pub mean: Duration,
    /// The pass rate the case needs.
    pub threshold: f64,
}

impl Row {
    /// Whether the pass rate meets the threshold.
    pub fn meets(&self) -> bool {
        self.runs > 0 && rate(self.passed, self.runs) + 1e-9 >= self.threshold
    }
}

fn rate(passed: usize, runs: usize) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let r = passed as f64 / runs.max(1) as f64;
    r
}

/// The rows, case by case and model by model.
pub fn rows(records: &[RunRecord], cases: &[(String, f64)], models: &[String]) -> Vec<Row> {
    let mut out = Vec::new();
    for (ci, (case, threshold)) in cases.iter().enumerate() {
        for (mi, model) in models.iter().enumerate() {
            let mine: Vec<&RunRecord> = records
                .iter()
                .filter(|r| r.case == ci && r.model == mi)
                .collect();
            let tokens = mine
                .iter()
                .filter_map(|r| r.tokens)
                .fold(None, |acc, (i, o)| {
                    let (ai, ao) = acc.unwrap_or((0, 0));
                    Some((ai + i, ao + o))
                });
            let total: Duration = mine.iter().map(|r| r.elapsed).sum();
            out.push(Row {
                case: case.clone(),
                model: model.clone(),
                passed: mine.iter().filter(|r| r.reasons.is_empty()).count(),
                runs: mine.len(),
                tokens,
                mean: total / u32::try_from(mine.len().max(1)).unwrap_or(1),
                threshold: *threshold,
            });
        }
    }
    out
}

/// The table as text.
pub fn table(rows: &[Row]) -> String {
    // Case names come from a cases file (maybe someone else's): escaped.
    let rows: Vec<Row> = rows
        .iter()
        .map(|r| Row {
            case: crate::escape::line(&r.case),
            model: crate::escape::line(&r.model),
            ..r.clone()
        })
        .collect();
    let rows = &rows[..];
    let cw = rows
        .iter()
        .map(|r| r.case.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mw = rows
        .iter()
        .map(|r| r.model.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "{:<cw$}  {:<mw$}  {:>6}  {:>5}  {:>15}  {:>8}  {}\n",
        "case", "model", "passed", "rate", "tokens in/out", "time", "result"
    );
    for r in rows {
        let tokens = r
            .tokens
            .map_or_else(|| "-".to_owned(), |(i, o)| format!("{i}/{o}"));
        out.push_str(&format!(
            "{:<cw$}  {:<mw$}  {:>6}  {:>4.0}%  {:>15}  {:>7.2}s  {}\n",
            r.case,
            r.model,
            format!("{}/{}", r.passed, r.runs),
            rate(r.passed, r.runs) * 100.0,
            tokens,
            r.mean.as_secs_f64(),
            if r.meets() { "ok" } else { "FAIL" }
        ));
    }
    out
}

/// JUnit XML: one suite per model, one test case per case and repeat.
pub fn junit(records: &[RunRecord], cases: &[(String, f64)], models: &[String]) -> String {
    let failures = records.iter().filter(|r| !r.reasons.is_empty()).count();
    let total: f64 = records.iter().map(|r| r.elapsed.as_secs_f64()).sum();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mcpg eval\" tests=\"{}\" failures=\"{failures}\" time=\"{total:.3}\">\n",
        records.len()
    );
    for (mi, model) in models.iter().enumerate() {
        let mine: Vec<&RunRecord> = records.iter().filter(|r| r.model == mi).collect();
        let fails = mine.iter().filter(|r| !r.reasons.is_empty()).count();
        let time: f64 = mine.iter().map(|r| r.elapsed.as_secs_f64()).sum();
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{fails}\" errors=\"0\" time=\"{time:.3}\">\n",
            xml(model),
            mine.len()
        ));
        for r in mine {
            let case = cases.get(r.case).map_or("", |c| c.0.as_str());
            let name = format!("{case} #{}", r.repeat);
            out.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                xml(model),
                xml(&name),
                r.elapsed.as_secs_f64()
            ));
            if r.reasons.is_empty() {
                out.push_str("/>\n");
                continue;
            }
            let first = r.reasons.first().map_or("", String::as_str);
            let mut body = r.reasons.join("\n");
            if let Some(p) = &r.saved {
                body.push_str(&format!("\nsession: {}", p.display()));
            }
            out.push_str(&format!(
                ">\n      <failure message=\"{}\" type=\"mismatch\">{}</failure>\n    </testcase>\n",
                xml(first),
                xml(&body)
            ));
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Text escaped for XML (attribute or content); characters XML 1.0 cannot carry
/// become `\u{…}`.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\t' | '\r' => out.push(c),
            c if u32::from(c) < 0x20 || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(case: usize, ok: bool) -> RunRecord {
        RunRecord {
            case,
            model: 0,
            repeat: 1,
            reasons: if ok {
                vec![]
            } else {
                vec!["step 3: <no> & \"x\"".into()]
            },
            tokens: Some((10, 5)),
            retried: 0,
            elapsed: Duration::from_millis(100),
            saved: None,
        }
    }

    #[test]
    fn rows_meet_thresholds_and_junit_escapes() {
        let cases = vec![("a".to_owned(), 1.0), ("b".to_owned(), 0.5)];
        let models = vec!["mock".to_owned()];
        let records = vec![rec(0, true), rec(1, false), rec(1, true)];
        let rows = rows(&records, &cases, &models);
        assert!(rows[0].meets());
        assert!(rows[1].meets(), "1 of 2 meets 0.5");
        assert_eq!(rows[1].tokens, Some((20, 10)));
        let x = junit(&records, &cases, &models);
        assert!(x.contains("failures=\"1\""));
        assert!(x.contains("step 3: &lt;no&gt; &amp; &quot;x&quot;"));
        assert!(table(&rows).contains("1/2"));
    }

    #[test]
    fn the_table_escapes_what_it_did_not_write() {
        let cases = vec![("weather\u{1b}]52;c;cm0gLXJm\u{7}".to_owned(), 1.0)];
        let models = vec!["mock\u{1b}[2J".to_owned()];
        let t = table(&rows(&[rec(0, true)], &cases, &models));
        assert!(!t.chars().any(|c| c.is_control() && c != '\n'), "{t:?}");
        assert!(
            t.contains("\\u{1b}]52;c;") && t.contains("\\u{1b}[2J"),
            "{t}"
        );
    }
}
