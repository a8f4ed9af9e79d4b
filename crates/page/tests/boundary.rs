//! The first screen's crate boundary, checked with `cargo tree` (seconds, no wasm
//! build): `mcpg-page` must not reach the host's code, the HTTP machine, OAuth or
//! the URL parser, so the first load cannot hold them by accident. What loads later
//! (`mcpg-page-later`) may.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::expect_used, clippy::panic)]

use std::process::Command;

/// Crates only the later parts may use.
const LATER_ONLY: [&str; 5] = [
    "mcpg-host",
    "mcpg-http",
    "mcpg-auth",
    "mcpg-safe-url",
    "mcpg-page-later",
];

/// Every package `package` depends on (normal dependencies, every target).
fn dependencies(package: &str) -> Vec<String> {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--manifest-path",
            manifest,
            "-p",
            package,
        ])
        .args(["-e", "normal", "--target", "all", "--prefix", "none"])
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_first_screen_cannot_reach_the_later_parts_code() {
    let deps = dependencies("mcpg-page");
    assert!(
        deps.iter().any(|d| d == "mcpg-core"),
        "the tree was read: {deps:?}"
    );
    for later in LATER_ONLY {
        assert!(
            !deps.iter().any(|d| d == later),
            "mcpg-page depends on {later}: the first screen's crate must not reach the later parts' code (move the code to mcpg-page-later, or the data it needs to mcpg-loop-data or mcpg-net)"
        );
    }
}

#[test]
fn the_later_parts_reach_the_host_through_their_own_crate() {
    // The check above means something only if the code it keeps out is real and
    // reached from the later parts' crate.
    let deps = dependencies("mcpg-page-later");
    for needed in ["mcpg-page", "mcpg-host", "mcpg-http"] {
        assert!(deps.iter().any(|d| d == needed), "{needed} in {deps:?}");
    }
}
