//! Checks that the wasm split moved the chunks' read-only data out of the main
//! module.
//!
//! `wasm_split_cli_support` gives each piece of `.rodata` to the module whose code
//! uses it, so a chunk's strings and tables load with the chunk. When its new
//! layout does not fit in the input's `.rodata` it keeps all of it in the main
//! module instead, and says so only in a log line nobody sees: the first load then
//! grows by ~120 KB raw (~35 KB brotli, December 2026) with nothing to tell why.
//! `web/src/lib.rs` reserves room for the layout (`SPLIT_ROOM`); this check makes
//! the build name the cause when that room runs out.

use crate::util::Result;

/// The bytes of a wasm module's data segments (0 when it has none).
pub fn data_bytes(module: &[u8]) -> Result<u64> {
    let mut total = 0u64;
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        if let wasmparser::Payload::DataSection(reader) =
            payload.map_err(|e| format!("wasm split: unreadable module: {e}"))?
        {
            for data in reader {
                let data = data.map_err(|e| format!("wasm split: unreadable data: {e}"))?;
                total += data.data.len() as u64;
            }
        }
    }
    Ok(total)
}

/// An error when there are chunks and none of them carries data: the split kept
/// every string in the main module.
pub fn check_moved(chunk_data: &[u64]) -> Result<()> {
    if chunk_data.is_empty() || chunk_data.iter().any(|&n| n > 0) {
        return Ok(());
    }
    Err(
        "wasm split: no chunk carries data, so every chunk's strings stayed in the \
         first load (the split's new .rodata layout did not fit in the old one): \
         raise SPLIT_ROOM in web/src/lib.rs"
            .to_owned(),
    )
}

/// The shortest run of `SPLIT_ROOM`'s byte that counts as the room itself (the
/// room is 16 KB; nothing else in `.rodata` repeats one byte this long).
const ROOM_RUN: usize = 4096;

/// `SPLIT_ROOM`'s fill byte (`web/src/lib.rs`).
const ROOM_BYTE: u8 = 0x5A;

/// An error when the main module still holds `SPLIT_ROOM`'s bytes: the split gives
/// them to no module when it moves `.rodata`, so finding them means it kept all of
/// `.rodata` in the first load (chunks may still carry other data, so
/// [`check_moved`] alone does not see it).
pub fn check_room_dropped(main: &[u8]) -> Result<()> {
    for payload in wasmparser::Parser::new(0).parse_all(main) {
        if let wasmparser::Payload::DataSection(reader) =
            payload.map_err(|e| format!("wasm split: unreadable main module: {e}"))?
        {
            for data in reader {
                let data = data.map_err(|e| format!("wasm split: unreadable data: {e}"))?;
                if has_run(data.data, ROOM_BYTE, ROOM_RUN) {
                    return Err("wasm split: the main module kept all of .rodata, so every \
                         chunk's strings load first (the split's new .rodata layout \
                         did not fit in the old one): raise SPLIT_ROOM in web/src/lib.rs"
                        .to_owned());
                }
            }
        }
    }
    Ok(())
}

/// Whether `bytes` holds `len` consecutive copies of `b`.
fn has_run(bytes: &[u8], b: u8, len: usize) -> bool {
    let mut run = 0;
    for &x in bytes {
        run = if x == b { run + 1 } else { 0 };
        if run >= len {
            return true;
        }
    }
    false
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    /// A module with one active data segment of `n` bytes (n < 128).
    fn module_with_data(n: u8) -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        // memory section: one memory, min 1 page.
        m.extend_from_slice(&[5, 3, 1, 0, 1]);
        // data section: one segment, memory 0, i32.const 0, end, n bytes.
        let mut body = vec![1, 0, 0x41, 0, 0x0b, n];
        body.extend(std::iter::repeat_n(7u8, n.into()));
        m.push(11);
        m.push(u8::try_from(body.len()).unwrap());
        m.extend_from_slice(&body);
        m
    }

    #[test]
    fn counts_the_data_bytes() {
        assert_eq!(data_bytes(&module_with_data(0)).unwrap(), 0);
        assert_eq!(data_bytes(&module_with_data(42)).unwrap(), 42);
        assert_eq!(data_bytes(b"\0asm\x01\0\0\0").unwrap(), 0);
        assert!(data_bytes(b"not wasm").is_err());
    }

    #[test]
    fn the_rooms_bytes_in_the_main_module_fail_the_build() {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        m.extend_from_slice(&[5, 3, 1, 0, 1]);
        // One segment of 5,000 bytes of the room's fill, then the same with a gap.
        for gap in [false, true] {
            let mut seg = vec![ROOM_BYTE; 5000];
            if gap {
                seg[2500] = 0;
            }
            let mut body = vec![1, 0, 0x41, 0, 0x0b, 0x88, 0x27];
            body.extend_from_slice(&seg);
            let mut module = m.clone();
            module.push(11);
            module.extend_from_slice(&[0x8f, 0x27]);
            module.extend_from_slice(&body);
            assert_eq!(body.len(), 5007, "the section size above is 5007 in LEB128");
            let checked = check_room_dropped(&module);
            if gap {
                assert!(checked.is_ok(), "{checked:?}");
            } else {
                assert!(checked.unwrap_err().contains("SPLIT_ROOM"));
            }
        }
    }

    #[test]
    fn chunks_without_any_data_fail_the_build() {
        assert!(check_moved(&[]).is_ok(), "no chunks, nothing to move");
        assert!(check_moved(&[0, 0, 12]).is_ok());
        let err = check_moved(&[0, 0]).unwrap_err();
        assert!(err.contains("SPLIT_ROOM"), "{err}");
    }
}
