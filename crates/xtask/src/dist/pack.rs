//! The packs: the chunks of the split functions fetched right after the first tool
//! list, and of those a first loop's steps fetch, travel as a few files, one per
//! entry of [`PACKS`].
//!
//! Why packs: those functions' code shares pieces with every other split function,
//! and the split gives each combination its own chunk: ~160 files, so ~160
//! requests before the loop's controls showed (6.6 s at 1.6 Mbps / 150 ms over
//! HTTP/1.1, December 2026). One file is one request, and compresses better.
//! Why more than one: with one pack the loop's controls waited for the lessons,
//! the picture and the share bar too (4.3 s at 1.6 Mbps for ~450 KB brotli); the
//! first pack now holds what a first Step needs (measured: a first Step fetches
//! nothing more), the next what comes after it.

use std::collections::HashMap;
use std::collections::HashSet;

use super::link_shim::{LINK_NAME, TAKE_PACK};
use crate::util::Result;

/// The packs, in the order the page fetches them: each a file name's stem and the
/// split functions whose chunks it carries. A chunk two packs' functions share goes
/// in the first. `split_mcpg_later`: the later parts' kit and the loop's controls
/// and steps (`mcpg_later`, `web/src/components/later_parts.rs`), fetched right
/// after the first tool list; `split_mcpg_later_rest`: the lessons, the picture and
/// the share bar (`mcpg_later_rest`), fetched once the first is in; then
/// `split_mcpg_loop_rest`: what steps 2 to 6 of a first loop fetch (step 2's
/// reshaping, the Result tab step 5 opens), fetched when step 2 first needs it
/// (about 40 chunks, so 40 requests, before it was packed).
pub const PACKS: [(&str, &[&str]); 3] = [
    ("split_mcpg_later", &["mcpg_later"]),
    ("split_mcpg_later_rest", &["mcpg_later_rest"]),
    (
        "split_mcpg_loop_rest",
        &["mcpg_reshape", "mcpg_result_panel"],
    ),
];

/// Split functions the page loads on its own right after the first tool list,
/// beside the first pack: the connections' code (`web/src/effects/link_chunk.rs`).
/// A chunk one of them shares goes in no pack but the first, or loading them would
/// fetch a later pack at once, beside the first (measured: the second and third
/// packs were asked for 0.2 s after the first tool list, and the loop's controls
/// came 0.3 s later than with one pack).
pub const EAGER: [&str; 1] = ["mcpg_links"];

/// The function the link module fetches a packed chunk with.
pub const PACK_FN: &str = "__mcpgPack";

/// For each of [`PACKS`], the chunk stems it carries (from the split's map of a
/// split function to the chunks it needs), each stem in the first pack that
/// needs it, and none an [`EAGER`] function needs in a pack after the first; in
/// the split's order.
pub fn stems(prefetch: &HashMap<String, Vec<String>>) -> Vec<Vec<String>> {
    let eager: HashSet<&String> = EAGER
        .iter()
        .flat_map(|split| prefetch.get(*split).into_iter().flatten())
        .collect();
    let mut taken = HashSet::new();
    PACKS
        .iter()
        .enumerate()
        .map(|(i, (_, splits))| {
            splits
                .iter()
                .flat_map(|split| prefetch.get(*split).into_iter().flatten())
                .filter(|stem| i == 0 || !eager.contains(stem))
                .filter(|stem| taken.insert((*stem).clone()))
                .cloned()
                .collect()
        })
        .collect()
}

/// The pack (index into [`PACKS`]) that carries `stem`, if any.
pub fn pack_of(packed: &[Vec<String>], stem: &str) -> Option<usize> {
    packed.iter().position(|p| p.iter().any(|s| s == stem))
}

/// The packs' bytes as the chunks are added, and where each chunk sits.
#[derive(Debug, Default)]
pub struct Packer {
    bytes: Vec<Vec<u8>>,
    index: Vec<String>,
}

impl Packer {
    /// Appends `chunk` (the file `stem`) to pack `pack`.
    pub fn add(&mut self, pack: usize, stem: &str, chunk: &[u8]) {
        if self.bytes.len() <= pack {
            self.bytes.resize(pack + 1, Vec::new());
        }
        let bytes = &mut self.bytes[pack];
        self.index.push(format!(
            "\"{stem}\":[{pack},{},{}]",
            bytes.len(),
            bytes.len() + chunk.len()
        ));
        bytes.extend_from_slice(chunk);
    }

    /// The packs as files; `None` when no chunk was packed, an error when the
    /// first pack is empty but a later one is not (the shim starts the first
    /// pack's fetch, and the page's later parts would be split another way than
    /// [`PACKS`] says).
    pub fn finish(self) -> Result<Option<Packs>> {
        if self.index.is_empty() {
            return Ok(None);
        }
        if self.bytes.first().is_none_or(Vec::is_empty) {
            return Err(format!(
                "wasm split: no chunk for the first pack ({}), but some for a later one; \
                 did web/src/components/later_parts.rs rename its split functions?",
                PACKS[0].0
            ));
        }
        let mut files = Vec::new();
        let mut urls = Vec::new();
        for (bytes, (stem, _)) in self.bytes.into_iter().zip(PACKS) {
            if bytes.is_empty() {
                // No index entry names an empty pack.
                urls.push("null".to_owned());
                continue;
            }
            let name = super::page::hashed_name(stem, "wasm", &bytes);
            urls.push(format!("\"./{name}\""));
            files.push((name, bytes));
        }
        let loader = loader(&urls.join(","), &self.index.join(","));
        let first = files
            .first()
            .map(|(name, _)| name.clone())
            .unwrap_or_default();
        Ok(Some(Packs {
            files,
            loader,
            first,
        }))
    }
}

