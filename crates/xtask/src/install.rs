//! `cargo xtask install`: everything the tests need, installed idempotently.
//!
//! Each item first checks whether the right version is already there and
//! prints `ok (cached)` if so; only then does it install. A fresh machine
//! only reaches the package registries, so every item comes from one.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::util::{self, Result, command, format_duration};

/// Used when Cargo.lock has no `wasm-bindgen` yet (no wasm crate built so far);
/// the version the workspace pins (`wasm-bindgen = "=0.2.130"`).
const FALLBACK_WASM_BINDGEN: &str = "0.2.130";

/// The npm folders under `tests/peers`, each with a committed package-lock.json
/// (`node-auth`: the authorization server, oidc-provider; `node-apps`: the MCP Apps
/// examples; `node-inspector`: the official MCP Inspector, run by its CLI mode on the
/// Node 22 that `node` installs).
pub const NPM_FOLDERS: [&str; 5] = [
    "node",
    "node-conformance-next",
    "node-auth",
    "node-apps",
    "node-inspector",
];

/// cargo-afl, pinned to the `afl` crate in crates/fuzz/Cargo.toml (the two must
/// match). Installing it also builds its own AFL++ (4.40c) with gcc and make; no
/// LLVM and no Debian `afl++` is needed, and Debian's (4.04c) cannot drive targets
/// built with this runtime (its fork server handshake is older).
pub const CARGO_AFL: &str = "0.18.2";

/// Where `npm ci` records the fingerprint of the lock file it installed.
const LOCK_STAMP: &str = ".mcpg-lock-hash";

/// Runs every install step in order, stopping at the first failure.
pub fn install(root: &Path) -> Result<()> {
    println!("install: checking what the tests need");
    item("rustup target wasm32-unknown-unknown", |name| {
        rust_target(root, name)
    })?;
    for component in ["rustfmt", "clippy"] {
        item(&format!("rustup component {component}"), |name| {
            rust_component(root, component, name)
        })?;
    }
    item("chromium + chromium-driver (apt)", chromium)?;
    let version = wasm_bindgen_version(root);
    item(&format!("wasm-bindgen-cli {version}"), |name| {
        wasm_bindgen_cli(root, &version, name)
    })?;
    for folder in NPM_FOLDERS {
        item(&format!("npm peers in tests/peers/{folder}"), |name| {
            npm_folder(&root.join("tests").join("peers").join(folder), name)
        })?;
    }
    item("npm e2e tools in tests/e2e (axe-core)", |name| {
        npm_folder(&root.join("tests").join("e2e"), name)
    })?;
    item("python venv tests/peers/python/.venv", |name| {
        python_venv(&root.join("tests").join("peers").join("python"), name)
    })?;
    item(
        &format!("cargo-afl {CARGO_AFL} (AFL++, for the fuzz stage)"),
        |name| cargo_afl(root, name),
    )?;
    Ok(())
}

/// What an install step did.
pub(crate) enum Done {
    /// It was already there at the right version.
    Cached,
    /// It had to be installed.
    Installed,
}

/// Runs one step (given its name, for [`installing`]) and prints its
/// one-line outcome with the time it took.
pub(crate) fn item(name: &str, step: impl FnOnce(&str) -> Result<Done>) -> Result<()> {
    let start = Instant::now();
    match step(name) {
        Ok(Done::Cached) => {
            println!("  {name}: ok (cached)");
            Ok(())
        }
        Ok(Done::Installed) => {
            println!(
                "  {name}: installed in {}",
                format_duration(start.elapsed())
            );
            Ok(())
        }
        Err(message) => {
            println!("  {name}: FAILED");
            Err(format!("{name}: {message}"))
        }
    }
}

/// Announces a real install, whose own output follows.
pub(crate) fn installing(what: &str) {
    println!("  {what}: installing...");
}

pub(crate) fn rust_target(root: &Path, name: &str) -> Result<Done> {
    const TARGET: &str = "wasm32-unknown-unknown";
    let installed = util::capture(command("rustup", root).args(["target", "list", "--installed"]))?;
    if installed.lines().any(|line| line.trim() == TARGET) {
        return Ok(Done::Cached);
    }
    installing(name);
    util::run(command("rustup", root).args(["target", "add", TARGET]))?;
    Ok(Done::Installed)
}

fn rust_component(root: &Path, component: &str, name: &str) -> Result<Done> {
    let installed =
        util::capture(command("rustup", root).args(["component", "list", "--installed"]))?;
    // Lines read like `clippy-x86_64-unknown-linux-gnu`.
    let prefix = format!("{component}-");
    if installed
        .lines()
        .any(|line| line.trim() == component || line.trim().starts_with(&prefix))
    {
        return Ok(Done::Cached);
    }
    installing(name);
    util::run(command("rustup", root).args(["component", "add", component]))?;
    Ok(Done::Installed)
}

