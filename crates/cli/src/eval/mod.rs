//! `mcpg eval cases.toml`: whether models still pick a server's tools and fill them
//! right. Each case × model × repeat is one `mcpg loop` run (`loop_cmd::run_once`),
//! judged against the case; the table, the reasons of each failure, a session file
//! per failed run (it opens in the page as a replay) and JUnit XML for CI follow.

mod cases;
mod check;
mod report;

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::args::EvalArgs;
use crate::exit::{Failure, TOOL_ERROR};
use crate::loop_cmd::drive::Retry;
use crate::loop_cmd::model::{Model, ModelSpec};
use crate::loop_cmd::{Hooks, Start, run_once};
use cases::{Case, Suite, json_of};
use report::RunRecord;

/// `mcpg eval`: exit 0 when every case meets its threshold with every model.
pub async fn run(args: &EvalArgs) -> Result<(), Failure> {
    let text = std::fs::read_to_string(&args.cases)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", args.cases.display())))?;
    let suite = Suite::parse(&text)
        .map_err(|e| Failure::usage(format!("{}: {e}", args.cases.display())))?;
    let mut models = Vec::new();
    for m in &args.models {
        let spec = ModelSpec::parse(m).map_err(|e| Failure::usage(e.to_string()))?;
        models.push(Model::new(spec).map_err(|e| Failure::usage(e.to_string()))?);
    }
    let retry = Retry {
        attempts: args.attempts.max(1),
        backoff: Duration::from_millis(args.backoff_ms),
    };
    // One semaphore per provider: a provider's rate limit is per account, not per model.
    let mut limits: HashMap<String, Arc<Semaphore>> = HashMap::new();
    for m in &models {
        limits
            .entry(limit_key(m.spec()))
            .or_insert_with(|| Arc::new(Semaphore::new(args.concurrency.max(1))));
    }
    let mut jobs = Vec::new();
    for ci in 0..suite.cases.len() {
        for mi in 0..models.len() {
            for k in 1..=args.repeat.max(1) {
                jobs.push((ci, mi, k));
            }
        }
    }
    let total = jobs.len();
    let done = AtomicUsize::new(0);
    let tty = std::io::stderr().is_terminal();
    let runs = jobs.into_iter().map(|(ci, mi, k)| {
        let (case, model) = (&suite.cases[ci], &models[mi]);
        let limit = limits.get(&limit_key(model.spec())).cloned();
        let done = &done;
        async move {
            let _permit = match &limit {
                Some(s) => s.acquire().await.ok(),
                None => None,
            };
            let (mut r, session) = one(args, case, model, retry).await;
            (r.case, r.model, r.repeat) = (ci, mi, k);
            if !r.reasons.is_empty() {
                r.saved = session.and_then(|s| save(&args.failures, case, model, k, &s));
            }
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if tty {
                eprint!(
                    "\r\x1b[Keval: {n}/{total} runs ({} × {})",
                    crate::escape::line(&case.name),
                    crate::escape::line(&model.spec().label())
                );
            }
            r
        }
    });
    let records = futures_util::future::join_all(runs).await;
    if tty {
        eprintln!();
    }
    let names: Vec<(String, f64)> = suite
        .cases
        .iter()
        .map(|c| (c.name.clone(), c.threshold.unwrap_or(1.0)))
        .collect();
    let labels: Vec<String> = models.iter().map(|m| m.spec().label()).collect();
    let rows = report::rows(&records, &names, &labels);
    print!("{}", report::table(&rows));
    let retried: u32 = records.iter().map(|r| r.retried).sum();
    if retried > 0 {
        println!("{retried} model request(s) answered 429 were asked again after a backoff");
    }
    for r in records.iter().filter(|r| !r.reasons.is_empty()) {
        println!(
            "\nFAIL {} × {} (run {}):",
            crate::escape::line(&names[r.case].0),
            crate::escape::line(&labels[r.model]),
            r.repeat
        );
        for why in &r.reasons {
            println!("  - {}", crate::escape::line(why));
        }
        if let Some(p) = &r.saved {
            println!("  session: {} (opens in the page as a replay)", p.display());
        }
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, report::junit(&records, &names, &labels))
            .map_err(|e| Failure::usage(format!("could not write {}: {e}", path.display())))?;
    }
    let failing = rows.iter().filter(|r| !r.meets()).count();
    if failing == 0 {
        return Ok(());
    }
    Err(Failure::new(
        TOOL_ERROR,
        format!(
            "{failing} of {} case × model pairs did not meet their threshold",
            rows.len()
        ),
    ))
}

/// Which semaphore a model's runs share.
fn limit_key(spec: &ModelSpec) -> String {
    match spec {
        ModelSpec::Mock(_) => "mock".to_owned(),
        ModelSpec::Real { provider, base, .. } => {
            format!("{}{}", provider.id(), base.as_deref().unwrap_or(""))
        }
    }
}

/// One run, judged, with its session (none when the server could not be reached).
async fn one(
    args: &EvalArgs,
    case: &Case,
    model: &Model,
    retry: Retry,
) -> (RunRecord, Option<mcpg_recording::Recording>) {
    let start = match (&case.message, &case.prompt) {
        (_, Some(p)) => Start::Prompt {
            name: p.name.clone(),
            arguments: p
                .arguments
                .iter()
                .map(|(k, v)| (k.clone(), json_of(v)))
                .collect(),
        },
        (m, None) => Start::Message(m.clone().unwrap_or_default()),
    };
    let hooks = Hooks {
        each: Box::new(|_| {}),
        pause: false,
    };
    let began = std::time::Instant::now();
    let mut rec = RunRecord {
        case: 0,
        model: 0,
        repeat: 0,
        reasons: Vec::new(),
        tokens: None,
        retried: 0,
        elapsed: Duration::ZERO,
        saved: None,
    };
    match run_once(
        &args.conn,
        model,
        &start,
        retry,
        args.name.as_deref(),
        hooks,
    )
    .await
    {
        Ok(out) => {
            let stopped = out.stopped.as_ref().map(ToString::to_string);
            rec.reasons = check::judge(case, &out.run, stopped.as_deref());
            rec.tokens = out.tally.tokens;
            rec.retried = out.tally.retried;
            rec.elapsed = out.elapsed;
            (rec, Some(out.session))
        }
        Err(f) => {
            rec.reasons = vec![format!("the server: {}", f.message)];
            rec.elapsed = began.elapsed();
            (rec, None)
        }
    }
}

/// Writes a failed run's session under `dir`; the path written.
fn save(
    dir: &Path,
    case: &Case,
    model: &Model,
    repeat: u32,
    session: &mcpg_recording::Recording,
) -> Option<PathBuf> {
    std::fs::create_dir_all(dir).ok()?;
    let name = format!(
        "{}--{}--{repeat}.json",
        slug(&case.name),
        slug(&model.spec().label())
    );
    let path = dir.join(name);
    std::fs::write(&path, mcpg_recording::encode_file(session)).ok()?;
    Some(path)
}

/// A file-name-safe form of `s`.
fn slug(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    out.trim_matches('-').chars().take(60).collect()
}
