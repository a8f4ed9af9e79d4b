//! The tools the page's build needs, installed when missing: the wasm32 target and
//! binaryen's `wasm-opt` 132 from npm (Debian's binaryen 108 produces a page that
//! dies at load). wasm-bindgen is a library inside xtask, checked here to equal
//! the crate the page links.

use std::path::{Path, PathBuf};

use crate::install;
use crate::util::{self, Result, command};

/// The binaryen release whose `wasm-opt` produces a working page.
const WASM_OPT_VERSION: &str = "version 132";

/// Installs what is missing and checks the versions of what is there.
pub fn prepare(root: &Path) -> Result<()> {
    println!("dist: checking what the page's build needs");
    install::item("rustup target wasm32-unknown-unknown", |name| {
        install::rust_target(root, name)
    })?;
    install::item(
        "npm peers in tests/peers/node (binaryen's wasm-opt)",
        |name| install::npm_folder(&root.join("tests").join("peers").join("node"), name),
    )?;
    let found = util::probe(command(wasm_opt(root), root).arg("--version")).unwrap_or_default();
    if !found.contains(WASM_OPT_VERSION) {
        return Err(format!(
            "{} is not binaryen {WASM_OPT_VERSION} (found {:?}); check tests/peers/node/package.json",
            wasm_opt(root).display(),
            found.trim()
        ));
    }
    Ok(())
}

/// Checks that the wasm-bindgen library built into xtask (pinned with `=` in its
/// Cargo.toml) equals the `wasm-bindgen` crate the page links, both as Cargo.lock
/// records them: mismatched glue fails at the page's load.
pub fn check_bindgen_library(root: &Path) -> Result<()> {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    same_bindgen(&lock)
}

fn same_bindgen(lock: &str) -> Result<()> {
    let page = install::locked_version(lock, "wasm-bindgen");
    let library = install::locked_version(lock, "wasm-bindgen-cli-support");
    match (page, library) {
        (Some(page), Some(library)) if page == library => Ok(()),
        (page, library) => Err(format!(
            "Cargo.lock has wasm-bindgen {page:?} and wasm-bindgen-cli-support {library:?}: \
             pin the second (crates/xtask/Cargo.toml) to the first"
        )),
    }
}

/// `tests/peers/node/node_modules/.bin/wasm-opt`, where npm puts binaryen's.
pub fn wasm_opt(root: &Path) -> PathBuf {
    root.join("tests")
        .join("peers")
        .join("node")
        .join("node_modules")
        .join(".bin")
        .join("wasm-opt")
}

/// binaryen.js's module (`tests/peers/node/node_modules/binaryen/index.js`), the
/// same release as the CLI beside it.
pub fn binaryen_js(root: &Path) -> PathBuf {
    root.join("tests")
        .join("peers")
        .join("node")
        .join("node_modules")
        .join("binaryen")
        .join("index.js")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_bindgen_library_is_the_pages_wasm_bindgen() {
        let lock = std::fs::read_to_string(crate::util::repo_root().join("Cargo.lock")).unwrap();
        same_bindgen(&lock).unwrap();
    }

    #[test]
    fn a_mismatched_bindgen_library_is_refused() {
        let lock = "[[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n\n\
                    [[package]]\nname = \"wasm-bindgen-cli-support\"\nversion = \"0.2.129\"\n";
        let e = same_bindgen(lock).unwrap_err();
        assert!(e.contains("0.2.129"), "{e}");
    }
}
