//! `cargo xtask test`: install, then every check CI runs, failing fast.

use std::path::Path;
use std::time::Duration;

use crate::cases_server::CasesServer;
use crate::util::{self, Result, command, format_duration, stage};
use crate::{conformance, e2e, fuzz, install};

/// The crates whose tests also run in headless Chromium (wasm-bindgen-test).
/// Add a package here when it gains wasm tests.
pub const WASM_PACKAGES: &[&str] = &[
    "mcpg-core",
    "mcpg-demo",
    "mcpg-host",
    "mcpg-recording",
    "mcpg-http",
    "mcpg-page-later",
    "mcpg-lessons",
];

/// Installs what is needed, then runs fmt, clippy, native tests, the fuzzers
/// (briefly), wasm tests, e2e and the conformance stage in that order; the first
/// failure stops the run.
pub fn test(root: &Path) -> Result<()> {
    let mut timings: Vec<(&str, Duration)> = Vec::new();
    let mut step = |name: &'static str, body: &dyn Fn() -> Result<()>| -> Result<()> {
        let elapsed = stage(name, body)?;
        timings.push((name, elapsed));
        Ok(())
    };
    let outcome = (|| {
        step("install", &|| install::install(root))?;
        step("fmt", &|| {
            util::run(command(util::cargo(), root).args(["fmt", "--all", "--check"]))
        })?;
        step("clippy", &|| {
            util::run(command(util::cargo(), root).args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]))
        })?;
        step("native tests", &|| native_tests(root))?;
        step("fuzz", &|| {
            fuzz::fuzz(
                root,
                &fuzz::Request {
                    seconds: fuzz::TEST_SECONDS,
                    targets: fuzz::TARGETS.to_vec(),
                },
            )
        })?;
        step("wasm tests", &|| wasm_tests(root))?;
        step("e2e", &|| e2e::e2e(root))?;
        step("conformance", &|| conformance::conformance(root, false))
    })();
    println!();
    println!("==================== summary ====================");
    for (name, elapsed) in &timings {
        println!("  {name:<14} ok  {}", format_duration(*elapsed));
    }
    // A linker that runs out of disk dies of SIGBUS, not of a clear message.
    println!("  {}", util::disk_report(root));
    match &outcome {
        Ok(()) => println!("all stages passed"),
        Err(message) => println!("FAILED: {message}"),
    }
    outcome
}

/// Unit and integration tests of the whole workspace; integration tests find
/// the peers through `MCPG_PEERS` and must not skip (`MCPG_REQUIRE_PEERS=1`).
///
/// The rmcp peer is built first and handed over as `MCPG_RMCP_PEER`: left to the
/// tests, its link ran while dozens of peers were running, and once died there
/// (`ld` killed by SIGBUS) and failed six tests that had nothing to do with it.
fn native_tests(root: &Path) -> Result<()> {
    let peers = root.join("tests").join("peers");
    util::run(command(util::cargo(), root).args(["build", "-p", "rmcp-peer"]))?;
    let rmcp = util::target_dir(root).join("debug").join("rmcp-peer");
    if !rmcp.is_file() {
        return Err(format!(
            "the rmcp peer was built but {} is missing",
            rmcp.display()
        ));
    }
    util::run(
        command(util::cargo(), root)
            .args(["test", "--workspace"])
            .env("MCPG_PEERS", &peers)
            .env("MCPG_RMCP_PEER", &rmcp)
            .env("MCPG_REQUIRE_PEERS", "1"),
    )
}

/// Each package of [`WASM_PACKAGES`] tested in headless Chromium.
fn wasm_tests(root: &Path) -> Result<()> {
    let webdriver_json = root.join("tests").join("webdriver.json");
    if !webdriver_json.is_file() {
        return Err(format!("{} is missing", webdriver_json.display()));
    }
    for package in WASM_PACKAGES {
        // A renamed or removed package must not skip its wasm tests silently.
        if !package_exists(root, package) {
            return Err(format!(
                "WASM_PACKAGES names `{package}`, which is not in the workspace"
            ));
        }
        println!("wasm tests of `{package}`");
        // mcpg-http's browser run plays its cases against a real server, whose URL
        // is baked in at compile time; it must not skip.
        let server = match *package {
            "mcpg-http" => Some(CasesServer::start(root)?),
            _ => None,
        };
        let mut cmd = command(util::cargo(), root);
        if let Some(s) = &server {
            cmd.env("MCPG_HTTP_CASES_URL", &s.url)
                .env("MCPG_REQUIRE_PEERS", "1");
        }
        // No `-q`: wasm-bindgen-test-runner rejects `--quiet`.
        util::run(
            cmd.args(["test", "-p", package, "--target", "wasm32-unknown-unknown"])
                .env(
                    "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
                    "wasm-bindgen-test-runner",
                )
                .env("CHROMEDRIVER", "/usr/bin/chromedriver")
                .env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", &webdriver_json),
        )?;
    }
    Ok(())
}

/// Whether the workspace has a package of that name (`cargo pkgid` fails if not).
pub fn package_exists(root: &Path, package: &str) -> bool {
    util::probe(command(util::cargo(), root).args(["pkgid", package])).is_some()
}
