//! `cargo xtask fuzz [--seconds N] [TARGET…]`: builds the targets of `crates/fuzz`
//! with cargo-afl (AFL++ instrumentation on stable Rust: rustc's SanitizerCoverage
//! passes plus AFL++'s runtime, no nightly) and runs each for a bounded time from
//! its committed seed corpus. A crash fails the run; the report names the crashing
//! input, shows its first bytes (CI's checkout does not outlive the run) and gives
//! the command that reproduces it with a plain build.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::install;
use crate::util::{self, Result, command, format_duration};

/// The targets, as named by `crates/fuzz/src/bin/*.rs` and `crates/fuzz/corpus/*`.
pub const TARGETS: [&str; 7] = [
    "frame",
    "sse",
    "session",
    "uri_template",
    "www_authenticate",
    "auth_flow",
    "safe_url",
];

/// Seconds per target for `cargo xtask fuzz` without `--seconds`.
pub const DEFAULT_SECONDS: u64 = 60;

/// Seconds per target in `cargo xtask test`: 7 targets × 10 s plus the
/// instrumented build keep the stage near 2 minutes on CI's 2 cores; enough to
/// catch a regression in the parsers' shallow paths, not to search deep.
pub const TEST_SECONDS: u64 = 10;

/// How many bytes of a crashing input the report shows.
const PREVIEW_BYTES: usize = 256;

/// What `cargo xtask fuzz` was asked for.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    /// Seconds per target.
    pub seconds: u64,
    /// The targets, in order (all of them when none was named).
    pub targets: Vec<&'static str>,
}

/// Reads `[--seconds N] [TARGET…]`.
pub fn parse_args(args: &[String]) -> Result<Request> {
    let mut seconds = DEFAULT_SECONDS;
    let mut targets = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--seconds" {
            let value = rest.next().ok_or("--seconds needs a number")?;
            seconds = value
                .parse()
                .ok()
                .filter(|&s| s > 0)
                .ok_or_else(|| format!("--seconds {value}: not a positive number"))?;
        } else if let Some(&name) = TARGETS.iter().find(|t| **t == arg.as_str()) {
            targets.push(name);
        } else {
            return Err(format!(
                "unknown fuzz target or option `{arg}` (targets: {})",
                TARGETS.join(", ")
            ));
        }
    }
    if targets.is_empty() {
        targets = TARGETS.to_vec();
    }
    Ok(Request { seconds, targets })
}

/// `cargo xtask fuzz ARGS`.
pub fn command_line(root: &Path, args: &[String]) -> Result<()> {
    let request = parse_args(args)?;
    fuzz(root, &request)
}