fn chromium(name: &str) -> Result<Done> {
    let present = |p: &str| Path::new(p).exists();
    if present("/usr/bin/chromium") && present("/usr/bin/chromedriver") {
        return Ok(Done::Cached);
    }
    installing(name);
    let apt = |args: &[&str]| {
        let mut cmd = command("apt-get", Path::new("/"));
        // CI has no terminal: never let a package ask a question.
        cmd.env("DEBIAN_FRONTEND", "noninteractive").args(args);
        util::run(&mut cmd)
    };
    apt(&["update"])?;
    apt(&[
        "install",
        "-y",
        "--no-install-recommends",
        "chromium",
        "chromium-driver",
    ])?;
    Ok(Done::Installed)
}

/// Whether `cargo afl --version` output names [`CARGO_AFL`] and a built AFL++:
/// `cargo-afl 0.18.2 (AFL++ version 4.40c)`. The AFL++ part is missing when its
/// afl-fuzz was not built, or was built for another rustc (its files are kept per
/// rustc version).
fn cargo_afl_ready(version_output: Option<&str>) -> bool {
    version_output.is_some_and(|out| {
        out.split_whitespace().nth(1) == Some(CARGO_AFL) && out.contains("(AFL++ version ")
    })
}

/// cargo-afl at [`CARGO_AFL`] with its AFL++ built for this rustc.
pub(crate) fn cargo_afl(root: &Path, name: &str) -> Result<Done> {
    let version = || util::probe(command(util::cargo(), root).args(["afl", "--version"]));
    if cargo_afl_ready(version().as_deref()) {
        return Ok(Done::Cached);
    }
    installing(name);
    // AFL++ is C built with make and a C compiler, both on the machine as shipped;
    // only a stripped-down one lacks them.
    if util::probe(command("make", root).arg("--version")).is_none()
        || util::probe(command("cc", root).arg("--version")).is_none()
    {
        let mut cmd = command("apt-get", Path::new("/"));
        cmd.env("DEBIAN_FRONTEND", "noninteractive");
        util::run(cmd.arg("update"))?;
        let mut cmd = command("apt-get", Path::new("/"));
        cmd.env("DEBIAN_FRONTEND", "noninteractive").args([
            "install",
            "-y",
            "--no-install-recommends",
            "make",
            "gcc",
            "libc6-dev",
        ]);
        util::run(&mut cmd)?;
    }
    let installed = version()
        .as_deref()
        .and_then(|out| out.split_whitespace().nth(1).map(str::to_owned));
    if installed.as_deref() != Some(CARGO_AFL) {
        util::run(command(util::cargo(), root).args([
            "install",
            "cargo-afl",
            "--version",
            CARGO_AFL,
            "--locked",
            "--force",
        ]))?;
    }
    // `cargo install` builds AFL++ but only warns when that fails, and a new rustc
    // needs its own build: build it (again) where it is missing, loudly.
    if !cargo_afl_ready(version().as_deref()) {
        util::run(command(util::cargo(), root).args(["afl", "config", "--build", "--force"]))?;
    }
    if !cargo_afl_ready(version().as_deref()) {
        return Err("cargo-afl is installed but reports no AFL++ build".into());
    }
    Ok(Done::Installed)
}

/// The `wasm-bindgen` version in Cargo.lock: the CLI must match it exactly.
pub fn wasm_bindgen_version(root: &Path) -> String {
    fs::read_to_string(root.join("Cargo.lock"))
        .ok()
        .and_then(|lock| locked_version(&lock, "wasm-bindgen"))
        .unwrap_or_else(|| FALLBACK_WASM_BINDGEN.to_owned())
}

/// Finds `version = "…"` of the `[[package]]` named `name` in a Cargo.lock.
pub(crate) fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line != wanted {
            continue;
        }
        // The version line follows the name within the same package block.
        for next in lines.by_ref() {
            if next.starts_with("[[") || next.is_empty() {
                break;
            }
            if let Some(rest) = next.strip_prefix("version = \"") {
                return rest.strip_suffix('"').map(str::to_owned);
            }
        }
    }
    None
}

fn wasm_bindgen_cli(root: &Path, version: &str, name: &str) -> Result<Done> {
    // `wasm-bindgen --version` prints `wasm-bindgen 0.2.130`.
    let current = util::probe(command("wasm-bindgen", root).arg("--version"));
    let runner = util::cargo_bin_dir()
        .map(|bin| bin.join("wasm-bindgen-test-runner"))
        .is_some_and(|path| path.exists())
        || util::probe(command("wasm-bindgen-test-runner", root).arg("--version")).is_some();
    if runner
        && current
            .as_deref()
            .and_then(|out| out.split_whitespace().nth(1))
            == Some(version)
    {
        return Ok(Done::Cached);
    }
    installing(name);
    // No `--locked`: the crate's own lock names a dependency version the
    // registry no longer has (see shared/docs/toolchain.md).
    util::run(command(util::cargo(), root).args([
        "install",
        &format!("wasm-bindgen-cli@{version}"),
        "--force",
    ]))?;
    Ok(Done::Installed)
}

