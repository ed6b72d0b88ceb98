//! What an input is, told from its bytes (never from its file name): every command detects the
//! same way, and a command given the wrong kind says what it got and which command reads it.

use std::fmt;

/// The first DWORD of an fx_2_0 effect (`.fxo`, `.fxb`).
pub const EFFECT_MAGIC: u32 = 0xFEFF_0901;

/// The kinds of input dxso reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Shader bytecode: a version token `0xFFFEmmnn` (vertex) or `0xFFFFmmnn` (pixel) first.
    Bytecode,
    /// An fx_2_0 effect (first DWORD `0xFEFF0901`).
    Effect,
    /// A `.dp2` capture (`DP2F` first).
    Dp2Capture,
    /// A C header with BYTE or DWORD arrays (fxc `/Fh`).
    Header,
    /// Text with a shader version statement (`vs_2_0`, `ps.1.1`) on a line of its own:
    /// assembly (the assembler judges the rest).
    Assembly,
    /// Text that reads as HLSL source (types such as `float4`, `sampler`, `technique`) and
    /// has no version statement.
    Hlsl,
    /// Other text.
    Text,
    /// JSON with `commands`: a DP2 capture description (`dxso dp2 build`).
    Dp2Json,
    /// JSON with `control_points`: one patch (`dxso tessellate`).
    PatchJson,
    /// Other JSON.
    Json,
    /// No bytes at all.
    Empty,
    /// A file format dxso does not read, recognised by its signature (its name: "a PNG
    /// image").
    Foreign(&'static str),
    /// Bytes that are none of the above.
    Unknown,
}

/// Signatures of formats people hand to a shader tool by mistake, and their names.
const FOREIGN: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xFF\xD8\xFF", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"DDS ", "a DDS texture"),
    (
        b"DXBC",
        "Direct3D 10+ bytecode (DXBC; dxso reads Direct3D 9's)",
    ),
    (b"\x03\x02\x23\x07", "a SPIR-V module"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1F\x8B", "a gzip stream"),
    (b"%PDF", "a PDF document"),
    (b"\x7FELF", "an ELF executable"),
    (b"MZ", "a Windows executable"),
];

/// Whether a line of text is a shader version statement: `vs_2_0`, `ps_3_sw`, `ps.1.4`,
/// `tx_1_0`, alone or before a comment.
fn is_version_line(line: &str) -> bool {
    let word = line
        .split(|c: char| c.is_whitespace() || c == ';' || c == '/')
        .next()
        .unwrap_or("");
    let lower = word.to_ascii_lowercase();
    let Some(rest) = ["vs", "ps", "tx"]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
    else {
        return false;
    };
    let mut parts = rest.split(['_', '.']);
    parts.next() == Some("")
        && parts
            .next()
            .is_some_and(|m| m.len() == 1 && m.as_bytes()[0].is_ascii_digit())
        && parts
            .next()
            .is_some_and(|n| matches!(n, "0" | "1" | "2" | "3" | "4" | "x" | "sw"))
        && parts.next().is_none()
}

/// Words that make text HLSL source rather than prose.
const HLSL_WORDS: &[&str] = &[
    "float4",
    "float3",
    "float2",
    "float4x4",
    "half4",
    "sampler",
    "sampler2D",
    "samplerCUBE",
    "technique",
    "uniform",
    "struct",
    "tex2D",
    "mul(",
    "return",
];

impl Kind {
    /// Tells the kind of `bytes`.
    pub fn detect(bytes: &[u8]) -> Kind {
        if bytes.is_empty() {
            return Kind::Empty;
        }
        if let Some(first) = bytes.first_chunk::<4>() {
            let word = u32::from_le_bytes(*first);
            if word == EFFECT_MAGIC {
                return Kind::Effect;
            }
            if matches!(word >> 16, 0xFFFE | 0xFFFF) {
                return Kind::Bytecode;
            }
            if *first == dxso_dp2::capture::MAGIC {
                return Kind::Dp2Capture;
            }
        }
        if let Some((_, name)) = FOREIGN.iter().find(|(sig, _)| bytes.starts_with(sig)) {
            return Kind::Foreign(name);
        }
        let Ok(text) = std::str::from_utf8(strip_bom(bytes)) else {
            return Kind::Unknown;
        };
        let trimmed = text.trim_start();
        if trimmed.starts_with('{') || trimmed.starts_with('[') {
            return match serde_json::from_str::<serde_json::Value>(text) {
                Ok(v) if v.get("commands").is_some() => Kind::Dp2Json,
                Ok(v) if v.get("control_points").is_some() => Kind::PatchJson,
                Ok(_) => Kind::Json,
                // Broken JSON is still meant as JSON; the reader's error says where it broke.
                Err(_) if text.contains("\"commands\"") => Kind::Dp2Json,
                Err(_) if text.contains("\"control_points\"") => Kind::PatchJson,
                Err(_) => Kind::Json,
            };
        }
        if super::header::Header::parse(text).is_ok_and(|h| !h.arrays.is_empty()) {
            return Kind::Header;
        }
        if trimmed.is_empty() {
            return Kind::Empty;
        }
        if text.lines().any(|l| is_version_line(l.trim_start())) {
            return Kind::Assembly;
        }
        if HLSL_WORDS.iter().any(|w| text.contains(w)) {
            return Kind::Hlsl;
        }
        Kind::Text
    }

