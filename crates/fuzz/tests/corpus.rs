//! Every seed of every target's corpus runs through the target in a plain
//! `cargo test`: the targets' properties hold on real examples without AFL++, and a
//! seed that no longer parses the way it did is noticed before a fuzzing run.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

#[test]
fn every_seed_passes_its_target() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for (name, target) in mcpg_fuzz::TARGETS {
        let dir = corpus.join(name);
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            let input = std::fs::read(&path).unwrap();
            // A panic names the target; the test harness prints the seed's path too.
            eprintln!("{}", path.display());
            target(&input);
            seen += 1;
        }
        assert!(seen > 0, "{name} has no seeds");
    }
}

#[test]
fn every_target_has_a_binary_and_a_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, _) in mcpg_fuzz::TARGETS {
        assert!(
            root.join("src/bin").join(format!("{name}.rs")).is_file(),
            "{name}"
        );
        assert!(root.join("corpus").join(name).is_dir(), "{name}");
    }
}

#[test]
fn the_hostile_seed_is_refused_before_any_sign_in() {
    // The `hostile_as` seed's metadata names a `javascript:` authorization endpoint:
    // the flow must stop with the URL rule, never hand the URL out.
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/auth_flow/hostile_as");
    let text = std::fs::read_to_string(seed).unwrap();
    let run = mcpg_fuzz::targets::run_auth_flow(&text);
    assert!(run.authorize_urls.is_empty(), "{:?}", run.authorize_urls);
    assert!(
        run.failures
            .iter()
            .any(|e| matches!(e, mcpg_auth::AuthError::UnsafeUrl { .. })),
        "{:?}",
        run.failures
    );
}
