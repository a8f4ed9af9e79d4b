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
