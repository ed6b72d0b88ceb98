//! Spellings shared by the printer and the parser: component letters, result and source
//! modifier suffixes, comparison suffixes and register names, in the forms Microsoft's tools
//! print and accept.

use dxso::{RegisterType, Version};

/// The letters of the four components, as printed.
pub const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// The component index of a swizzle or mask letter (`xyzw` or `rgba`, any case).
pub const fn component_of(letter: char) -> Option<u8> {
    Some(match letter.to_ascii_lowercase() {
        'x' | 'r' => 0,
        'y' | 'g' => 1,
        'z' | 'b' => 2,
        'w' | 'a' => 3,
        _ => return None,
    })
}

/// The register files an assembly register name can start with, longest spelling first so
/// that a prefix search finds `oPos` before `o` and `aL` before `a`.
///
/// `a` and `t` share a register type (ADDR/TEXTURE); which one a spelling means in a version
/// is checked by [`register_allowed`].
pub const REGISTER_PREFIXES: &[(&str, RegisterType, Option<u16>)] = &[
    ("odepth", RegisterType::DepthOut, Some(0)),
    ("vface", RegisterType::MiscType, Some(1)),
    ("opos", RegisterType::RastOut, Some(0)),
    ("ofog", RegisterType::RastOut, Some(1)),
    ("opts", RegisterType::RastOut, Some(2)),
    ("vpos", RegisterType::MiscType, Some(0)),
    ("od", RegisterType::AttrOut, None),
    ("ot", RegisterType::Output, None),
    ("oc", RegisterType::ColorOut, None),
    ("al", RegisterType::Loop, Some(0)),
    ("o", RegisterType::Output, None),
    ("r", RegisterType::Temp, None),
    ("v", RegisterType::Input, None),
    ("c", RegisterType::Const, None),
    ("a", RegisterType::Addr, None),
    ("t", RegisterType::Addr, None),
    ("i", RegisterType::ConstInt, None),
    ("s", RegisterType::Sampler, None),
    ("b", RegisterType::ConstBool, None),
    ("l", RegisterType::Label, None),
    ("p", RegisterType::Predicate, None),
];

/// Register spellings depend on a version only through its kind and whether its major
/// version is at least 3 ([`register_allowed`], [`RegisterType::prefix`]): one version of each
/// class, in the order [`spelling_class`] numbers them. Tables of spellings are built once per
/// class.
pub(crate) const SPELLING_CLASSES: [Version; 4] = [
    Version::vs(2, 0),
    Version::vs(3, 0),
    Version::ps(2, 0),
    Version::ps(3, 0),
];

/// The index in [`SPELLING_CLASSES`] of the class `version` belongs to.
pub(crate) const fn spelling_class(version: Version) -> usize {
    version.is_pixel() as usize * 2 + (version.major >= 3) as usize
}

/// Whether `spelling` (a lower-case entry of [`REGISTER_PREFIXES`]) names a register in
/// `version`: `a#` only in vertex shaders, `t#` only in pixel shaders, `o#` only in vs_3_0,
/// `oT#`, `oD#`, `oPos`, `oFog`, `oPts` only before it.
pub fn register_allowed(spelling: &str, version: Version) -> bool {
    match spelling {
        "a" => version.is_vertex(),
        "t" => version.is_pixel(),
        "o" => version.is_vertex() && version.major >= 3,
        "ot" | "od" | "opos" | "ofog" | "opts" => version.is_vertex() && version.major < 3,
        "oc" | "odepth" | "vpos" | "vface" => version.is_pixel(),
        _ => true,
    }
}

/// The comparison suffixes (`_gt` ...) by raw value 1..=6.
pub const COMPARISONS: [&str; 6] = ["gt", "eq", "ge", "lt", "ne", "le"];

/// The `// dxso:` lines of the lossless listing ([`crate::print::lossless`]), as the printer
/// writes them and the parser reads them.
pub mod lossless {
    /// The word that starts a comment block's lines.
    pub const COMMENT: &str = "comment";

    /// The word that continues a comment block on the next line.
    pub const DATA: &str = "data";

    /// The prefix of every lossless line after its `//` and spaces.
    pub const PREFIX: &str = "dxso:";

    /// Whether `line` is a lossless line: a `//` comment, alone on its line, whose text starts
    /// with `dxso:` (spaces before either allowed).
    pub fn is_lossless_line(line: &str) -> bool {
        let t = line.trim_start_matches([' ', '\t']);
        t.strip_prefix("//")
            .is_some_and(|r| r.trim_start_matches([' ', '\t']).starts_with(PREFIX))
    }
}
