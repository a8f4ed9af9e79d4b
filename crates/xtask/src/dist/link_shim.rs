//! The split's link module out of the first load.
//!
//! The glue imports the link module statically, because the main module imports
//! its loaders (`__wasm_split_load_NAME`). But none of them runs before the first
//! tool list: the link module's ~70 KB of generated JS (~4.8 KB brotli, December
//! 2026: a loader per chunk, each split function's list of chunks, the pack's
//! index) only weighed on that first load. So the glue now imports a shim that
//! exports the same loaders, each of which imports the real link module the first
//! time one runs and hands the call on.
//!
//! A loader's caller (the split runtime in the main module) waits for its callback
//! (a function table index and its data) to hear whether the chunk came. When the
//! link module itself cannot be fetched, the shim calls that callback with
//! `false`, as the link module does for a chunk, and the next call tries again,
//! under another query (a browser may keep a failed module import for the URL).

use crate::util::Result;

/// The link module's name, as the main module imports it and wasm-bindgen's glue
/// then does (`import … from "./__wasm_split.js"`).
pub const LINK_NAME: &str = "__wasm_split.js";

/// What the shim exports to hand over the pack's fetch it started; the link
/// module's pack loader (`split.rs`) imports it from the shim.
pub const TAKE_PACK: &str = "__mcpgTakePack";

/// The prefix of every loader the link module exports.
const LOADER: &str = "__wasm_split_load_";

/// The names of the loaders `link` (the split's link module) exports; an error
/// when it exports anything else, or nothing (the generator changed: better no
/// page than one whose shim misses a loader).
pub fn loaders(link: &str) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for line in link.lines().filter(|l| l.starts_with("export ")) {
        let name = line
            .strip_prefix("export const ")
            .and_then(|rest| rest.split_once(" = "))
            .map(|(name, _)| name)
            .filter(|name| name.starts_with(LOADER))
            .ok_or_else(|| format!("wasm split: the link module exports {line:?}, not a loader"))?;
        names.push(name.to_owned());
    }
    if names.is_empty() {
        return Err("wasm split: the link module exports no loader".to_owned());
    }
    Ok(names)
}

/// The shim's text: it imports `initSync` from `./{glue}` (to reach the function
/// table when it must report a failure) and the link module `./{link}` when a
/// loader first runs; it exports `loaders` (as [`loaders`] gives them). With a
/// `pack` (the file the later split's chunks travel in, `split.rs`), it starts that
/// file's fetch beside the link module's import, so the two requests are not one
/// after the other (each costs a round trip on a slow link), and hands it to the
/// link module's pack loader ([`TAKE_PACK`]); a fetch not taken when
/// the import fails is dropped, so the next try fetches anew.
pub fn shim(glue: &str, link: &str, loaders: &[String], pack: Option<&str>) -> String {
    let take = TAKE_PACK;
    let (start, take_fn, forget) = match pack {
        Some(pack) => (
            format!(
                "if (pack === undefined) {{ pack = fetch(new URL(\"./{pack}\", import.meta.url)); \
                 pack.catch(() => {{}}); }}\n"
            ),
            format!("export function {take}() {{ const p = pack; pack = null; return p; }}\n"),
            " if (pack) pack = undefined;",
        ),
        None => (String::new(), String::new(), ""),
    };
    let mut out = format!(
        "import {{ initSync }} from \"./{glue}\";\n\
         let linked, pack, tries = 0;\n\
         function link() {{\n\
         if (linked === undefined) {{\n\
         const url = new URL(\"./{link}\", import.meta.url);\n\
         if (tries++ > 0) url.search = `?try=${{tries}}`;\n\
         const p = import(url.href);\n\
         p.catch(() => {{ if (linked === p) {{ linked = undefined;{forget} }} }});\n\
         linked = p;\n\
         {start}\
         }}\n\
         return linked;\n\
         }}\n\
         {take_fn}\
         function lazy(name) {{\n\
         return (i, d) => link().then((m) => m[\"{LOADER}\" + name](i, d), (e) => {{\n\
         console.error(e);\n\
         initSync(undefined, undefined).__indirect_function_table.get(i)(d, false);\n\
         }});\n\
         }}\n"
    );
    for name in loaders {
        let short = name.strip_prefix(LOADER).unwrap_or(name);
        out.push_str(&format!("export const {name} = lazy(\"{short}\");\n"));
    }
    out
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    const LINK: &str = "import { initSync } from \"./mcpg-web-1.js\";\n\
        function makeLoad(f, deps) { return f; }\n\
        export const __wasm_split_load_mcpg_share = wrapAsyncCb(makeLoad(() => {\n\
        }, []));\n\
        export const __wasm_split_load_mcpg_later = wrapAsyncCb(makeLoad(() => {\n\
        }, []));\n";

    #[test]
    fn the_shim_exports_every_loader_and_imports_the_link_module_lazily() {
        let names = loaders(LINK).unwrap();
        assert_eq!(
            names,
            [
                "__wasm_split_load_mcpg_share",
                "__wasm_split_load_mcpg_later"
            ]
        );
        let text = shim("mcpg-web-1.js", "__wasm_split_chunks-1.js", &names, None);
        assert!(text.starts_with("import { initSync } from \"./mcpg-web-1.js\";\n"));
        assert!(
            text.contains("export const __wasm_split_load_mcpg_later = lazy(\"mcpg_later\");"),
            "{text}"
        );
        assert_eq!(text.matches("export const").count(), 2);
        // The link module is imported only from inside a function, never at the top.
        assert!(!text.contains("from \"./__wasm_split_chunks"), "{text}");
        assert!(
            text.contains("new URL(\"./__wasm_split_chunks-1.js\", import.meta.url)"),
            "{text}"
        );
    }

    #[test]
    fn with_a_pack_the_shim_starts_its_fetch_beside_the_import_and_hands_it_over() {
        let names = loaders(LINK).unwrap();
        let text = shim("g.js", "l.js", &names, Some("split_mcpg_later-1.wasm"));
        assert!(
            text.contains("pack = fetch(new URL(\"./split_mcpg_later-1.wasm\", import.meta.url))"),
            "{text}"
        );
        assert!(text.contains("export function __mcpgTakePack()"), "{text}");
        // Dropped when the import fails, so that the next try fetches anew.
        assert!(text.contains("if (pack) pack = undefined;"), "{text}");
        let plain = shim("g.js", "l.js", &names, None);
        assert!(
            !plain.contains("fetch(") && !plain.contains("__mcpgTakePack"),
            "{plain}"
        );
    }

    #[test]
    fn a_link_module_of_another_shape_fails_the_build() {
        let other = format!("{LINK}export function helper() {{}}\n");
        assert!(loaders(&other).unwrap_err().contains("not a loader"));
        assert!(loaders("const x = 1;\n").unwrap_err().contains("no loader"));
    }
}