    /// A stable name for JSON (`bytecode`, `assembly`, ...).
    pub fn id(self) -> &'static str {
        match self {
            Kind::Bytecode => "bytecode",
            Kind::Effect => "fx_2_0_effect",
            Kind::Dp2Capture => "dp2_capture",
            Kind::Header => "c_header",
            Kind::Assembly => "assembly",
            Kind::Hlsl => "hlsl",
            Kind::Text => "text",
            Kind::Foreign(_) => "other_format",
            Kind::Dp2Json => "dp2_json",
            Kind::PatchJson => "patch_json",
            Kind::Json => "json",
            Kind::Empty => "empty",
            Kind::Unknown => "unknown",
        }
    }

    /// What to run instead, for a command that does not read this kind.
    pub fn hint(self) -> &'static str {
        match self {
            Kind::Bytecode | Kind::Header => {
                "use `dxso disasm` (or `dxso info`, `dxso dump`, `dxso validate`)"
            }
            Kind::Effect => {
                "use `dxso fx info` (its shaders as bytecode and listings: `dxso fx extract FILE -o DIR`; \
                 what a pass sets: `dxso fx eval`)"
            }
            Kind::Dp2Capture => "use `dxso dp2 dump` or `dxso dp2 run`",
            Kind::Assembly => {
                "use `dxso asm` (`dxso disasm` and `dxso validate` assemble it first)"
            }
            Kind::Dp2Json => {
                "use `dxso dp2 build` (`dxso dp2 run` and `dxso dp2 dump` build it first)"
            }
            Kind::PatchJson => "use `dxso tessellate`",
            Kind::Json => {
                "dxso reads DP2 descriptions (`dxso dp2 build`) and patches (`dxso tessellate`)"
            }
            Kind::Hlsl => "use `dxso compile FILE -T <profile>` (vs_2_0, ps_3_0, fx_2_0, ...)",
            Kind::Text | Kind::Foreign(_) => {
                "dxso reads shader bytecode, fxc /Fh headers, assembly text with a version \
                 statement (vs_2_0, ps_3_0, ...), HLSL, fx_2_0 effects, .dp2 captures and their JSON"
            }
            Kind::Empty => "there is nothing to read",
            Kind::Unknown => {
                "shader bytecode starts with a version token 0xFFFEmmnn (vertex) or 0xFFFFmmnn \
                 (pixel)"
            }
        }
    }

    /// File extensions a folder search picks for this kind (`dxso validate shaders/`).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Kind::Bytecode => &["dxso", "vso", "pso", "fxo", "cso", "bin"],
            Kind::Header => &["h"],
            Kind::Assembly => &["asm"],
            Kind::Hlsl => &["hlsl", "fx"],
            Kind::Effect => &["fxo", "fxb"],
            Kind::Dp2Capture => &["dp2"],
            Kind::Dp2Json | Kind::PatchJson | Kind::Json => &["json"],
            Kind::Text | Kind::Foreign(_) | Kind::Empty | Kind::Unknown => &[],
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Bytecode => "shader bytecode",
            Kind::Effect => "an fx_2_0 effect",
            Kind::Dp2Capture => "a .dp2 capture",
            Kind::Header => "a C header (fxc /Fh)",
            Kind::Assembly => "assembly text",
            Kind::Hlsl => "HLSL source",
            Kind::Text => "text without a shader version statement",
            Kind::Foreign(name) => name,
            Kind::Dp2Json => "a DP2 JSON description",
            Kind::PatchJson => "a patch JSON description",
            Kind::Json => "JSON that dxso does not read",
            Kind::Empty => "empty",
            Kind::Unknown => "not shader bytecode",
        })
    }
}

/// `bytes` without a leading UTF-8 byte-order mark.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_told_apart() {
        assert_eq!(Kind::detect(&[0x00, 0x02, 0xFF, 0xFF]), Kind::Bytecode);
        assert_eq!(Kind::detect(&[0x01, 0x01, 0xFE, 0xFF]), Kind::Bytecode);
        assert_eq!(Kind::detect(&[0x01, 0x09, 0xFF, 0xFE, 0, 0]), Kind::Effect);
        assert_eq!(Kind::detect(b"DP2F\x01\0\0\0"), Kind::Dp2Capture);
        assert_eq!(
            Kind::detect(b"const BYTE g[] = { 0, 2, 255, 255 };"),
            Kind::Header
        );
        assert_eq!(
            Kind::detect(b"\xEF\xBB\xBFvs_1_1\r\nnop\r\n"),
            Kind::Assembly
        );
        assert_eq!(Kind::detect(b"{\"commands\": []}"), Kind::Dp2Json);
        assert_eq!(Kind::detect(b"{\"control_points\": [}"), Kind::PatchJson);
        assert_eq!(Kind::detect(b"[1, 2]"), Kind::Json);
        assert_eq!(Kind::detect(b""), Kind::Empty);
        assert_eq!(Kind::detect(b"  \n"), Kind::Empty);
        assert_eq!(Kind::detect(&[0x80, 0x81, 0x82, 0x83]), Kind::Unknown);
        assert_eq!(Kind::detect(b"  // c\n  PS.1.4 // x\n"), Kind::Assembly);
        assert_eq!(Kind::detect(b"#define X\nvs_3_0\n"), Kind::Assembly);
        assert_eq!(
            Kind::detect(b"float4 main() : COLOR { return 0; }"),
            Kind::Hlsl
        );
        assert_eq!(Kind::detect(b"some words here\n"), Kind::Text);
        assert_eq!(Kind::detect(b"vs_2_0x\n"), Kind::Text);
        let png = Kind::detect(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
        assert_eq!(png, Kind::Foreign("a PNG image"));
        assert_eq!(png.to_string(), "a PNG image");
    }
}
