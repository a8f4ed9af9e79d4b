//! Whether one run met its case, and if not, why: which step, what was expected,
//! what came.

use mcpg_host::provider::{ModelTurn, ToolCall, Turn};
use mcpg_host::{StepStatus, ToolLoop, schema};
use serde_json::Value;

use super::cases::{Case, Matcher, matcher};

/// Every reason `run` fails `case` (none: it passed). `stopped` is why the loop
/// stopped early, when it did.
pub fn judge(case: &Case, run: &ToolLoop, stopped: Option<&str>) -> Vec<String> {
    let mut why = Vec::new();
    if let Some(s) = stopped {
        let step = run
            .steps()
            .iter()
            .rev()
            .find(|s| s.status == StepStatus::Failed)
            .map_or(3, |s| s.number);
        why.push(format!("step {step}: {s}"));
    }
    if let Some(s) = run
        .steps()
        .iter()
        .find(|s| s.number == 1 && s.status == StepStatus::Failed)
    {
        why.push(format!("step 1: {}", s.explanation));
    }
    let calls = calls_made(run);
    if case.no_tools && !calls.is_empty() {
        why.push(format!(
            "step 3: expected an answer without a tool call; the model called {}",
            list(&calls)
        ));
    }
    // Each expected call must come, in order; other calls may come between.
    let mut next = 0usize;
    for e in &case.expect {
        let found = calls
            .get(next..)
            .unwrap_or_default()
            .iter()
            .position(|c| c.name == e.tool);
        let Some(at) = found else {
            let came = if calls.is_empty() {
                "the model called no tool".to_owned()
            } else {
                format!("the model called {}", list(&calls))
            };
            why.push(format!("step 3: expected a call to {}; {came}", e.tool));
            continue;
        };
        let call = &calls[next + at];
        next += at + 1;
        for (arg, m) in &e.args {
            let Ok(m) = matcher(m) else { continue };
            let got = call.arguments.get(arg);
            if let Some(problem) = mismatch(&m, got) {
                why.push(format!("step 3: {}'s argument {arg}: {problem}", e.tool));
            }
        }
    }
    let limit = case.max_rounds.unwrap_or(mcpg_host::tool_loop::MAX_ROUNDS);
    if run.rounds() > limit {
        why.push(format!(
            "rounds: {} rounds of tool calls, the case allows {limit}",
            run.rounds()
        ));
    }
    let answer = run.answer().unwrap_or_default();
    let lower = answer.to_lowercase();
    for want in &case.answer.contains {
        if !lower.contains(&want.to_lowercase()) {
            why.push(format!(
                "step 6: the answer should contain {want:?}; it was {}",
                quote(answer)
            ));
        }
    }
    for unwanted in &case.answer.not_contains {
        if lower.contains(&unwanted.to_lowercase()) {
            why.push(format!(
                "step 6: the answer should not contain {unwanted:?}; it was {}",
                quote(answer)
            ));
        }
    }
    why
}

/// Every call the model made, all rounds.
fn calls_made(run: &ToolLoop) -> Vec<ToolCall> {
    run.turns()
        .iter()
        .filter_map(|t| match t {
            Turn::Model(ModelTurn::ToolCalls { calls, .. }) => Some(calls.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn list(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|c| format!("{} {}", c.name, Value::Object(c.arguments.clone())))
        .collect::<Vec<_>>()
        .join(", ")
}

fn quote(answer: &str) -> String {
    let short: String = answer.chars().take(160).collect();
    if short.len() < answer.len() {
        format!("{short:?}…")
    } else {
        format!("{short:?}")
    }
}

/// What is wrong with `got` for `m`, or `None` when it matches.
fn mismatch(m: &Matcher, got: Option<&Value>) -> Option<String> {
    let Some(got) = got else {
        return Some("expected it, the model left it out".to_owned());
    };
    match m {
        Matcher::Exact(want) if want == got => None,
        Matcher::Exact(want) => Some(format!("expected {want}, got {got}")),
        Matcher::Regex(re) => match got.as_str() {
            Some(s) if re.is_match(s) => None,
            _ => Some(format!("expected a string matching /{re}/, got {got}")),
        },
        Matcher::Schema(s) => {
            let errors = schema::validate(s, got);
            (!errors.is_empty()).then(|| {
                let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
                format!("{got} does not fit the schema: {}", list.join("; "))
            })
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matchers_say_what_was_expected_and_what_came() {
        let exact = Matcher::Exact(json!("Austin"));
        assert_eq!(mismatch(&exact, Some(&json!("Austin"))), None);
        assert_eq!(
            mismatch(&exact, Some(&json!("Paris"))).unwrap(),
            "expected \"Austin\", got \"Paris\""
        );
        let re = Matcher::Regex(regex::Regex::new("^Aus").unwrap());
        assert_eq!(mismatch(&re, Some(&json!("Austin"))), None);
        assert!(mismatch(&re, Some(&json!(3))).unwrap().contains("/^Aus/"));
        let s = Matcher::Schema(json!({"type": "integer", "maximum": 5}));
        assert_eq!(mismatch(&s, Some(&json!(3))), None);
        assert!(
            mismatch(&s, Some(&json!(9)))
                .unwrap()
                .contains("does not fit")
        );
        assert!(mismatch(&s, None).unwrap().contains("left it out"));
    }
}