/// Installs cargo-afl if needed, builds the targets and runs each one.
pub fn fuzz(root: &Path, request: &Request) -> Result<()> {
    install::item(&format!("cargo-afl {}", install::CARGO_AFL), |name| {
        install::cargo_afl(root, name)
    })?;
    let afl_target = util::target_dir(root).join("afl");
    build(root, &afl_target)?;
    let out_root = util::target_dir(root).join("fuzz");
    let mut runs = Vec::new();
    for target in &request.targets {
        runs.push(run_target(
            root,
            &afl_target,
            &out_root,
            target,
            request.seconds,
        )?);
    }
    println!();
    println!(
        "{:<17} {:>10} {:>9} {:>9} {:>13} {:>7} {:>7} {:>6}",
        "target", "execs", "execs/s", "coverage", "edges", "corpus", "crashes", "hangs"
    );
    for r in &runs {
        println!(
            "{:<17} {:>10} {:>9} {:>9} {:>13} {:>7} {:>7} {:>6}",
            r.target,
            r.stat("execs_done"),
            r.stat("execs_per_sec"),
            r.stat("bitmap_cvg"),
            format!("{}/{}", r.stat("edges_found"), r.stat("total_edges")),
            r.stat("corpus_count"),
            r.crashes.len(),
            r.hangs.len(),
        );
    }
    for r in runs.iter().filter(|r| !r.hangs.is_empty()) {
        // A hang may be the machine's load as much as the input: reported, not failed.
        println!(
            "note: {} saved {} input(s) that ran over 1 s, in {}",
            r.target,
            r.hangs.len(),
            r.out_dir.join("default").join("hangs").display()
        );
    }
    let crashed: Vec<&Run> = runs.iter().filter(|r| !r.crashes.is_empty()).collect();
    if crashed.is_empty() {
        println!("no crash found");
        return Ok(());
    }
    for r in &crashed {
        for path in &r.crashes {
            report_crash(r.target, path);
        }
    }
    Err(format!(
        "the fuzzers found {} crashing input(s) in: {}",
        crashed.iter().map(|r| r.crashes.len()).sum::<usize>(),
        crashed
            .iter()
            .map(|r| r.target)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// `cargo afl build` into its own target directory: the instrumentation flags in
/// RUSTFLAGS would otherwise throw away the workspace's normal build every time.
fn build(root: &Path, afl_target: &Path) -> Result<()> {
    let start = Instant::now();
    println!("building the fuzz targets with AFL++ instrumentation...");
    util::run(
        command(util::cargo(), root)
            .args([
                "afl",
                "build",
                "-p",
                "mcpg-fuzz",
                "--features",
                "afl",
                "--bins",
            ])
            .env("CARGO_TARGET_DIR", afl_target)
            // No debug info: a crash is read with the plain build (the reproducer
            // command); without it the instrumented build is faster and 40x smaller.
            .env("CARGO_PROFILE_DEV_DEBUG", "0"),
    )?;
    println!("built in {}", format_duration(start.elapsed()));
    Ok(())
}

/// One target's bounded session.
struct Run {
    target: &'static str,
    out_dir: PathBuf,
    stats: BTreeMap<String, String>,
    crashes: Vec<PathBuf>,
    hangs: Vec<PathBuf>,
}

impl Run {
    fn stat(&self, key: &str) -> &str {
        self.stats.get(key).map_or("?", String::as_str)
    }
}

fn run_target(
    root: &Path,
    afl_target: &Path,
    out_root: &Path,
    target: &'static str,
    seconds: u64,
) -> Result<Run> {
    let corpus = root.join("crates").join("fuzz").join("corpus").join(target);
    let binary = afl_target.join("debug").join(target);
    let out_dir = out_root.join(target);
    // Each session starts from the committed seeds, not from a previous run's queue.
    if out_dir.exists() {
        fs::remove_dir_all(&out_dir)
            .map_err(|e| format!("cannot clear {}: {e}", out_dir.display()))?;
    }
    fs::create_dir_all(out_root)
        .map_err(|e| format!("cannot create {}: {e}", out_root.display()))?;
    let log_path = out_root.join(format!("{target}.log"));
    let log = fs::File::create(&log_path)
        .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
    let log_err = log
        .try_clone()
        .map_err(|e| format!("cannot reuse {}: {e}", log_path.display()))?;
    println!(
        "fuzzing {target} for {seconds} s (log: {})",
        log_path.display()
    );
    let mut cmd = command(util::cargo(), root);
    cmd.args(["afl", "fuzz", "-i"])
        .arg(&corpus)
        .arg("-o")
        .arg(&out_dir)
        .args(["-V", &seconds.to_string()])
        // A generous per-input limit: the 2 cores are shared, and a slow input
        // on a busy machine is not a finding.
        .args(["-t", "1000"])
        .arg("--")
        .arg(&binary)
        .stdout(log)
        .stderr(log_err);
    for (key, value) in afl_env() {
        cmd.env(key, value);
    }
    let status = util::status(&mut cmd)?;
    let stats_path = out_dir.join("default").join("fuzzer_stats");
    let stats = fs::read_to_string(&stats_path)
        .map(|text| parse_stats(&text))
        .unwrap_or_default();
    if !status.success() || stats.is_empty() {
        return Err(format!(
            "afl-fuzz on {target} failed ({status}); the end of its log:\n{}",
            tail(&log_path, 25)
        ));
    }
    let default = out_dir.join("default");
    Ok(Run {
        target,
        crashes: saved_inputs(&default.join("crashes")),
        hangs: saved_inputs(&default.join("hangs")),
        out_dir,
        stats,
    })
}

/// The environment afl-fuzz runs with here and in CI (root, no terminal, no
/// tuning of the machine).
fn afl_env() -> [(&'static str, &'static str); 5] {
    [
        // No CPU frequency governor to read on CI's machine.
        ("AFL_SKIP_CPUFREQ", "1"),
        // core_pattern pipes core dumps to a handler we may not change.
        ("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1"),
        // Lines of status in the log instead of a full-screen display.
        ("AFL_NO_UI", "1"),
        // Other jobs share the 2 cores: do not insist on a core of one's own.
        ("AFL_NO_AFFINITY", "1"),
        // The first crash fails the run anyway: stop there and save the time.
        ("AFL_BENCH_UNTIL_CRASH", "1"),
    ]
}

/// `key : value` lines of afl-fuzz's `fuzzer_stats`.
fn parse_stats(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let (key, value) = line.split_once(':')?;
            Some((key.trim().to_owned(), value.trim().to_owned()))
        })
        .collect()
}

/// The inputs afl-fuzz saved in `dir` (it also writes a README.txt there).
fn saved_inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("id:"))
        })
        .collect();
    found.sort();
    found
}

