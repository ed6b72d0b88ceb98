//! [`Assembler`]: the free functions of [`super`] with the single pass's memory of words
//! ([`super::cache`]) kept by the caller from text to text.

use super::fast::Kept;
use super::sink::{Bytes, Items};
use super::{fast_path, fast_shader, parse_full, Diagnostic, Diagnostics, ParseOptions, SourceMap};
use dxso::Shader;

/// Assembles many texts: [`crate::parse()`] and [`crate::assemble()`] with their `_with`
/// forms, giving the same results, faster for a caller with many texts.
///
/// Texts repeat their words (`mov`, `r0`, `c0`, `oPos`, ...): an assembler remembers the
/// meaning of the words it has read, for each shader version, and reads a word it has seen
/// again as a table look-up. The free functions start each text with an empty memory; keep
/// one `Assembler` (one per thread: its methods take `&mut self`) to reuse it. Its memory is
/// a few fixed tables of tens of kilobytes, made on first use, so it never grows with the
/// texts read (the free functions make smaller tables, sized to their one text).
///
/// ```
/// let mut assembler = dxso_text::Assembler::new();
/// for text in ["ps_2_0\nmov oC0, c0\n", "ps_2_0\nmov oC0, c1\n"] {
///     let bytes = assembler.assemble(text)?;
///     assert_eq!(bytes, dxso_text::assemble(text)?);
/// }
/// # Ok::<(), dxso_text::Diagnostics>(())
/// ```
pub struct Assembler {
    /// The words read for shaders ([`Assembler::parse`]).
    pub(super) shaders: Kept<Items>,
    /// The words read for bytecode ([`Assembler::assemble`]), which keeps less of each.
    pub(super) bytes: Kept<Bytes>,
}

impl Default for Assembler {
    fn default() -> Self {
        Assembler::new()
    }
}

impl std::fmt::Debug for Assembler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Assembler")
            .field("shader_tables", &self.shaders.is_made())
            .field("bytecode_tables", &self.bytes.is_made())
            .finish()
    }
}

impl Assembler {
    /// An assembler that has read nothing yet (allocates nothing).
    pub const fn new() -> Self {
        Assembler {
            shaders: Kept::<Items>::for_texts(),
            bytes: Kept::<Bytes>::for_texts(),
        }
    }

    /// The assembler of the free functions: one text, with tables sized to it.
    pub(super) const fn for_one_text() -> Self {
        Assembler {
            shaders: Kept::<Items>::for_one_text(),
            bytes: Kept::<Bytes>::for_one_text(),
        }
    }

    /// [`crate::parse()`]: the text to a [`Shader`], with default [`ParseOptions`].
    pub fn parse(&mut self, text: &str) -> Result<Shader, Diagnostics> {
        self.parse_with(text, &ParseOptions::default())
    }

    /// [`crate::parse_with()`]: the text to a [`Shader`].
    pub fn parse_with(
        &mut self,
        text: &str,
        options: &ParseOptions<'_>,
    ) -> Result<Shader, Diagnostics> {
        self.parse_with_warnings(text, options)
            .map(|(shader, _)| shader)
    }

    /// [`crate::parse_with_warnings()`]: the text to a [`Shader`], with the warnings of a run
    /// that assembled.
    pub fn parse_with_warnings(
        &mut self,
        text: &str,
        options: &ParseOptions<'_>,
    ) -> Result<(Shader, Vec<Diagnostic>), Diagnostics> {
        // Text that needs no preprocessor and has no error assembles in one pass over its
        // bytes; anything else takes the full path, which gives the same shader (and the
        // diagnostics). The single pass gives up on a header it cannot read, so it has no
        // warnings.
        if options.defines.is_empty() {
            if let Some(shader) = fast_shader(text, options, &mut self.shaders) {
                return Ok((shader, Vec::new()));
            }
        }
        parse_full(text, options, None)
    }

    /// [`Assembler::parse_with_warnings`] with the [`SourceMap`] from the shader's items to
    /// their lines, for reporting what is found in the shader where the text says it. Always
    /// takes the full path (the single pass keeps no places).
    pub fn parse_mapped(
        &mut self,
        text: &str,
        options: &ParseOptions<'_>,
    ) -> Result<(Shader, Vec<Diagnostic>, SourceMap), Diagnostics> {
        let mut map = SourceMap::default();
        let (shader, warnings) = parse_full(text, options, Some(&mut map))?;
        Ok((shader, warnings, map))
    }

    /// [`crate::assemble()`]: the text to bytecode, with default [`ParseOptions`].
    pub fn assemble(&mut self, text: &str) -> Result<Vec<u8>, Diagnostics> {
        self.assemble_with(text, &ParseOptions::default())
    }

    /// [`crate::assemble_with()`]: the text to bytecode.
    pub fn assemble_with(
        &mut self,
        text: &str,
        options: &ParseOptions<'_>,
    ) -> Result<Vec<u8>, Diagnostics> {
        self.assemble_with_warnings(text, options)
            .map(|(bytes, _)| bytes)
    }

    /// [`crate::assemble_with_warnings()`]: the text to bytecode, with the warnings of a run
    /// that assembled.
    pub fn assemble_with_warnings(
        &mut self,
        text: &str,
        options: &ParseOptions<'_>,
    ) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostics> {
        if options.defines.is_empty() {
            let mut out = Bytes::new();
            if fast_path(text, options, &mut self.bytes, &mut out).is_some() {
                return Ok((out.finish(), Vec::new()));
            }
        }
        parse_full(text, options, None).map(|(s, warnings)| (dxso::encode(&s), warnings))
    }
}
