//! `cargo xtask`: the one entry point for MCP Playground project tasks.
//!
//! - `cargo xtask install`: install what the tests need (idempotent).
//! - `cargo xtask test`: install, then fmt, clippy, native tests, wasm tests
//!   in headless Chromium, and the conformance stage, failing fast.
//! - `cargo xtask conformance [--server-only]`: the conformance stage alone.
//! - `cargo xtask dist [--out DIR]`: build the release page as static files.
//! - `cargo xtask play`: build the page and start the playground.
//! - `cargo xtask e2e`: the e2e stage alone (release page, bridge, Playwright).
//! - `cargo xtask fuzz [--seconds N] [TARGET…]`: bounded AFL++ sessions.
//!
//! Kept to the standard library, serde_json, flate2 and brotli so it builds
//! first and fast on a fresh machine.

mod cases_server;
mod conformance;
mod dist;
mod e2e;
mod e2e_auth;
mod fuzz;
mod install;
mod play;
mod test;
mod util;

use std::process::ExitCode;

/// Printed for `help` and for anything not understood.
const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  install       install what the tests need (rustup target and components,
                Chromium, wasm-bindgen-cli, npm and Python peers, cargo-afl);
                skips whatever is already there at the right version
  test          install, then: cargo fmt --check, clippy -D warnings,
                cargo test --workspace (MCPG_PEERS set, MCPG_REQUIRE_PEERS=1),
                fuzz (10 s per target), wasm tests in headless Chromium, e2e,
                conformance
  conformance [--server-only]
                run the official conformance suite's client scenarios
                against target/debug/mcpg, and its server requirement sets
                (2025-11-25, 2026-07-28) against a fresh
                `mcpg demo --http --conformance` each (results:
                target/conformance.md); MCPG_CONFORMANCE_CLIENT=PATH tests
                another client binary, MCPG_CONFORMANCE_SERVER='CMD ARGS'
                another server (127.0.0.1:0 is appended); --server-only
                skips the client scenarios
  dist [--out DIR]
                install what the page needs (wasm32 target, wasm-bindgen-cli,
                binaryen's wasm-opt from npm) and build the release page into
                dist/ (or DIR): hashed names, relative URLs, .gz and .br
                beside each file; fails above web/first-load-ceiling.txt
  play [ARGS]   `dist` (above the ceiling it only warns), then start
                `mcpg serve` on it (ARGS go to it, e.g. --config bridge.toml)
  e2e           the e2e stage alone: release page, mcpg serve with a test
                config, Playwright tests in headless Chromium
  fuzz [--seconds N] [TARGET...]
                build crates/fuzz with cargo-afl and run each target (default:
                all; frame sse session uri_template www_authenticate auth_flow
                safe_url) under AFL++ for N seconds (default 60) from its seed
                corpus; fails on a crash, printing the input and a reproducer
  help          this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = util::repo_root();
    let outcome = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["install"] => install::install(&root),
        ["test"] => test::test(&root),
        ["conformance"] => conformance::conformance(&root, false),
        ["conformance", "--server-only"] => conformance::conformance(&root, true),
        ["dist", rest @ ..] => dist::command_line(
            &root,
            &rest.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(),
        ),
        ["play", rest @ ..] => play::play(
            &root,
            &rest.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(),
        ),
        ["e2e"] => e2e::e2e(&root),
        ["fuzz", rest @ ..] => fuzz::command_line(
            &root,
            &rest.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(),
        ),
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!();
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}
