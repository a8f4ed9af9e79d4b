//! Running child processes with the right PATH, timing, and stage banners.

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Every task fails with a message meant for a person reading the CI log.
pub type Result<T> = std::result::Result<T, String>;

/// The repository root: xtask lives in `crates/xtask`, two levels below it.
///
/// Taken from the compile-time manifest dir because `cargo xtask` always
/// builds xtask from the checkout it runs in (CI clones into another folder).
pub fn repo_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .ancestors()
        .nth(2)
        .map_or_else(|| manifest_dir.to_path_buf(), Path::to_path_buf)
}

/// Cargo's target directory, honouring `CARGO_TARGET_DIR` like cargo does.
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("target"),
    }
}

/// The cargo binary that runs us (`cargo run` sets `CARGO`), so children use
/// the same toolchain; plain `cargo` otherwise.
pub fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// `~/.cargo/bin` (or `$CARGO_HOME/bin`): where `cargo install` puts
/// wasm-bindgen and where rustup's proxies live.
pub fn cargo_bin_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CARGO_HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(home).join("bin"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|home| PathBuf::from(home).join(".cargo").join("bin"))
}

/// The PATH for child processes: `extra` first, then the cargo bin dir
/// (CI's environment may lack it), then the inherited PATH.
pub fn child_path(extra: &[PathBuf]) -> OsString {
    let mut dirs: Vec<PathBuf> = extra.to_vec();
    if let Some(bin) = cargo_bin_dir() {
        dirs.push(bin);
    }
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    // Drop repeats so the order stays readable when debugging.
    let mut seen = Vec::new();
    dirs.retain(|d| {
        let new = !seen.contains(d);
        if new {
            seen.push(d.clone());
        }
        new
    });
    std::env::join_paths(dirs).unwrap_or_else(|_| std::env::var_os("PATH").unwrap_or_default())
}

/// A command rooted at the repository, with the child PATH set.
pub fn command(program: impl AsRef<OsStr>, root: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.current_dir(root).env("PATH", child_path(&[]));
    cmd
}

/// The command line as a person would type it, for messages.
pub fn display(cmd: &Command) -> String {
    let mut line = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        let arg = arg.to_string_lossy();
        if arg.contains(' ') || arg.is_empty() {
            let _ = write!(line, " \"{arg}\"");
        } else {
            let _ = write!(line, " {arg}");
        }
    }
    line
}

/// Runs `cmd` with inherited stdio; a non-zero exit is an error.
pub fn run(cmd: &mut Command) -> Result<()> {
    let status = status(cmd)?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", display(cmd)))
    }
}

/// Runs `cmd` with inherited stdio and returns its exit status.
pub fn status(cmd: &mut Command) -> Result<ExitStatus> {
    cmd.status()
        .map_err(|e| format!("cannot start `{}`: {e}", display(cmd)))
}

/// Runs `cmd` and returns its stdout when it succeeds; `None` when it cannot
/// start or fails (used for probes such as `wasm-bindgen --version`).
pub fn probe(cmd: &mut Command) -> Option<String> {
    let output = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs `cmd` capturing stdout; a failure to start or a non-zero exit is an error.
pub fn capture(cmd: &mut Command) -> Result<String> {
    let output = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start `{}`: {e}", display(cmd)))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!("`{}` failed ({})", display(cmd), output.status))
    }
}

/// `12.3s` below a minute, `2m05s` above: short enough for one-line reports.
pub fn format_duration(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs < 60.0 {
        format!("{secs:.1}s")
    } else {
        let whole = duration.as_secs();
        format!("{}m{:02}s", whole / 60, whole % 60)
    }
}

/// Runs one named stage between banners and reports how long it took.
pub fn stage(name: &str, body: impl FnOnce() -> Result<()>) -> Result<Duration> {
    println!();
    println!("==================== {name} ====================");
    let start = Instant::now();
    let outcome = body();
    let elapsed = start.elapsed();
    match outcome {
        Ok(()) => {
            println!("---- {name}: ok in {}", format_duration(elapsed));
            Ok(elapsed)
        }
        Err(message) => {
            println!("---- {name}: FAILED after {}", format_duration(elapsed));
            Err(format!("stage `{name}` failed: {message}"))
        }
    }
}

/// FNV-1a, 64 bit: a stable fingerprint (std's hasher may change between
/// Rust releases, which would force needless reinstalls).
pub fn fingerprint(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// One line on the disk the build uses: the size of `target/` and the space left
/// on its file system (from `du` and `df`; "unknown" where they fail).
pub fn disk_report(root: &Path) -> String {
    let target = target_dir(root);
    let used = probe(Command::new("du").arg("-sk").arg(&target)).and_then(|out| first_kib(&out));
    let free = probe(
        Command::new("df")
            .args(["-k", "--output=avail"])
            .arg(&target),
    )
    .and_then(|out| out.lines().nth(1).and_then(first_kib));
    let gib = |kib: Option<u64>| {
        kib.map_or_else(
            || "unknown".to_string(),
            |k| format!("{:.1} GiB", k as f64 / (1024.0 * 1024.0)),
        )
    };
    format!("disk: target/ holds {}, {} free", gib(used), gib(free))
}

/// The first whitespace-separated number of `text` (a `du` or `df` figure in KiB).
fn first_kib(text: &str) -> Option<u64> {
    text.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(format_duration(Duration::from_millis(12_340)), "12.3s");
        assert_eq!(format_duration(Duration::from_secs(125)), "2m05s");
    }

    #[test]
    fn fingerprint_is_fnv1a() {
        // Reference values of FNV-1a 64.
        assert_eq!(fingerprint(b""), "cbf29ce484222325");
        assert_eq!(fingerprint(b"a"), "af63dc4c8601ec8c");
    }

    #[test]
    fn root_holds_the_workspace_manifest() {
        assert!(repo_root().join("Cargo.toml").is_file());
        assert!(repo_root().join("crates").join("xtask").is_dir());
    }

    #[test]
    fn display_quotes_spaced_arguments() {
        let mut cmd = Command::new("conformance");
        cmd.args(["client", "--command", "/x/mcpg conformance-client"]);
        assert_eq!(
            display(&cmd),
            "conformance client --command \"/x/mcpg conformance-client\""
        );
    }

    #[test]
    fn first_kib_reads_du_and_df_figures() {
        assert_eq!(first_kib("1618396\ttarget\n"), Some(1_618_396));
        assert_eq!(first_kib(" 74812345\n"), Some(74_812_345));
        assert_eq!(first_kib("Avail\n"), None);
        assert_eq!(first_kib(""), None);
    }
}
