//! The lines of the lossless listing: what Microsoft's listing does not carry, as `//`
//! comments that dxso's assembler reads back and every other reader skips.
//!
//! A comment block (the CTAB, a DBUG block, any other) is written where it stands among the
//! instructions as one `// dxso:comment` line followed by `// dxso:data` lines, each holding up
//! to [`WORDS_PER_LINE`] of the block's DWORDs in hexadecimal (eight digits each, the order
//! of the bytecode). A block with no DWORDs is a bare `// dxso:comment`. The assembler
//! ([`crate::parse()`]) turns each such run back into one comment block at that place, and a
//! text holding one takes its comment blocks only from these lines (the `// Parameters:`
//! header is then not rebuilt into a second table).

use crate::syntax::lossless::{COMMENT, DATA, PREFIX};
use crate::PrintOptions;
use dxso::Shader;

/// How many DWORDs one line holds.
pub const WORDS_PER_LINE: usize = 8;

/// Appends the lines of one comment block with DWORDs `data`.
pub fn write_comment(out: &mut Vec<u8>, data: &[u32]) {
    let mut chunks = data.chunks(WORDS_PER_LINE);
    let first = chunks.next().unwrap_or(&[]);
    write_line(out, COMMENT, first);
    for chunk in chunks {
        write_line(out, DATA, chunk);
    }
}

/// The lossless listing of `shader`: the listing with its comment blocks as `// dxso:` lines,
/// checked by assembling it. Should a header or debug line the bytes hold not read back as
/// one (a constant's name with a line break in it, a DBUG file name with a quote), the listing
/// is printed again without the header and the debug lines, which the `// dxso:` lines carry
/// anyway: a lossless listing always assembles to the shader's bytes.
pub(super) fn print(shader: &Shader, options: &PrintOptions) -> String {
    let text = super::listing(shader, options);
    let want = dxso::encode(shader);
    if crate::parse(&text).is_ok_and(|back| dxso::encode(&back) == want) {
        return text;
    }
    let plain = PrintOptions {
        header: false,
        debug: false,
        command_line: None,
        ..options.clone()
    };
    super::listing(shader, &plain)
}

fn write_line(out: &mut Vec<u8>, word: &str, data: &[u32]) {
    out.extend_from_slice(b"    // ");
    out.extend_from_slice(PREFIX.as_bytes());
    out.extend_from_slice(word.as_bytes());
    for &d in data {
        out.push(b' ');
        for shift in (0..8).rev() {
            out.push(b"0123456789abcdef"[(d >> (shift * 4)) as usize & 0xF]);
        }
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::lossless::is_lossless_line;

    #[test]
    fn blocks_split_into_lines_of_eight_words() {
        let mut out = Vec::new();
        write_comment(&mut out, &(0..9).collect::<Vec<u32>>());
        write_comment(&mut out, &[]);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "    // dxso:comment 00000000 00000001 00000002 00000003 00000004 00000005 \
             00000006 00000007\n    // dxso:data 00000008\n    // dxso:comment\n"
        );
        assert!(text.lines().all(is_lossless_line));
        assert!(!is_lossless_line("    mov r0, r1 // dxso:comment"));
    }
}
