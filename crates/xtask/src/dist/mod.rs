//! `cargo xtask dist [--out DIR]`: the release page as static files.
//!
//! cargo builds `mcpg-web` for wasm32, `wasm-bindgen --target web` writes the JS
//! glue, binaryen's `wasm-opt` shrinks the modules; the files get
//! content-hashed names, `index.html` at the top (a template) becomes `index.html` with
//! relative URLs only, and every compressible file gets `.gz` and `.br` siblings.
//! The build prints each file's raw/gzip/brotli size, writes them to
//! `build-info.json`, and fails when the brotli bytes loaded before the first
//! tool list exceed `web/first-load-ceiling.txt`. No Trunk: only the tools the
//! tests install anyway.

mod figures;
mod files;
mod link_shim;
mod pack;
mod page;
mod short_imports;
mod split;
mod split_data;
mod tools;
mod wasm_opt;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::util::{self, Result, command};
use figures::FileFigure;
use files::{BUILD_INFO, Replace, files_under, read_text, reset, write};
use page::Assets;

/// What `wasm-bindgen --out-name` calls the glue and the module.
const OUT_NAME: &str = "mcpg-web";

/// `cargo xtask dist [--out DIR]`.
pub fn command_line(root: &Path, args: &[String]) -> Result<()> {
    let out = match args {
        [] => default_out(root),
        // Relative to where the command was typed, as a person expects.
        [flag, dir] if flag == "--out" => std::env::current_dir()
            .map_err(|e| format!("no current directory: {e}"))?
            .join(dir),
        _ => return Err("usage: cargo xtask dist [--out DIR]".to_owned()),
    };
    build(root, &out, Ceiling::Enforce)
}

/// What a first load above `web/first-load-ceiling.txt` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ceiling {
    /// Fails the build (`dist`, and `e2e`, which CI runs).
    Enforce,
    /// Says so and goes on (`play`: a contributor mid-change still gets a page).
    Warn,
}

/// `dist/` at the repository root, where `mcpg serve` looks by default.
pub fn default_out(root: &Path) -> PathBuf {
    root.join("dist")
}

/// Installs what is missing, then builds the page into `out`.
pub fn build(root: &Path, out: &Path, ceiling_rule: Ceiling) -> Result<()> {
    tools::prepare(root)?;
    let start = Instant::now();
    let stage = util::target_dir(root).join("dist-stage");
    reset(&stage, Replace::Always)?;
    let wasm = compile(root)?;
    let parts = split::split(&wasm, &stage.join("split"), &format!("{OUT_NAME}.js"))?;
    bindgen(root, &parts.main, &stage)?;
    let mut inputs = vec![stage.join(format!("{OUT_NAME}_bg.wasm"))];
    inputs.extend(parts.chunks.iter().cloned());
    let optimized = wasm_opt::optimize(root, &inputs)?;
    let replace = if out == default_out(root) {
        Replace::Always
    } else {
        Replace::IfEmptyOrBuilt
    };
    reset(out, replace)?;
    let first_load = assemble(root, &stage, &parts, &optimized, out)?;
    let ceiling = figures::parse_ceiling(&read_text(&root.join("web/first-load-ceiling.txt"))?)?;
    let files = compress_all(out, &first_load)?;
    print!("{}", figures::table(&files, ceiling));
    let info = figures::build_info(&files, ceiling);
    let text = serde_json::to_string_pretty(&info).map_err(|e| e.to_string())?;
    write(&out.join(BUILD_INFO), text.as_bytes())?;
    siblings(&out.join(BUILD_INFO))?;
    println!(
        "dist: {} built in {}",
        out.display(),
        util::format_duration(start.elapsed())
    );
    match (figures::check_ceiling(&files, ceiling), ceiling_rule) {
        (Err(message), Ceiling::Warn) => {
            println!("dist: WARNING: {message}");
            Ok(())
        }
        (outcome, _) => outcome,
    }
}

/// `cargo build --release` of the page for wasm32; returns the module. The
/// split needs the linker's relocations and the symbols, so this build keeps
/// both (`cargo rustc` passes the flags to the page crate only, where the link
/// happens, so no dependency rebuilds); wasm-opt strips them afterwards.
fn compile(root: &Path) -> Result<PathBuf> {
    util::run(command(util::cargo(), root).args([
        "rustc",
        "--release",
        "--locked",
        "--target",
        "wasm32-unknown-unknown",
        "-p",
        "mcpg-web",
        "--lib",
        "--",
        "-C",
        "link-arg=--emit-relocs",
        "-C",
        "strip=none",
    ]))?;
    let wasm = util::target_dir(root)
        .join("wasm32-unknown-unknown")
        .join("release")
        .join("mcpg_web.wasm");
    if wasm.is_file() {
        Ok(wasm)
    } else {
        Err(format!("{} was not built", wasm.display()))
    }
}

