//! Fuzz targets for every parser that reads what a server, an authorization server
//! or a pasted link hands the playground. Each target is a plain function of the
//! input bytes that panics when a property breaks; `src/bin/<target>.rs` wraps it
//! as an AFL++ persistent-mode fuzzer (`--features afl`, built by `cargo afl build`)
//! or, without the feature, as a program that runs files (or stdin) once, which is
//! how a crash is reproduced: `cargo run -p mcpg-fuzz --bin <target> -- <file>`.
//!
//! `cargo xtask fuzz` builds and runs them; `corpus/<target>/` holds the seeds.

// A target reports a broken property by panicking: that is what the fuzzer sees.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

pub mod targets;

/// A fuzz target: bytes in, a panic when a property does not hold.
pub type Target = fn(&[u8]);

/// Every target by name (the names of `src/bin/*.rs` and of `corpus/*`).
pub const TARGETS: &[(&str, Target)] = &[
    ("frame", targets::frame),
    ("sse", targets::sse),
    ("session", targets::session),
    ("uri_template", targets::uri_template),
    ("www_authenticate", targets::www_authenticate),
    ("auth_flow", targets::auth_flow),
    ("safe_url", targets::safe_url),
];

/// The `main` of each target's binary: under AFL++ (feature `afl`), the persistent
/// fuzzing loop; otherwise runs the target once on each file named on the command
/// line, or on standard input when none is.
pub fn main(target: Target) {
    #[cfg(feature = "afl")]
    afl::fuzz(true, target);
    #[cfg(not(feature = "afl"))]
    run_once(target);
}

#[cfg(not(feature = "afl"))]
fn run_once(target: Target) {
    use std::io::Read as _;

    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        let mut input = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut input) {
            // Not a broken property: say so and exit, no panic for the fuzzer to see.
            eprintln!("cannot read standard input: {e}");
            std::process::exit(2);
        }
        target(&input);
        return;
    }
    for file in files {
        let input = match std::fs::read(&file) {
            Ok(input) => input,
            Err(e) => {
                eprintln!("cannot read {file}: {e}");
                std::process::exit(2);
            }
        };
        eprintln!("{file}: {} bytes", input.len());
        target(&input);
    }
    eprintln!("ok: no property broke");
}
