//! Splitting the page's wasm at its Leptos `#[lazy]` functions
//! (`wasm_split_cli_support`): the main module, which wasm-bindgen then
//! processes, plus one chunk per lazy group and the link module
//! (`__wasm_split.js`) that fetches and instantiates a chunk the first time one
//! of its functions is called (the glue imports a shim in its place, which loads
//! it then: `link_shim.rs`); each chunk carries the read-only data its code
//! uses (checked: `split_data.rs`). The input must carry relocations
//! (`--emit-relocs`) and symbols: see `compile` in `mod.rs`.

use std::fs;
use std::path::{Path, PathBuf};

use super::link_shim::LINK_NAME;
use super::pack::{PACK_FN, Packer};
use crate::util::Result;

/// What the split wrote.
#[derive(Debug)]
pub struct Split {
    /// The main module, for wasm-bindgen.
    pub main: PathBuf,
    /// The lazily loaded chunks (`*.wasm` beside the link module).
    pub chunks: Vec<PathBuf>,
    /// The link module, or `None` when the module has no split point.
    pub link: Option<PathBuf>,
    /// For each pack of [`super::pack::PACKS`], the file stems it carries (its
    /// split functions' own chunks and every chunk they share), in the split's
    /// order; empty when there is no such split.
    pub packed: Vec<Vec<String>>,
}

/// Splits `wasm` into `dir`. `glue` is the file name wasm-bindgen gives its JS
/// glue: the link module imports `initSync` from `./{glue}`.
pub fn split(wasm: &Path, dir: &Path, glue: &str) -> Result<Split> {
    let input = fs::read(wasm).map_err(|e| format!("{}: {e}", wasm.display()))?;
    super::files::create_dir(dir)?;
    let main = dir.join("main.wasm");
    let main_module = format!("./{glue}");
    let link_name = format!("./{LINK_NAME}");
    let mut options = wasm_split_cli_support::Options::new(&input);
    options.output_dir = dir;
    options.main_out_path = &main;
    options.link_name = &link_name;
    options.main_module = &main_module;
    options.target.web();
    let result = wasm_split_cli_support::transform(options)
        .map_err(|e| format!("wasm split of {}: {e:#}", wasm.display()))?;
    let mut chunk_data = Vec::new();
    for chunk in &result.split_modules {
        let bytes = fs::read(chunk).map_err(|e| format!("{}: {e}", chunk.display()))?;
        chunk_data.push(super::split_data::data_bytes(&bytes)?);
    }
    super::split_data::check_moved(&chunk_data)?;
    let main_bytes = fs::read(&main).map_err(|e| format!("{}: {e}", main.display()))?;
    super::split_data::check_room_dropped(&main_bytes)?;
    let link = dir.join(LINK_NAME);
    let packed = super::pack::stems(&result.prefetch_map);
    Ok(Split {
        main,
        chunks: result.split_modules,
        link: link.is_file().then_some(link),
        packed,
    })
}

/// A file of the page: its hashed name and its bytes.
pub type Named = (String, Vec<u8>);

/// The split page under content-hashed names, with every reference between its
/// files rewritten to those names (all relative, `./`, so any path prefix works).
#[derive(Debug)]
pub struct Renamed {
    /// wasm-bindgen's glue (`mcpg-web-HASH.js`).
    pub glue: Named,
    /// What the glue imports as the link module (`__wasm_split-HASH.js`), when
    /// there is one: the shim that loads the real one when first needed.
    pub link: Option<Named>,
    /// The files loaded later: the chunks (`STEM-HASH.wasm`) and the split's
    /// link module (`__wasm_split_chunks-HASH.js`).
    pub chunks: Vec<Named>,
}