/// `wasm-bindgen --target web --no-typescript --keep-lld-exports` of the split's
/// main module into `stage` (`mcpg-web.js`, `mcpg-web_bg.wasm`, and `snippets/`
/// if a crate ships inline JS), through the CLI's own library with the CLI's
/// settings for those flags, so the files are the CLI's byte for byte.
fn bindgen(root: &Path, wasm: &Path, stage: &Path) -> Result<()> {
    tools::check_bindgen_library(root)?;
    let fail = |e| bindgen_error(wasm, &e);
    let mut b = wasm_bindgen_cli_support::Bindgen::new();
    b.web(true).map_err(fail)?;
    #[allow(deprecated)] // Set as the CLI sets it (its default, off).
    b.reference_types(false);
    b.input_path(wasm)
        .out_name(OUT_NAME)
        .typescript(false)
        // The split's chunks import the main module's function table, which
        // wasm-bindgen otherwise un-exports as an unused linker export.
        .keep_lld_exports(true)
        // The CLI's defaults for every flag not given.
        .debug(false)
        .demangle(true)
        .keep_debug(false)
        .split_debug_info(false)
        .remove_name_section(false)
        .remove_producers_section(false)
        .omit_imports(false)
        .omit_default_module_path(false)
        .split_linked_modules(false)
        .js_string_builtins(false)
        .ts_typed_array_buffers(false)
        .reset_state_function(false)
        .force_enable_abort_handler(false);
    b.generate(stage).map_err(fail)
}

/// wasm-bindgen's error (an `anyhow::Error`, printed with its causes).
fn bindgen_error(wasm: &Path, e: &impl std::fmt::Display) -> String {
    format!("wasm-bindgen of {}: {e:#}", wasm.display())
}

/// Writes the page into `out` under hashed names and returns the files the
/// browser loads before the first tool list (relative to `out`).
/// `optimized` is the main module then the chunks, as `parts` lists them.
fn assemble(
    root: &Path,
    stage: &Path,
    parts: &split::Split,
    optimized: &[PathBuf],
    out: &Path,
) -> Result<Vec<String>> {
    let read = |path: &Path| fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    let js = read_text(&stage.join(format!("{OUT_NAME}.js")))?;
    let link = parts.link.as_deref().map(read_text).transpose()?;
    let (main, chunk_files) = optimized
        .split_first()
        .ok_or("wasm-opt gave no main module")?;
    let mut chunks = Vec::new();
    for (split_path, optimized) in parts.chunks.iter().zip(chunk_files) {
        let name = split_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or("a chunk without a file name")?;
        chunks.push((name, read(optimized)?));
    }
    // The glue's imports get short names on both sides before anything is named
    // by its content (see short_imports).
    let (wasm, js) = short_imports::shorten(&read(main)?, &js)?;
    let renamed = split::rename(OUT_NAME, &js, link.as_deref(), chunks, &parts.packed)?;
    let wasm_name = page::hashed_name(OUT_NAME, "wasm", &wasm);
    let boot = page::boot_module(&renamed.glue.0, &wasm_name)?;
    let assets = Assets {
        js: renamed.glue.0.clone(),
        wasm: wasm_name,
        boot: page::hashed_name("boot", "js", boot.as_bytes()),
        link: renamed.link.as_ref().map(|(name, _)| name.clone()),
    };
    write(&out.join(&assets.js), &renamed.glue.1)?;
    write(&out.join(&assets.wasm), &wasm)?;
    write(&out.join(&assets.boot), boot.as_bytes())?;
    let mut first_load = vec![
        "index.html".to_owned(),
        assets.boot.clone(),
        assets.js.clone(),
        assets.wasm.clone(),
    ];
    // The glue imports the link module's shim statically, so it loads with it; the
    // link module and the chunks load when a lazy function first runs.
    if let Some((name, bytes)) = &renamed.link {
        write(&out.join(name), bytes)?;
        first_load.push(name.clone());
    }
    for (name, bytes) in &renamed.chunks {
        write(&out.join(name), bytes)?;
    }
    // `{{file:web/PATH}}`: web/PATH copied to dist/PATH under a hashed name;
    // index.html loads it.
    let web = root.join("web");
    let copy = |path: &str| -> Result<String> {
        let rel = copy_hashed(&web, out, page::check_file_path(path)?)?;
        first_load.push(rel.clone());
        Ok(rel)
    };
    let html = page::render(&read_text(&root.join("index.html"))?, &assets, copy)?;
    write(&out.join("index.html"), html.as_bytes())?;
    // The glue imports its snippets statically, so they load with it.
    let snippets = stage.join("snippets");
    if snippets.is_dir() {
        for rel in files_under(&snippets)? {
            let to = out.join("snippets").join(&rel);
            let from = snippets.join(&rel);
            write(
                &to,
                &fs::read(&from).map_err(|e| format!("{}: {e}", from.display()))?,
            )?;
            first_load.push(format!("snippets/{rel}"));
        }
    }
    // The service worker keeps its name (browsers look it up by URL) and is
    // registered after the page runs, so it is not part of the first load.
    let sw = root.join("web/sw.js");
    if sw.is_file() {
        fs::copy(&sw, out.join("sw.js")).map_err(|e| format!("web/sw.js: {e}"))?;
    }
    // The OAuth redirect's landing page (issue 15) and its script (a file: the
    // page's policy runs no inline script, issue 26): the authorization server
    // sends the browser to this fixed name, so neither is hashed; they load only in
    // the sign-in window, never in the first load.
    // The frame MCP Apps' views run in (issue 29), loaded sandboxed, by its fixed
    // name, only when a tool's view is hosted.
    for name in ["oauth-callback.html", "oauth-callback.js", "app-frame.html"] {
        let from = root.join("web").join(name);
        if from.is_file() {
            fs::copy(&from, out.join(name)).map_err(|e| format!("web/{name}: {e}"))?;
        }
    }
    Ok(first_load)
}

