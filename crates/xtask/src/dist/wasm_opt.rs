//! binaryen's `wasm-opt` over the split's modules, cached in `target/dist-cache`
//! under a hash of each input and its flags (the main module takes ~30 s, and
//! `play` or `e2e` often rebuild an unchanged page; only this build's results are
//! kept).
//!
//! The main module goes through the `wasm-opt` CLI ([`MAIN_OPT`]); the chunks, at
//! the CLI's `-Oz`, go through `wasm_opt.mjs`, which loads binaryen once for all of
//! them: one CLI process per chunk cost ~1.4 s each, ~6.5 minutes for the ~280
//! chunks of a fresh build, against about a minute. Both run at once, one process
//! per core. The script's output is byte-identical to the CLI's.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

use super::files::{create_dir, files_under};
use super::tools;
use crate::util::{self, Result, command};

/// The flags `wasm-opt` needs besides the level: `strip = true` in the release
/// profile removes the target-features section, so the module's features must be
/// named (otherwise: "bulk memory is disabled").
const FEATURES: [&str; 6] = [
    "bulk-memory",
    "nontrapping-float-to-int",
    "sign-ext",
    "mutable-globals",
    "reference-types",
    "multivalue",
];

/// How `wasm-opt` shrinks the main module: `-Os --converge` gave 2,015 bytes less
/// brotli than `-Oz` (282,964 vs 284,979, December 2026; `-Os` alone 284,054,
/// `--gufa` and a second `-Oz` more), though its raw bytes grow ~4%: brotli counts.
const MAIN_OPT: [&str; 2] = ["-Os", "--converge"];

/// How the chunks are shrunk (small, fetched later: the plain setting). The
/// script applies it; the name and the script are part of the cache key.
const CHUNK_OPT: &str = "-Oz";

/// What binaryen prints for every module the split wrote: the linker's label
/// names, which it does not read (its output has no names at all).
const NAME_WARNING: &str = "warning: unknown name subsection with id 3";

/// The batch optimizer for the chunks.
const SCRIPT: &str = include_str!("wasm_opt.mjs");

/// Optimizes `inputs` (the main module first, then the chunks) and returns the
/// optimized files in the same order.
pub fn optimize(root: &Path, inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let cache = util::target_dir(root).join("dist-cache");
    create_dir(&cache)?;
    let flags: Vec<String> = FEATURES.iter().map(|f| format!("--enable-{f}")).collect();
    let mut done = Vec::new();
    let mut main = None;
    let mut chunks = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let level = if i == 0 {
            MAIN_OPT.join(" ")
        } else {
            CHUNK_OPT.to_owned()
        };
        let mut key = fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
        key.extend_from_slice(level.as_bytes());
        key.extend_from_slice(flags.join(" ").as_bytes());
        if i > 0 {
            // The script's settings shape its output too (a debug-info switch
            // turned on there once left chunks with names in later builds).
            key.extend_from_slice(SCRIPT.as_bytes());
        }
        let optimized = cache.join(format!("{}.wasm", util::fingerprint(&key)));
        if !optimized.is_file() {
            if i == 0 {
                main = Some(start_main(root, input, &optimized, &flags)?);
            } else {
                chunks.push((input.clone(), optimized.clone()));
            }
        }
        done.push(optimized);
    }
    let batch = if chunks.is_empty() {
        Ok(())
    } else {
        run_script(root, &chunks)
    };
    // The main module's process is waited for even when the batch failed.
    let main = main.map_or(Ok(()), finish_main);
    batch.and(main)?;
    for old in files_under(&cache)? {
        let path = cache.join(&old);
        if !done.contains(&path) {
            fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(done)
}

/// The CLI on the main module, running while the chunks are optimized.
struct MainJob {
    child: Child,
    shown: String,
    partial: PathBuf,
    optimized: PathBuf,
    /// The thread that passes the CLI's stderr on, without the name warnings.
    stderr: Option<std::thread::JoinHandle<()>>,
}

fn start_main(root: &Path, input: &Path, optimized: &Path, flags: &[String]) -> Result<MainJob> {
    let partial = optimized.with_extension("partial");
    let mut cmd = command(tools::wasm_opt(root), root);
    cmd.args(MAIN_OPT)
        .args(flags)
        .arg(input)
        .arg("-o")
        .arg(&partial)
        .stderr(Stdio::piped());
    let shown = util::display(&cmd);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    let stderr = child.stderr.take().map(|err| {
        std::thread::spawn(move || {
            for line in BufReader::new(err)
                .lines()
                .map_while(std::result::Result::ok)
            {
                if !line.starts_with(NAME_WARNING) {
                    eprintln!("{line}");
                }
            }
        })
    });
    Ok(MainJob {
        child,
        shown,
        partial,
        optimized: optimized.to_owned(),
        stderr,
    })
}

fn finish_main(mut job: MainJob) -> Result<()> {
    let status = job
        .child
        .wait()
        .map_err(|e| format!("`{}`: {e}", job.shown))?;
    if let Some(thread) = job.stderr.take() {
        let _ = thread.join();
    }
    if !status.success() {
        return Err(format!("`{}` failed ({status})", job.shown));
    }
    // Renamed once complete, so an interrupted run never leaves a hit behind.
    fs::rename(&job.partial, &job.optimized)
        .map_err(|e| format!("{}: {e}", job.optimized.display()))
}

/// `node wasm_opt.mjs` over `jobs` (input, output), through a job file in the stage.
fn run_script(root: &Path, jobs: &[(PathBuf, PathBuf)]) -> Result<()> {
    let binaryen = tools::binaryen_js(root);
    let spec = serde_json::json!({
        "binaryen": binaryen,
        "features": FEATURES,
        "jobs": jobs,
    });
    let stage = util::target_dir(root).join("dist-stage");
    let script = stage.join("wasm_opt.mjs");
    fs::write(&script, SCRIPT).map_err(|e| format!("{}: {e}", script.display()))?;
    let job_file = stage.join("wasm_opt_jobs.json");
    fs::write(&job_file, spec.to_string()).map_err(|e| format!("{}: {e}", job_file.display()))?;
    util::run(command("node", root).arg(&script).arg(&job_file))
}
