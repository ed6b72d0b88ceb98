//! Hostile input: every corpus blob cut at every DWORD boundary, and with each single bit of its
//! first 64 DWORDs flipped, decodes to `Ok` or `Err` without panicking, and what it allocates is
//! bounded by the input length. Every DBUG debug table of the corpus, cut at every DWORD and with
//! each single bit flipped, parses to `Ok` (and re-encodes to the same payload) or `Err`, within
//! an allocation bound of its own.

use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The allocation counts are process-wide: the tests take turns so that none counts another's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Bytes the decoder may allocate per input byte: the item vector holds at most one 128-byte
/// item per DWORD of input, and doubling can at most double that, plus comment payload copies.
const BYTES_PER_INPUT_BYTE: usize = 80;
const SLACK: usize = 4096;

fn check(input: &[u8], what: &str, worst: &mut f64) {
    let region = Region::new(GLOBAL);
    let result = std::panic::catch_unwind(|| {
        let r = dxso::decode(input);
        if let Ok(shader) = &r {
            // Whatever decodes must re-encode to the same bytes.
            assert_eq!(dxso::encode(shader), input, "{what}: re-encoding differs");
        }
        r.is_ok()
    });
    let stats = region.change();
    assert!(result.is_ok(), "{what}: decode panicked");
    // The re-encoding above allocates the output once more (input length) besides decoding.
    let allocated = stats.bytes_allocated.saturating_sub(input.len() * 2);
    let ratio = allocated as f64 / input.len().max(1) as f64;
    if ratio > *worst {
        *worst = ratio;
    }
    assert!(
        allocated <= BYTES_PER_INPUT_BYTE * input.len() + SLACK,
        "{what}: {allocated} bytes allocated for {} input bytes",
        input.len()
    );
}

#[test]
fn truncated_and_bit_flipped_corpus() {
    let _turn = one_at_a_time();
    let Some(dir) = dxso_corpus::corpus_or_skip("truncated_and_bit_flipped_corpus") else {
        return;
    };
    let entries = dxso_corpus::entries(&dir);
    let (mut cuts, mut flips, mut ok_flips) = (0usize, 0usize, 0usize);
    let mut worst = 0.0f64;
    for e in &entries {
        let bytes = e.bytes();
        for cut in (0..bytes.len()).step_by(4) {
            let r = dxso::decode(&bytes[..cut]);
            assert!(r.is_err(), "{}: a prefix of {cut} bytes decoded", e.rel);
            check(&bytes[..cut], &e.rel, &mut worst);
            cuts += 1;
        }
        let mut flipped = bytes.clone();
        for bit in 0..(bytes.len() / 4).min(64) * 32 {
            let (byte, mask) = (bit / 8, 1u8 << (bit % 8));
            flipped[byte] ^= mask;
            let decoded = dxso::decode(&flipped).is_ok();
            ok_flips += decoded as usize;
            if bit % 7 == 0 {
                // The allocation accounting is slower; sample it.
                check(&flipped, &e.rel, &mut worst);
            }
            flipped[byte] ^= mask;
            flips += 1;
        }
    }
    println!(
        "hostile: {} blobs, {cuts} truncations (all Err), {flips} single-bit flips ({ok_flips} still decode), \
         worst allocation {worst:.1} bytes per input byte",
        entries.len()
    );
}

