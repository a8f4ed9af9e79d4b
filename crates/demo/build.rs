//! Minifies `src/tools.json` into `OUT_DIR`: the pretty file is what a person reads
//! and edits, and the page embeds the demo, so every byte of whitespace would be
//! downloaded before the first tool list (about 170 bytes of brotli, measured
//! December 2026). Parsing here also turns a malformed edit into a build error.

use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo::rerun-if-changed=src/tools.json");
    if let Err(e) = minify("src/tools.json", "tools.min.json") {
        // cargo shows a failed build script's stderr.
        eprintln!("mcpg-demo build: {e}");
        std::process::exit(1);
    }
}

fn minify(source: &str, name: &str) -> Result<(), String> {
    let text = fs::read_to_string(source).map_err(|e| format!("{source}: {e}"))?;
    // serde_json keeps key order (the workspace enables `preserve_order`), so the
    // tools go on the wire in the order the file gives.
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{source} is not JSON: {e}"))?;
    let out = PathBuf::from(env::var("OUT_DIR").map_err(|e| format!("OUT_DIR: {e}"))?);
    let min = serde_json::to_string(&value).map_err(|e| e.to_string())?;
    fs::write(out.join(name), min).map_err(|e| format!("{name}: {e}"))
}
