//! Precompression (gzip -9 and brotli 11 beside every compressible file) and the
//! figures a build reports: raw, gzip and brotli bytes per file, and the
//! first-load total checked against `web/first-load-ceiling.txt`.

use std::io::Write as _;

use serde_json::json;

use crate::util::Result;

/// Extensions worth compressing; everything else (images already compressed,
/// `.gz`, `.br`) is left alone.
const COMPRESSIBLE: [&str; 6] = ["html", "js", "wasm", "css", "json", "svg"];

/// Brotli's largest quality, as `brotli -q 11`.
const BROTLI_QUALITY: u32 = 11;

/// Brotli's window (log2 of bytes): the library's default, 4 MiB, more than the
/// whole module.
const BROTLI_WINDOW: u32 = 22;

/// Whether a file of this name gets `.gz` and `.br` siblings.
pub fn compressible(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| COMPRESSIBLE.contains(&ext))
}

/// gzip at level 9, with no file name and mtime 0, so builds are reproducible.
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes)
        .and_then(|()| enc.finish())
        .map_err(|e| format!("gzip: {e}"))
}

/// brotli at quality 11.
pub fn brotli(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc =
            brotli::CompressorWriter::new(&mut out, 64 * 1024, BROTLI_QUALITY, BROTLI_WINDOW);
        enc.write_all(bytes)
            .and_then(|()| enc.flush())
            .map_err(|e| format!("brotli: {e}"))?;
    }
    Ok(out)
}

/// One file of the page and what it weighs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFigure {
    /// Its path inside `dist/`, with `/` separators.
    pub name: String,
    /// Bytes as built.
    pub raw: u64,
    /// Bytes of its `.gz` (the raw size when it is not compressed).
    pub gzip: u64,
    /// Bytes of its `.br` (the raw size when it is not compressed).
    pub brotli: u64,
    /// Whether the browser fetches it before the first tool list shows.
    pub first_load: bool,
}

/// The sum of one column over the first-load files.
fn first_load(files: &[FileFigure], column: impl Fn(&FileFigure) -> u64) -> u64 {
    files.iter().filter(|f| f.first_load).map(column).sum()
}

/// The table a build prints: one line per file, then the first-load totals
/// against the ceiling. KB are 1,024 bytes, as the e2e figures print them.
pub fn table(files: &[FileFigure], ceiling: u64) -> String {
    let kb = |n: u64| format!("{:.1} KB", n as f64 / 1024.0);
    let mut out = format!(
        "{:<36} {:>10} {:>10} {:>10}\n",
        "file", "raw", "gzip -9", "brotli 11"
    );
    for f in files {
        let mark = if f.first_load { "*" } else { " " };
        out.push_str(&format!(
            "{mark}{:<35} {:>10} {:>10} {:>10}\n",
            f.name,
            kb(f.raw),
            kb(f.gzip),
            kb(f.brotli)
        ));
    }
    let br = first_load(files, |f| f.brotli);
    out.push_str(&format!(
        "first load (* above): {} raw, {} gzip, {} brotli ({br} bytes); ceiling {} ({ceiling} bytes, web/first-load-ceiling.txt)\n",
        kb(first_load(files, |f| f.raw)),
        kb(first_load(files, |f| f.gzip)),
        kb(br),
        kb(ceiling),
    ));
    out
}

/// `dist/build-info.json`: every file's figures and the first-load totals, for
/// the e2e run and the README to quote.
pub fn build_info(files: &[FileFigure], ceiling: u64) -> serde_json::Value {
    let list: Vec<_> = files
        .iter()
        .map(|f| {
            json!({
                "name": f.name, "raw": f.raw, "gzip": f.gzip, "brotli": f.brotli,
                "firstLoad": f.first_load,
            })
        })
        .collect();
    json!({
        "files": list,
        "firstLoad": {
            "raw": first_load(files, |f| f.raw),
            "gzip": first_load(files, |f| f.gzip),
            "brotli": first_load(files, |f| f.brotli),
            "ceiling": ceiling,
        },
    })
}

/// Fails when the brotli first-load total is above the ceiling.
pub fn check_ceiling(files: &[FileFigure], ceiling: u64) -> Result<()> {
    let br = first_load(files, |f| f.brotli);
    if br <= ceiling {
        return Ok(());
    }
    Err(format!(
        "the first load is {br} bytes brotli, above the ceiling of {ceiling} bytes in \
         web/first-load-ceiling.txt ({} bytes over). Make the page smaller, or raise the \
         ceiling with a written reason in the commit message.",
        br - ceiling
    ))
}

/// Reads the ceiling: the first line that is neither blank nor a `#` comment,
/// a number of bytes (`_` allowed between digits).
pub fn parse_ceiling(text: &str) -> Result<u64> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or("web/first-load-ceiling.txt holds no number")?;
    line.replace('_', "")
        .parse()
        .map_err(|e| format!("web/first-load-ceiling.txt: {line:?} is not a byte count: {e}"))
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use std::io::Read as _;

    use super::*;

    fn file(name: &str, brotli: u64, first_load: bool) -> FileFigure {
        FileFigure {
            name: name.into(),
            raw: brotli * 4,
            gzip: brotli * 2,
            brotli,
            first_load,
        }
    }

    #[test]
    fn both_encodings_round_trip_and_shrink() {
        let text = "tools/list tools/call ".repeat(500);
        let gz = gzip(text.as_bytes()).unwrap();
        let br = brotli(text.as_bytes()).unwrap();
        let mut back = String::new();
        flate2::read::GzDecoder::new(gz.as_slice())
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, text);
        let mut back = String::new();
        brotli::Decompressor::new(br.as_slice(), 4096)
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, text);
        assert!(
            gz.len() < text.len() / 10 && br.len() < gz.len(),
            "{} {}",
            gz.len(),
            br.len()
        );
    }

    #[test]
    fn only_text_and_wasm_are_compressed() {
        for yes in [
            "index.html",
            "a-1.js",
            "a-1.wasm",
            "s.css",
            "build-info.json",
            "i.svg",
        ] {
            assert!(compressible(yes), "{yes}");
        }
        for no in ["a.js.br", "a.wasm.gz", "logo.png", "LICENSE"] {
            assert!(!compressible(no), "{no}");
        }
    }

    #[test]
    fn the_ceiling_counts_first_load_brotli_bytes_only() {
        let files = [
            file("index.html", 100, true),
            file("a.wasm", 900, true),
            file("sw.js", 5_000, false),
        ];
        assert!(check_ceiling(&files, 1_000).is_ok());
        let err = check_ceiling(&files, 999).unwrap_err();
        assert!(
            err.contains("1000 bytes") && err.contains("1 bytes over"),
            "{err}"
        );
        let info = build_info(&files, 1_000);
        assert_eq!(info["firstLoad"]["brotli"], 1_000);
        assert_eq!(info["firstLoad"]["raw"], 4_000);
        assert_eq!(info["files"][2]["firstLoad"], false);
        assert!(table(&files, 1_000).contains("*a.wasm"));
    }

    #[test]
    fn the_ceiling_file_is_read_past_its_comments() {
        assert_eq!(parse_ceiling("# why\n\n 350_000 \n").unwrap(), 350_000);
        assert!(parse_ceiling("# only a comment\n").is_err());
        assert!(parse_ceiling("350 KB\n").is_err());
    }

    #[test]
    fn the_checked_in_ceiling_parses() {
        let text = include_str!("../../../../web/first-load-ceiling.txt");
        assert!(parse_ceiling(text).unwrap() > 0);
    }
}