fn report_crash(target: &str, path: &Path) {
    let bytes = fs::read(path).unwrap_or_default();
    let shown = &bytes[..bytes.len().min(PREVIEW_BYTES)];
    println!();
    println!("CRASH in {target}: {}", path.display());
    println!(
        "  input ({} bytes{}): b\"{}\"",
        bytes.len(),
        if bytes.len() > PREVIEW_BYTES {
            ", first shown"
        } else {
            ""
        },
        shown.escape_ascii()
    );
    println!(
        "  reproduce: cargo run -p mcpg-fuzz --bin {target} -- '{}'",
        path.display()
    );
    println!("  then add the input as a #[test] in the crate that owns the parser, and fix it");
}

/// The last `lines` lines of a log, for an error message.
fn tail(path: &Path, lines: usize) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn reads_seconds_and_targets() {
        assert_eq!(
            parse_args(&[]).unwrap(),
            Request {
                seconds: DEFAULT_SECONDS,
                targets: TARGETS.to_vec()
            }
        );
        assert_eq!(
            parse_args(&args(&["--seconds", "5", "sse", "frame"])).unwrap(),
            Request {
                seconds: 5,
                targets: vec!["sse", "frame"]
            }
        );
        assert!(parse_args(&args(&["--seconds"])).is_err());
        assert!(parse_args(&args(&["--seconds", "0"])).is_err());
        assert!(parse_args(&args(&["nope"])).is_err());
    }

    #[test]
    fn every_target_has_a_binary_and_seeds() {
        let fuzz = util::repo_root().join("crates").join("fuzz");
        for target in TARGETS {
            assert!(
                fuzz.join("src")
                    .join("bin")
                    .join(format!("{target}.rs"))
                    .is_file(),
                "{target}"
            );
            let seeds = fs::read_dir(fuzz.join("corpus").join(target)).unwrap();
            assert!(seeds.count() > 0, "{target} has no seeds");
        }
        // And no binary is left out of the list (it would never be run).
        let bins = fs::read_dir(fuzz.join("src").join("bin")).unwrap().count();
        assert_eq!(bins, TARGETS.len(), "src/bin and TARGETS differ");
    }

    #[test]
    fn reads_fuzzer_stats() {
        let stats = parse_stats("execs_done        : 198748\nbitmap_cvg        : 29.69%\n");
        assert_eq!(stats["execs_done"], "198748");
        assert_eq!(stats["bitmap_cvg"], "29.69%");
    }

    #[test]
    fn only_saved_inputs_count_as_crashes() {
        let dir = std::env::temp_dir().join(format!("xtask-fuzz-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("README.txt"), "").unwrap();
        fs::write(dir.join("id:000000,sig:06,src:000001"), "x").unwrap();
        let found = saved_inputs(&dir);
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found.len(), 1);
        assert!(saved_inputs(&dir).is_empty());
    }
}