/// `npm ci` in `folder` unless node_modules was installed from this very lock.
pub(crate) fn npm_folder(folder: &Path, name: &str) -> Result<Done> {
    let lock_path = folder.join("package-lock.json");
    let lock =
        fs::read(&lock_path).map_err(|e| format!("cannot read {}: {e}", lock_path.display()))?;
    let hash = util::fingerprint(&lock);
    let stamp = folder.join("node_modules").join(LOCK_STAMP);
    if fs::read_to_string(&stamp).is_ok_and(|old| old.trim() == hash) {
        return Ok(Done::Cached);
    }
    installing(name);
    // `npm ci` installs exactly the lock (and wipes a stale node_modules).
    util::run(command("npm", folder).args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]))?;
    fs::write(&stamp, format!("{hash}\n"))
        .map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(Done::Installed)
}

/// Every `name==version` pin in requirements.txt, in order.
fn pins(requirements: &str) -> Vec<(String, String)> {
    requirements
        .lines()
        .filter_map(|line| {
            let (name, version) = line.split('#').next()?.trim().split_once("==")?;
            Some((name.trim().to_owned(), version.trim().to_owned()))
        })
        .collect()
}

/// A venv with every pinned package (the `mcp` peer; `junitparser`, which reads
/// back `mcpg eval --junit`), (re)built only when a pin is not met.
fn python_venv(folder: &Path, name: &str) -> Result<Done> {
    let requirements_path = folder.join("requirements.txt");
    let requirements = fs::read_to_string(&requirements_path)
        .map_err(|e| format!("cannot read {}: {e}", requirements_path.display()))?;
    let pinned = pins(&requirements);
    if !pinned.iter().any(|(n, _)| n == "mcp") {
        return Err(format!("{} pins no `mcp==`", requirements_path.display()));
    }
    let venv = folder.join(".venv");
    let python: PathBuf = venv.join("bin").join("python");
    let names: Vec<String> = pinned.iter().map(|(n, _)| format!("{n:?}")).collect();
    let script = format!(
        "import importlib.metadata as m\nfor n in [{}]:\n    print(m.version(n))",
        names.join(", ")
    );
    let installed = util::probe(command(&python, folder).args(["-c", &script]));
    let wanted: Vec<&str> = pinned.iter().map(|(_, v)| v.as_str()).collect();
    if installed
        .as_deref()
        .is_some_and(|out| out.lines().map(str::trim).eq(wanted.iter().copied()))
    {
        return Ok(Done::Cached);
    }
    let listed: Vec<String> = pinned.iter().map(|(n, v)| format!("{n}=={v}")).collect();
    installing(&format!("{name} ({})", listed.join(", ")));
    // A venv whose interpreter no longer runs (moved, or its base Python
    // went away) cannot be repaired in place: start over.
    if util::probe(command(&python, folder).arg("--version")).is_none() && venv.exists() {
        fs::remove_dir_all(&venv)
            .map_err(|e| format!("cannot remove broken {}: {e}", venv.display()))?;
    }
    if !python.exists() {
        util::run(command("python3", folder).args(["-m", "venv", ".venv"]))?;
    }
    util::run(command(&python, folder).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "-r",
        "requirements.txt",
    ]))?;
    Ok(Done::Installed)
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
    fn finds_a_locked_version() {
        let lock = "\
[[package]]
name = \"wasm-bindgen-macro\"
version = \"0.2.99\"

[[package]]
name = \"wasm-bindgen\"
version = \"0.2.130\"
source = \"registry+https://example.invalid\"
";
        assert_eq!(
            locked_version(lock, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(locked_version(lock, "serde"), None);
    }

    #[test]
    fn cargo_afl_needs_the_pinned_version_and_its_afl_plus_plus() {
        let v = CARGO_AFL;
        assert!(cargo_afl_ready(Some(&format!(
            "cargo-afl {v} (AFL++ version 4.40c)\n"
        ))));
        assert!(!cargo_afl_ready(Some(&format!("cargo-afl {v}\n"))));
        assert!(!cargo_afl_ready(Some(
            "cargo-afl 0.15.0 (AFL++ version 4.10c)\n"
        )));
        assert!(!cargo_afl_ready(None));
    }

    #[test]
    fn cargo_afl_matches_the_fuzz_crates_afl() {
        let manifest =
            fs::read_to_string(util::repo_root().join("crates/fuzz/Cargo.toml")).unwrap();
        assert!(
            manifest.contains(&format!("afl = {{ version = \"={CARGO_AFL}\"")),
            "crates/fuzz pins afl = \"={CARGO_AFL}\""
        );
    }

    #[test]
    fn reads_every_pin() {
        assert_eq!(
            pins("# peers\nmcp==2.3.0\njunitparser==5.0.3  # eval\nother>=2\n"),
            [
                ("mcp".to_owned(), "2.3.0".to_owned()),
                ("junitparser".to_owned(), "5.0.3".to_owned())
            ]
        );
        assert!(pins("mcp>=2\n").is_empty());
    }
}
