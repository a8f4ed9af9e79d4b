//! `mcpg doctor URL | --stdio CMD`: the I/O of the connection doctor. The checks,
//! their order and every verdict come from `mcpg-doctor`; this folder only
//! observes (resolves, connects, POSTs, spawns, runs the handshakes) and hands
//! each observation to the judging there.
//!
//! - `stdio.rs`: the program and its start-up.
//! - `http.rs`: name, TCP, TLS, the POSTs, CORS; `tls.rs` classifies a TLS
//!   error; `signin.rs` runs `mcpg-auth`'s discovery after a 401.
//! - `session.rs`: both handshakes, the revisions, tools, capabilities (either transport).
//! - `print.rs`: the report for people, or as JSON.

mod http;
mod print;
mod session;
mod signin;
mod stdio;
mod tls;

use std::time::Duration;

use mcpg_doctor::{Report, Verdict};

use crate::args::DoctorArgs;
use crate::exit::{Failure, PROBLEM};

/// Runs the checks and prints the report. Exit status: 0 when nothing failed
/// (warnings and skips allowed), 1 when a check failed, 2 for a usage error.
pub async fn run(args: &DoctorArgs) -> Result<(), Failure> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(Failure::usage(format!(
            "--timeout must be a positive number of seconds, not {}",
            args.timeout
        )));
    }
    let timeout = Duration::from_secs_f64(args.timeout.min(1e6));
    let headers = crate::headers::resolve(&args.headers, args.bearer_env.as_deref(), |k| {
        std::env::var(k).ok()
    })
    .map_err(|e| Failure::usage(e.to_string()))?;
    let secrets = crate::headers::secrets(&headers);
    let (target, report) = match (&args.url, &args.stdio) {
        (Some(url), None) => {
            let report = http::check(url, &args.origin, headers, timeout).await?;
            (url.clone(), report)
        }
        (None, Some(line)) => {
            if !headers.is_empty() {
                return Err(Failure::usage(
                    "--header and --bearer-env apply to a URL only (a stdio server gets no HTTP headers)",
                ));
            }
            let (program, report) = stdio::check(line, timeout).await?;
            // The program's name only: its arguments may carry what is not ours to print.
            (format!("stdio: {program}"), report)
        }
        _ => return Err(Failure::usage("give a URL or --stdio CMD, not both")),
    };
    let clean = |s: &str| crate::escape::line(&crate::headers::scrub(s, &secrets));
    if args.json {
        println!("{}", crate::render::pretty(&report.to_json(&target, clean)));
    } else {
        print!("{}", print::text(&target, &report, clean));
    }
    finish(&report)
}

/// The exit status the report earns.
fn finish(report: &Report) -> Result<(), Failure> {
    match report.worst() {
        Verdict::Fail => {
            let failed = report
                .findings()
                .iter()
                .filter(|f| f.verdict == Verdict::Fail)
                .map(|f| f.check.id())
                .collect::<Vec<_>>()
                .join(", ");
            Err(Failure::new(PROBLEM, format!("doctor: failed: {failed}")))
        }
        _ => Ok(()),
    }
}