/// Copies `web/PATH` into `out` under its hashed name (same folder); returns
/// that name relative to `out`.
fn copy_hashed(web: &Path, out: &Path, path: &str) -> Result<String> {
    let bytes = fs::read(web.join(path)).map_err(|e| format!("web/{path}: {e}"))?;
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let (stem, ext) = name
        .rsplit_once('.')
        .ok_or_else(|| format!("web/{path}: a file needs an extension to be hashed"))?;
    let hashed = page::hashed_name(stem, ext, &bytes);
    let rel = if dir.is_empty() {
        hashed
    } else {
        format!("{dir}/{hashed}")
    };
    write(&out.join(&rel), &bytes)?;
    Ok(rel)
}

/// Writes `.gz` and `.br` beside every compressible file and returns every
/// file's figures, sorted by name.
fn compress_all(out: &Path, first_load: &[String]) -> Result<Vec<FileFigure>> {
    let mut files = Vec::new();
    for name in files_under(out)? {
        let path = out.join(&name);
        let raw = fs::metadata(&path).map_err(|e| e.to_string())?.len();
        let (gzip, brotli) = if figures::compressible(&name) {
            siblings(&path)?
        } else {
            (raw, raw)
        };
        let first_load = first_load.contains(&name);
        files.push(FileFigure {
            name,
            raw,
            gzip,
            brotli,
            first_load,
        });
    }
    Ok(files)
}

/// Writes `path.gz` and `path.br`; returns their sizes.
fn siblings(path: &Path) -> Result<(u64, u64)> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let gz = figures::gzip(&bytes)?;
    let br = figures::brotli(&bytes)?;
    let with = |ext: &str, data: &[u8]| {
        let mut name = path.as_os_str().to_owned();
        name.push(ext);
        write(Path::new(&name), data)
    };
    with(".gz", &gz)?;
    with(".br", &br)?;
    Ok((gz.len() as u64, br.len() as u64))
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    #[test]
    fn a_linked_file_is_copied_under_its_hashed_name_in_its_folder() {
        let tmp = std::env::temp_dir().join(format!("xtask-dist-copy-{}", std::process::id()));
        let (web, out) = (tmp.join("web"), tmp.join("out"));
        fs::create_dir_all(web.join("img")).unwrap();
        fs::create_dir_all(&out).unwrap();
        fs::write(web.join("img/logo.svg"), "<svg/>").unwrap();
        fs::write(web.join("LICENSE"), "x").unwrap();
        let rel = copy_hashed(&web, &out, "img/logo.svg").unwrap();
        assert_eq!(
            rel,
            format!("img/{}", page::hashed_name("logo", "svg", b"<svg/>"))
        );
        assert_eq!(fs::read(out.join(&rel)).unwrap(), b"<svg/>");
        assert!(
            copy_hashed(&web, &out, "LICENSE")
                .unwrap_err()
                .contains("extension")
        );
        assert!(
            copy_hashed(&web, &out, "missing.css")
                .unwrap_err()
                .contains("web/missing.css")
        );
        assert!(copy_hashed(&web, &out, "../web/LICENSE").is_err());
        fs::remove_dir_all(&tmp).unwrap();
    }
}
