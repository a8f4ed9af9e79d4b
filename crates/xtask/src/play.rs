//! `cargo xtask play`: install what the page needs, build it in release mode, and
//! start the bridge (`mcpg serve`), which prints the URL to open.
//!
//! The page needs the wasm32 target, `wasm-bindgen-cli` equal to the crate in
//! Cargo.lock, Trunk (pinned: 0.22 needs a newer rustc) and binaryen's `wasm-opt`
//! 132 from npm (Debian's binaryen 108 produces a page that dies at load). Trunk
//! runs offline (Trunk.toml), so every tool must already be on PATH.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::install::{self, Done};
use crate::util::{self, Result, command};

/// The Trunk release that builds with this toolchain.
pub const TRUNK_VERSION: &str = "0.21.14";

/// The binaryen release whose `wasm-opt` produces a working page.
const WASM_OPT_VERSION: &str = "version 132";

/// Installs, builds, and runs `mcpg serve` with `args` passed on (`--config`, `--port`).
pub fn play(root: &Path, args: &[String]) -> Result<()> {
    prepare(root)?;
    let dist = build_page(root)?;
    let mcpg = build_mcpg(root)?;
    println!();
    println!("starting the bridge: open the URL below (Ctrl-C stops it)");
    let mut cmd = command(&mcpg, root);
    cmd.arg("serve").arg("--dist").arg(&dist).args(args);
    util::run(&mut cmd)
}

/// Everything the page's build needs, installed when missing.
pub fn prepare(root: &Path) -> Result<()> {
    println!("play: checking what the page needs");
    install::item("rustup target wasm32-unknown-unknown", |name| {
        install::rust_target(root, name)
    })?;
    let version = install::wasm_bindgen_version(root);
    install::item(&format!("wasm-bindgen-cli {version}"), |name| {
        install::wasm_bindgen_cli(root, &version, name)
    })?;
    install::item(&format!("trunk {TRUNK_VERSION}"), |name| trunk(root, name))?;
    install::item(
        "npm peers in tests/peers/node (binaryen's wasm-opt)",
        |name| install::npm_folder(&root.join("tests").join("peers").join("node"), name),
    )?;
    let wasm_opt = node_bin(root).join("wasm-opt");
    let found = util::probe(command(&wasm_opt, root).arg("--version")).unwrap_or_default();
    if !found.contains(WASM_OPT_VERSION) {
        return Err(format!(
            "{} is not binaryen {WASM_OPT_VERSION} (found {:?}); check tests/peers/node/package.json",
            wasm_opt.display(),
            found.trim()
        ));
    }
    Ok(())
}

fn trunk(root: &Path, name: &str) -> Result<Done> {
    // `trunk --version` prints `trunk 0.21.14`.
    let current = util::probe(command("trunk", root).arg("--version"));
    if current.as_deref().and_then(|v| v.split_whitespace().nth(1)) == Some(TRUNK_VERSION) {
        return Ok(Done::Cached);
    }
    install::installing(name);
    util::run(command(util::cargo(), root).args([
        "install",
        "--locked",
        &format!("trunk@{TRUNK_VERSION}"),
    ]))?;
    Ok(Done::Installed)
}

/// `tests/peers/node/node_modules/.bin`, where npm puts `wasm-opt`.
pub fn node_bin(root: &Path) -> PathBuf {
    root.join("tests")
        .join("peers")
        .join("node")
        .join("node_modules")
        .join(".bin")
}

/// `trunk build --release` into `dist/`; returns that folder.
pub fn build_page(root: &Path) -> Result<PathBuf> {
    // Trunk builds offline, so the crates must be in cargo's cache first.
    util::run(command(util::cargo(), root).arg("fetch"))?;
    let mut cmd = Command::new("trunk");
    cmd.current_dir(root)
        .env("PATH", util::child_path(&[node_bin(root)]))
        .env("TRUNK_SKIP_VERSION_CHECK", "true")
        // The CLI must equal the crate: follow Cargo.lock rather than Trunk.toml's pin
        // if the two ever drift.
        .env(
            "TRUNK_TOOLS_WASM_BINDGEN",
            install::wasm_bindgen_version(root),
        )
        .args(["build", "--release"]);
    util::run(&mut cmd)?;
    Ok(root.join("dist"))
}

/// Builds `mcpg` (debug: it only relays) and returns its path.
pub fn build_mcpg(root: &Path) -> Result<PathBuf> {
    util::run(command(util::cargo(), root).args(["build", "-p", "mcpg"]))?;
    let exe = util::target_dir(root).join("debug").join("mcpg");
    if exe.is_file() {
        Ok(exe)
    } else {
        Err(format!("{} was not built", exe.display()))
    }
}