/// Names the glue, the link module and the chunks by content. `glue_stem` is the
/// glue's name without `.js`; `chunks` are (file name as the split wrote it,
/// optimized bytes); the chunks whose stems are in `packed` become one file per
/// pack, named after its split function (see `pack.rs`). The glue and the link module import each
/// other, so both take one hash over both texts: a change to either renames both.
pub fn rename(
    glue_stem: &str,
    glue: &str,
    link: Option<&str>,
    chunks: Vec<(String, Vec<u8>)>,
    packed: &[Vec<String>],
) -> Result<Renamed> {
    let Some(link) = link else {
        let name = super::page::hashed_name(glue_stem, "js", glue.as_bytes());
        return Ok(Renamed {
            glue: (name, glue.as_bytes().to_vec()),
            link: None,
            chunks: Vec::new(),
        });
    };
    let mut link = without_comment_lines(link);
    let mut named = Vec::new();
    let mut packer = Packer::default();
    for (file, bytes) in chunks {
        let stem = file
            .strip_suffix(".wasm")
            .ok_or_else(|| format!("wasm split: chunk {file} is not a .wasm"))?;
        if let Some(pack) = super::pack::pack_of(packed, stem) {
            link = replace_once(
                &link,
                &format!("fetch(new URL(\"./{file}\", import.meta.url))"),
                &format!("{PACK_FN}(\"{stem}\")"),
            )?;
            packer.add(pack, stem, &bytes);
            continue;
        }
        let hashed = super::page::hashed_name(stem, "wasm", &bytes);
        link = replace_once(&link, &format!("\"./{file}\""), &format!("\"./{hashed}\""))?;
        named.push((hashed, bytes));
    }
    // The shim starts the first pack's fetch (the one a first Step waits for).
    let mut pack_name = None;
    if let Some(packs) = packer.finish()? {
        link = format!("{}{link}", packs.loader);
        pack_name = Some(packs.first);
        named.extend(packs.files);
    }
    let hash = crate::util::fingerprint(format!("{glue}\n{link}").as_bytes());
    let link_stem = LINK_NAME.trim_end_matches(".js");
    let glue_name = format!("{glue_stem}-{hash}.js");
    let link_name = format!("{link_stem}-{hash}.js");
    let later_name = format!("{link_stem}_chunks-{hash}.js");
    let mut link = replace_once(
        &link,
        &format!("\"./{glue_stem}.js\""),
        &format!("\"./{glue_name}\""),
    )?;
    if pack_name.is_some() {
        // The pack loader takes the first pack's fetch that the shim started.
        link = replace_once(
            &link,
            &format!("\"./{LINK_NAME}\""),
            &format!("\"./{link_name}\""),
        )?;
    }
    // The glue imports a shim under the link module's name; the link module itself
    // loads when a lazy part is first needed (see link_shim).
    let loaders = super::link_shim::loaders(&link)?;
    let shim = super::link_shim::shim(&glue_name, &later_name, &loaders, pack_name.as_deref());
    named.push((later_name, link.into_bytes()));
    // wasm-bindgen imports the module once per imported function; only the
    // `from` URLs change (the imports object keeps the wasm's module name).
    let from = format!("from \"./{LINK_NAME}\"");
    if !glue.contains(&from) {
        return Err(format!(
            "wasm split: the glue does not import {from}; did wasm-bindgen change?"
        ));
    }
    let glue = glue.replace(&from, &format!("from \"./{link_name}\""));
    Ok(Renamed {
        glue: (glue_name, glue.into_bytes()),
        link: Some((link_name, shim.into_bytes())),
        chunks: named,
    })
}

/// `text` without its whole-line `/* … */` comments: the generator writes one per
/// chunk, listing the split functions that share it (~1 KB of brotli in the first
/// load, read by nobody but a person debugging the split).
fn without_comment_lines(text: &str) -> String {
    text.lines()
        .filter(|line| {
            let line = line.trim();
            !(line.starts_with("/*") && line.ends_with("*/"))
        })
        .fold(String::with_capacity(text.len()), |mut out, line| {
            out.push_str(line);
            out.push('\n');
            out
        })
}

