//! The tools the page's build needs, installed when missing: the wasm32 target,
//! `wasm-bindgen-cli` equal to the crate in Cargo.lock, and binaryen's `wasm-opt`
//! 132 from npm (Debian's binaryen 108 produces a page that dies at load).

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
    let version = install::wasm_bindgen_version(root);
    install::item(&format!("wasm-bindgen-cli {version}"), |name| {
        install::wasm_bindgen_cli(root, &version, name)
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

/// `wasm-bindgen`, checked to equal the crate in Cargo.lock: a mismatched CLI
/// writes glue the module cannot use.
pub fn wasm_bindgen(root: &Path) -> Result<&'static str> {
    let want = install::wasm_bindgen_version(root);
    let found = util::probe(command("wasm-bindgen", root).arg("--version")).unwrap_or_default();
    // It prints `wasm-bindgen 0.2.130`.
    if found.split_whitespace().nth(1) == Some(want.as_str()) {
        Ok("wasm-bindgen")
    } else {
        Err(format!(
            "wasm-bindgen on PATH is {:?}, Cargo.lock wants {want}: run `cargo xtask install`",
            found.trim()
        ))
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
