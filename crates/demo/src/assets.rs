//! Binary content made without randomness or floating point, so every platform
//! (native and wasm) produces the same bytes and sessions replay exactly.

/// A 24×24 PNG of a sun on a blue sky (176 bytes), base64.
pub const SUN_PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAd0lEQVR42mOo2PeBKohhhBv0fxUDEJFjEJo2Mg2CaEPWiWkuCS4CoRMaaAirNQTCCNMUKMLhTQbSTIG5i4BBcNuoYxDW0CHNICK9hjW8yQwjqhlESoIkxRQsBiH7n/hEhNNFuLi4kjXh3I+pjQQXkZrvR4taYhEA+EStWbYoruoAAAAASUVORK5CYII=";

/// A 0.2 s, 8 kHz, 8-bit mono WAV beep: a triangle wave at 400 Hz, built from integers.
pub fn beep_wav() -> Vec<u8> {
    const RATE: u32 = 8000;
    const SAMPLES: u32 = RATE / 5;
    const PERIOD: u32 = RATE / 400; // 20 samples per cycle
    let mut out = Vec::with_capacity(44 + SAMPLES as usize);
    let data_len = SAMPLES;
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&RATE.to_le_bytes()); // byte rate
    out.extend_from_slice(&1u16.to_le_bytes()); // block align
    out.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..SAMPLES {
        let phase = i % PERIOD;
        let half = PERIOD / 2;
        let level = if phase < half {
            phase * 160 / half
        } else {
            (PERIOD - phase) * 160 / half
        };
        out.push(u8::try_from(48 + level).unwrap_or(128));
    }
    out
}