/// `text` with its one `from` replaced by `to`; an error when `from` is not
/// there exactly once (a tool's output changed shape: better no page than one
/// that fetches a missing file).
fn replace_once(text: &str, from: &str, to: &str) -> Result<String> {
    match text.matches(from).count() {
        1 => Ok(text.replacen(from, to, 1)),
        n => Err(format!(
            "wasm split: expected {from} once in the generated JS, found it {n} times"
        )),
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::super::link_shim::TAKE_PACK;
    use super::super::pack::PACKS;
    use super::*;

    const GLUE: &str = "import * as import1 from \"./__wasm_split.js\"\n\
        import * as import2 from \"./__wasm_split.js\"\n\
        imports = { \"./__wasm_split.js\": import1 };\n";
    const LINK: &str = "import { initSync } from \"./mcpg-web.js\";\n\
        /* share, later */\n\
        fetch(new URL(\"./chunk_1.wasm\", import.meta.url));\n\
        fetch(new URL(\"./split_share_9.wasm\", import.meta.url));\n\
        export const __wasm_split_load_share = load;\n";

    /// The renamed link module (loaded later, beside the chunks) and the names of
    /// the other later files.
    fn later(r: &Renamed) -> (String, Vec<&str>) {
        let mut link = None;
        let mut names = Vec::new();
        for (name, bytes) in &r.chunks {
            if name.starts_with("__wasm_split_chunks-") {
                link = Some(String::from_utf8(bytes.clone()).unwrap());
            } else {
                names.push(name.as_str());
            }
        }
        (link.unwrap(), names)
    }

    fn chunks() -> Vec<(String, Vec<u8>)> {
        vec![
            ("chunk_1.wasm".into(), b"one".to_vec()),
            ("split_share_9.wasm".into(), b"two".to_vec()),
        ]
    }

    #[test]
    fn every_reference_follows_the_hashed_names() {
        let r = rename("mcpg-web", GLUE, Some(LINK), chunks(), &[]).unwrap();
        let (glue_name, glue) = (&r.glue.0, String::from_utf8(r.glue.1.clone()).unwrap());
        let (link_name, shim) = r.link.clone().unwrap();
        let shim = String::from_utf8(shim).unwrap();
        let (link, names) = later(&r);
        assert!(glue_name.starts_with("mcpg-web-") && glue_name.ends_with(".js"));
        assert_eq!(
            link_name,
            glue_name.replace("mcpg-web-", "__wasm_split-"),
            "one hash over both"
        );
        // Both `from`s point at the hashed link module; the imports object keeps
        // the wasm's own module name.
        assert_eq!(glue.matches(&format!("from \"./{link_name}\"")).count(), 2);
        assert!(
            glue.contains("{ \"./__wasm_split.js\": import1 }"),
            "{glue}"
        );
        assert!(link.contains(&format!("from \"./{glue_name}\"")), "{link}");
        // What the glue imports is the shim, which names the link module only for
        // a later import.
        assert!(shim.contains(&format!("from \"./{glue_name}\"")), "{shim}");
        let later_name = link_name.replace("__wasm_split-", "__wasm_split_chunks-");
        assert!(shim.contains(&format!("\"./{later_name}\"")), "{shim}");
        assert!(shim.contains("export const __wasm_split_load_share = lazy(\"share\");"));
        assert!(
            !link.contains("/*"),
            "the generator's comment lines go: {link}"
        );
        assert_eq!(
            names[0],
            super::super::page::hashed_name("chunk_1", "wasm", b"one")
        );
        for name in names {
            assert!(link.contains(&format!("new URL(\"./{name}\"")), "{link}");
        }
        let other = rename(
            "mcpg-web",
            GLUE,
            Some(&LINK.replace("URL", "URL ")),
            chunks(),
            &[],
        );
        assert_ne!(
            other.unwrap().glue.0,
            *glue_name,
            "the link's text is hashed too"
        );
    }

    #[test]
    fn output_of_an_unexpected_shape_fails_the_build() {
        let no_import = rename("mcpg-web", "nothing", Some(LINK), chunks(), &[]).unwrap_err();
        assert!(no_import.contains("does not import"), "{no_import}");
        let mut missing = chunks();
        missing.push(("chunk_2.wasm".into(), b"x".to_vec()));
        let err = rename("mcpg-web", GLUE, Some(LINK), missing, &[]).unwrap_err();
        assert!(err.contains("found it 0 times"), "{err}");
        let plain = rename("mcpg-web", GLUE, None, Vec::new(), &[]).unwrap();
        assert!(plain.link.is_none() && plain.chunks.is_empty());
    }

    #[test]
    fn packed_chunks_travel_as_one_file_named_after_the_split() {
        let packed = [vec!["chunk_1".to_owned()]];
        let r = rename("mcpg-web", GLUE, Some(LINK), chunks(), &packed).unwrap();
        let (link, names) = later(&r);
        let pack = super::super::page::hashed_name(PACKS[0].0, "wasm", b"one");
        assert_eq!(
            names,
            [
                super::super::page::hashed_name("split_share_9", "wasm", b"two"),
                pack.clone()
            ]
        );
        // The packed chunk is fetched through the pack, by its stem and byte range.
        assert!(link.contains("__mcpgPack(\"chunk_1\")"), "{link}");
        assert!(
            !link.contains("chunk_1.wasm") && !link.contains("chunk_1-"),
            "{link}"
        );
        assert!(link.contains("\"chunk_1\":[0,0,3]"), "{link}");
        assert!(link.contains(&format!("[\"./{pack}\"]")), "{link}");
        // The shim starts the pack's fetch beside the link module's import, and the
        // link module takes it from the shim.
        let (shim_name, shim) = r.link.clone().unwrap();
        let shim = String::from_utf8(shim).unwrap();
        assert!(
            shim.contains(&format!("new URL(\"./{pack}\", import.meta.url)")),
            "{shim}"
        );
        assert!(
            link.contains(&format!("import {{ {TAKE_PACK} }} from \"./{shim_name}\";")),
            "{link}"
        );
        // A stem the link module does not fetch exactly once fails the build.
        let twice = LINK.replace("split_share_9", "chunk_1");
        assert!(rename("mcpg-web", GLUE, Some(&twice), chunks(), &packed).is_err());
    }
}
