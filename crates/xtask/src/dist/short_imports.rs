//! Short names for what the main module imports from wasm-bindgen's glue.
//!
//! wasm-bindgen names each import after its Rust binding plus a 16-digit hash
//! (`__wbg_new_with_str_sequence_and_options_ea4ce88081790553`), and the name is
//! written twice: in the wasm's import section and as a key of the glue's imports
//! object. The hashes do not compress: ~220 imports cost ~5 KB of brotli in the
//! first load (measured December 2026: glue 8,777 -> 6,579 bytes, main wasm ~2.8 KB
//! less). Both sides get the same short name here (`_0`, `_1`, … in base 36), so
//! nothing else changes: the chunks import nothing from the glue, and no other
//! section of the module names an import.

use std::collections::HashMap;

use wasm_encoder::reencode::{Reencode, RoundtripReencoder};

use crate::util::Result;

/// The module name wasm-bindgen gives the glue's imports.
const GLUE_MODULE: &str = "./mcpg-web_bg.js";

/// How each key of the glue's imports object begins: its own line, 8 spaces in.
const KEY_INDENT: &str = "\n        ";

/// `wasm` and `glue` with every import from the glue renamed on both sides. An
/// error when an import is not a key of the glue exactly once (wasm-bindgen's
/// output changed shape: better no page than one that cannot instantiate).
pub fn shorten(wasm: &[u8], glue: &str) -> Result<(Vec<u8>, String)> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut module = wasm_encoder::Module::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| format!("short imports: unreadable module: {e}"))?;
        if let wasmparser::Payload::ImportSection(reader) = &payload {
            let mut section = wasm_encoder::ImportSection::new();
            for group in reader.clone() {
                let group = group.map_err(|e| format!("short imports: unreadable import: {e}"))?;
                let wasmparser::Imports::Single(_, import) = group else {
                    return Err("short imports: compact import groups are not expected".into());
                };
                let ty = RoundtripReencoder
                    .entity_type(import.ty)
                    .map_err(|e| format!("short imports: {e}"))?;
                let name = if import.module == GLUE_MODULE {
                    let short = short_name(names.len());
                    names.insert(import.name.to_owned(), short.clone());
                    short
                } else {
                    import.name.to_owned()
                };
                section.import(import.module, &name, ty);
            }
            module.section(&section);
        } else if let Some((id, range)) = payload.as_section() {
            let data = usize::try_from(range.start)
                .ok()
                .zip(usize::try_from(range.end).ok())
                .and_then(|(start, end)| wasm.get(start..end))
                .ok_or("short imports: a section outside the module")?;
            module.section(&wasm_encoder::RawSection { id, data });
        }
    }
    let mut glue = glue.to_owned();
    for (long, short) in &names {
        let from = format!("{KEY_INDENT}{long}: ");
        match glue.matches(&from).count() {
            1 => glue = glue.replacen(&from, &format!("{KEY_INDENT}{short}: "), 1),
            n => {
                return Err(format!(
                    "short imports: expected the import {long} once as a key of the glue's \
                     imports object, found it {n} times"
                ));
            }
        }
    }
    Ok((module.finish(), glue))
}

/// `_` and `n` in base 36.
fn short_name(mut n: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut digits = Vec::new();
    loop {
        digits.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.reverse();
    format!("_{}", String::from_utf8_lossy(&digits))
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    /// A module importing two functions from the glue and one from elsewhere,
    /// with a function and an export after them.
    fn module() -> Vec<u8> {
        let mut types = wasm_encoder::TypeSection::new();
        types.ty().function([], []);
        let mut imports = wasm_encoder::ImportSection::new();
        let f = wasm_encoder::EntityType::Function(0);
        imports.import(GLUE_MODULE, "__wbg_log_0123456789abcdef", f);
        imports.import("./__wasm_split.js", "__wasm_split_load_share", f);
        imports.import(GLUE_MODULE, "__wbindgen_throw_fedcba9876543210", f);
        let mut funcs = wasm_encoder::FunctionSection::new();
        funcs.function(0);
        let mut exports = wasm_encoder::ExportSection::new();
        exports.export("start", wasm_encoder::ExportKind::Func, 3);
        let mut code = wasm_encoder::CodeSection::new();
        let mut body = wasm_encoder::Function::new([]);
        body.instructions().call(0).end();
        code.function(&body);
        let mut m = wasm_encoder::Module::new();
        m.section(&types)
            .section(&imports)
            .section(&funcs)
            .section(&exports)
            .section(&code);
        m.finish()
    }

    const GLUE: &str = "const import0 = {\n        __proto__: null,\n        \
        __wbg_log_0123456789abcdef: function(a) { console.log(a); },\n        \
        __wbindgen_throw_fedcba9876543210: function() { throw 1; },\n    };\n";

    fn imports(wasm: &[u8]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(wasm) {
            if let wasmparser::Payload::ImportSection(r) = payload.unwrap() {
                for group in r {
                    if let wasmparser::Imports::Single(_, i) = group.unwrap() {
                        out.push((i.module.to_owned(), i.name.to_owned()));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn both_sides_get_the_same_short_names_and_the_module_stays_valid() {
        let (wasm, glue) = shorten(&module(), GLUE).unwrap();
        wasmparser::Validator::new().validate_all(&wasm).unwrap();
        assert_eq!(
            imports(&wasm),
            [
                (GLUE_MODULE.to_owned(), "_0".to_owned()),
                (
                    "./__wasm_split.js".to_owned(),
                    "__wasm_split_load_share".to_owned()
                ),
                (GLUE_MODULE.to_owned(), "_1".to_owned()),
            ]
        );
        assert!(
            glue.contains("\n        _0: function(a) { console.log(a); },"),
            "{glue}"
        );
        assert!(
            glue.contains("\n        _1: function() { throw 1; },"),
            "{glue}"
        );
        assert!(
            !glue.contains("__wbg_log") && !glue.contains("__wbindgen_throw"),
            "{glue}"
        );
        assert!(glue.contains("__proto__: null"), "{glue}");
        assert!(wasm.len() < module().len());
    }

    #[test]
    fn an_import_the_glue_does_not_name_once_is_an_error() {
        let missing = GLUE.replace("__wbindgen_throw_fedcba9876543210", "other");
        assert!(shorten(&module(), &missing).is_err());
        let twice = format!("{GLUE}{GLUE}");
        assert!(shorten(&module(), &twice).is_err());
    }

    #[test]
    fn short_names_count_in_base_36() {
        assert_eq!(short_name(0), "_0");
        assert_eq!(short_name(35), "_z");
        assert_eq!(short_name(36), "_10");
        assert_eq!(short_name(36 * 36 + 1), "_101");
    }
}
