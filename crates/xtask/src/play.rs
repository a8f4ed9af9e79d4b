//! `cargo xtask play`: build the page (`cargo xtask dist`, installing what it
//! needs) and start the bridge (`mcpg serve`), which prints the URL to open.

use std::path::{Path, PathBuf};

use crate::dist;
use crate::util::{self, Result, command};

/// Builds, and runs `mcpg serve` with `args` passed on (`--config`, `--port`).
pub fn play(root: &Path, args: &[String]) -> Result<()> {
    let page = dist::default_out(root);
    dist::build(root, &page, dist::Ceiling::Warn)?;
    let mcpg = build_mcpg(root)?;
    println!();
    println!("starting the bridge: open the URL below (Ctrl-C stops it)");
    let mut cmd = command(&mcpg, root);
    cmd.arg("serve").arg("--dist").arg(&page).args(args);
    util::run(&mut cmd)
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