/// The packed chunks, as files.
#[derive(Debug)]
pub struct Packs {
    /// One file per pack that holds a chunk (`split_NAME-HASH.wasm`), in order.
    pub files: Vec<(String, Vec<u8>)>,
    /// What the link module gets in front ([`loader`]).
    pub loader: String,
    /// The first pack's file name, whose fetch the shim starts.
    pub first: String,
}

/// What the link module gets in front: the packs' URLs, their index (stem -> pack,
/// byte range) and [`PACK_FN`], which fetches a pack once and answers each chunk's
/// fetch with its slice, a `Response` that `instantiateStreaming` takes as it took
/// the chunk's own. The first pack's fetch is the one the shim started beside the
/// link module's import ([`TAKE_PACK`]), or its own; a later pack is fetched when
/// its first chunk is asked for. A failed fetch is not kept, so the next load asks
/// again (as the split's own loader does).
fn loader(urls: &str, index: &str) -> String {
    format!(
        "// Some chunks travel packed, {n} files (cargo xtask dist).\n\
         import {{ {TAKE_PACK} }} from \"./{LINK_NAME}\";\n\
         const __mcpgPackUrls = [{urls}];\n\
         const __mcpgPackIndex = {{{index}}};\n\
         const __mcpgPackBytes = [];\n\
         function {PACK_FN}(stem) {{\n\
         const [pack, start, end] = __mcpgPackIndex[stem];\n\
         if (__mcpgPackBytes[pack] === undefined) {{\n\
         const url = __mcpgPackUrls[pack];\n\
         const started = pack === 0 ? {TAKE_PACK}() : null;\n\
         const load = (started ?? fetch(new URL(url, import.meta.url))).then((r) => {{\n\
         if (!r.ok) throw new Error(`${{url}}: HTTP ${{r.status}}`);\n\
         return r.arrayBuffer();\n\
         }});\n\
         load.catch(() => {{ if (__mcpgPackBytes[pack] === load) __mcpgPackBytes[pack] = undefined; }});\n\
         __mcpgPackBytes[pack] = load;\n\
         }}\n\
         return __mcpgPackBytes[pack].then((b) => new Response(b.slice(start, end), \
         {{ headers: {{ \"Content-Type\": \"application/wasm\" }} }}));\n\
         }}\n",
        n = PACKS.len(),
    )
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    fn map(entries: &[(&str, &[&str])]) -> HashMap<String, Vec<String>> {
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.iter().map(|s| (*s).to_owned()).collect()))
            .collect()
    }

    #[test]
    fn a_shared_chunk_travels_in_the_first_pack_that_needs_it() {
        let prefetch = map(&[
            ("mcpg_later", &["chunk_1", "chunk_2", "split_mcpg_later_3"]),
            ("mcpg_later_rest", &["chunk_2", "chunk_4"]),
            ("mcpg_share", &["chunk_4", "split_mcpg_share_9"]),
            ("mcpg_reshape", &["chunk_2", "chunk_5"]),
            ("mcpg_result_panel", &["chunk_5", "chunk_6", "chunk_7"]),
            ("mcpg_links", &["chunk_1", "chunk_7", "split_mcpg_links_8"]),
        ]);
        let packed = stems(&prefetch);
        assert_eq!(
            packed,
            [
                vec!["chunk_1", "chunk_2", "split_mcpg_later_3"],
                vec!["chunk_4"],
                vec!["chunk_5", "chunk_6"]
            ]
        );
        assert_eq!(pack_of(&packed, "chunk_2"), Some(0));
        assert_eq!(pack_of(&packed, "chunk_4"), Some(1));
        assert_eq!(pack_of(&packed, "split_mcpg_share_9"), None);
        // Loading the connections' code right after the first tool list must not
        // fetch the third pack: the chunk it shares with it stays a file of its own.
        assert_eq!(pack_of(&packed, "chunk_7"), None);
        assert_eq!(pack_of(&packed, "split_mcpg_links_8"), None);
        assert!(stems(&HashMap::new()).iter().all(Vec::is_empty));
    }

    #[test]
    fn each_pack_is_one_file_indexed_by_pack_and_range() {
        let mut p = Packer::default();
        p.add(0, "a", b"one");
        p.add(1, "b", b"two");
        p.add(0, "c", b"three");
        let packs = p.finish().unwrap().unwrap();
        let (files, loader) = (&packs.files, &packs.loader);
        let first = super::super::page::hashed_name("split_mcpg_later", "wasm", b"onethree");
        let second = super::super::page::hashed_name("split_mcpg_later_rest", "wasm", b"two");
        assert_eq!(files[0], (first.clone(), b"onethree".to_vec()));
        assert_eq!(files[1], (second.clone(), b"two".to_vec()));
        assert!(
            loader.contains(&format!("[\"./{first}\",\"./{second}\"]")),
            "{loader}"
        );
        assert!(
            loader.contains("\"a\":[0,0,3],\"b\":[1,0,3],\"c\":[0,3,8]"),
            "{loader}"
        );
        // Only the first pack's fetch is the one the shim started.
        assert!(
            loader.contains(&format!("pack === 0 ? {TAKE_PACK}() : null")),
            "{loader}"
        );
        assert_eq!(packs.first, first);
        assert!(Packer::default().finish().unwrap().is_none());
    }

    #[test]
    fn an_empty_first_pack_fails_the_build() {
        let mut p = Packer::default();
        p.add(1, "b", b"two");
        let err = p.finish().unwrap_err();
        assert!(err.contains("no chunk for the first pack"), "{err}");
    }
}