#[test]
fn absurd_inputs() {
    let _turn = one_at_a_time();
    let mut worst = 0.0;
    let cases: Vec<(&str, Vec<u32>)> = vec![
        ("empty", vec![]),
        ("only version", vec![0xFFFE_0300]),
        (
            "comment claiming 32767 DWORDs",
            vec![0xFFFE_0300, 0x7FFF_FFFE, 0x0000_FFFF],
        ),
        (
            "length field past the end",
            vec![0xFFFF_0200, 0x0F00_0001, 0x0000_FFFF],
        ),
        (
            "unknown opcode",
            vec![0xFFFF_0200, 0x0000_0031, 0x0000_FFFF],
        ),
        (
            "bit 31 on an instruction",
            vec![0xFFFF_0200, 0x8000_0001, 0x0000_FFFF],
        ),
        (
            "parameter without bit 31",
            vec![
                0xFFFF_0200,
                0x0200_0001,
                0x000F_0000,
                0x00E4_0000,
                0x0000_FFFF,
            ],
        ),
        ("trailing data", vec![0xFFFE_0101, 0x0000_FFFF, 0]),
        ("end token with bits", vec![0xFFFE_0101, 0x0001_FFFF]),
        (
            "five sources",
            vec![
                0xFFFF_0200,
                0x0600_0002,
                0x800F_0000,
                0x80E4_0000,
                0x80E4_0000,
                0x80E4_0000,
                0x80E4_0000,
                0x80E4_0000,
                0x0000_FFFF,
            ],
        ),
        (
            "endless zeros (nops) without end",
            vec![0xFFFE_0101, 0, 0, 0, 0],
        ),
    ];
    for (what, words) in cases {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let err = dxso::decode(&bytes).expect_err(what);
        // Every error names an offset inside (or just past) the input.
        assert!(err.dword <= words.len(), "{what}: {err}");
        check(&bytes, what, &mut worst);
    }
    assert!(dxso::decode(&[0, 0, 0xFE]).is_err());
}

/// Bytes a debug-table parse may allocate per payload byte: the coverage map and the background
/// (one byte each), the model (records, strings capped by `MAX_TEXT_PER_BYTE`), the layout.
const DBUG_BYTES_PER_PAYLOAD_BYTE: usize = 48;

fn check_debug_table(payload: &[u32], what: &str, worst: &mut f64) -> bool {
    let region = Region::new(GLOBAL);
    let result = std::panic::catch_unwind(|| {
        let parsed = dxso::DebugInfo::parse(payload);
        let stats = region.change();
        if let Ok(info) = &parsed {
            assert_eq!(info.to_words(), payload, "{what}: re-encoding differs");
        }
        (parsed.is_ok(), stats.bytes_allocated)
    });
    let Ok((ok, allocated)) = result else {
        panic!("{what}: parse panicked");
    };
    // The layout-free read (the printer's) accepts and rejects exactly what the full one does.
    let full = dxso::DebugInfo::parse(payload).map(|info| dxso::DebugInfo {
        layout: None,
        ..info
    });
    assert_eq!(
        dxso::DebugInfo::parse_without_layout(payload),
        full,
        "{what}: the read without layout differs"
    );
    let bytes = payload.len() * 4;
    *worst = worst.max(allocated as f64 / bytes.max(1) as f64);
    assert!(
        allocated <= DBUG_BYTES_PER_PAYLOAD_BYTE * bytes + SLACK,
        "{what}: {allocated} bytes allocated for a {bytes}-byte table"
    );
    ok
}

#[test]
fn truncated_and_bit_flipped_debug_tables() {
    let _turn = one_at_a_time();
    let Some(dir) = dxso_corpus::corpus_or_skip("truncated_and_bit_flipped_debug_tables") else {
        return;
    };
    let (mut tables, mut cuts, mut flips, mut ok_flips) = (0usize, 0usize, 0usize, 0usize);
    let mut worst = 0.0f64;
    for e in dxso_corpus::entries(&dir) {
        let shader = dxso::decode(&e.bytes()).unwrap();
        for c in shader.comments().filter(|c| dxso::dbug::is_dbug(&c.data)) {
            tables += 1;
            for cut in 0..c.data.len() {
                check_debug_table(&c.data[..cut], &e.rel, &mut worst);
                cuts += 1;
            }
            let mut flipped = c.data.clone();
            // Every bit after the FOURCC (a flipped FOURCC is simply not a DBUG table).
            for bit in 32..flipped.len() * 32 {
                let (word, mask) = (bit / 32, 1u32 << (bit % 32));
                flipped[word] ^= mask;
                ok_flips += check_debug_table(&flipped, &e.rel, &mut worst) as usize;
                flipped[word] ^= mask;
                flips += 1;
            }
        }
    }
    println!(
        "hostile DBUG: {tables} tables, {cuts} truncations, {flips} single-bit flips ({ok_flips} still parse), \
         worst allocation {worst:.1} bytes per table byte"
    );
    assert_eq!(
        tables, 121,
        "expected the 121 DBUG tables of directxtk-level9, found {tables}"
    );
}
