//! Reading shader bytes from a raw file, an fxc `/Fh` C header, or standard input.

use anyhow::{bail, Context, Result};
use std::io::Read;
use std::path::PathBuf;

/// The input file shared by every subcommand that reads one shader.
#[derive(clap::Args, Clone, Debug)]
pub struct InputArg {
    /// Raw bytecode, a C header as `fxc /Fh` writes it (BYTE or DWORD array), or `-` for stdin.
    pub file: PathBuf,
    /// In a header with several arrays, the name of the one to read (default: the first).
    #[arg(long)]
    pub name: Option<String>,
}

impl InputArg {
    /// A short name for messages.
    pub fn display(&self) -> String {
        self.file.display().to_string()
    }

    /// The raw bytes of the file (or stdin).
    pub fn read_raw(&self) -> Result<Vec<u8>> {
        if self.file.as_os_str() == "-" {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .context("reading standard input")?;
            Ok(buf)
        } else {
            std::fs::read(&self.file).with_context(|| format!("reading {}", self.display()))
        }
    }

    /// The shader bytecode: the file itself, or the array of a C header.
    pub fn read_shader(&self) -> Result<Vec<u8>> {
        let raw = self.read_raw()?;
        if looks_like_bytecode(&raw) {
            if self.name.is_some() {
                bail!(
                    "--name applies to C headers, but {} is raw bytecode",
                    self.display()
                );
            }
            return Ok(raw);
        }
        let text = std::str::from_utf8(&raw).with_context(|| {
            format!(
                "{} is neither shader bytecode (no version token) nor a UTF-8 C header",
                self.display()
            )
        })?;
        header_array(text, self.name.as_deref()).with_context(|| format!("in {}", self.display()))
    }
}

impl InputArg {
    /// The shader's bytes and its decoded model; a decoding error names the file, the offset
    /// and the rule.
    pub fn read_decoded(&self) -> Result<(Vec<u8>, dxso::Shader)> {
        let bytes = self.read_shader()?;
        let shader =
            dxso::decode(&bytes).with_context(|| format!("decoding {}", self.display()))?;
        Ok((bytes, shader))
    }
}

/// Bytecode starts with a version token `0xFFFEmmnn` or `0xFFFFmmnn`.
pub fn looks_like_bytecode(raw: &[u8]) -> bool {
    raw.len() >= 4 && raw[2..4] == [0xFE, 0xFF] || raw.len() >= 4 && raw[2..4] == [0xFF, 0xFF]
}

/// The element type of a C array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Element {
    Byte,
    Dword,
}

/// Extracts the bytes of the array called `name` (or the first array) from C source.
pub fn header_array(text: &str, name: Option<&str>) -> Result<Vec<u8>> {
    let text = strip_comments(text);
    let mut found = Vec::new();
    let mut rest = text.as_str();
    let mut offset = 0;
    while let Some(eq) = rest.find("[]") {
        let before = &rest[..eq];
        let after = &rest[eq + 2..];
        let ident: String = before
            .trim_end()
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let decl_start = before.rfind([';', '}', '\n', '{']).map_or(0, |i| i + 1);
        let decl = &before[decl_start..];
        let element = element_type(decl);
        let body_start = after.find('{');
        let after_trim = after.trim_start();
        if let (Some(element), Some(open), true) =
            (element, body_start, after_trim.starts_with('='))
        {
            let close = after[open..].find('}').map(|c| open + c);
            let Some(close) = close else {
                bail!("array `{ident}` has no closing brace");
            };
            found.push((ident, element, after[open + 1..close].to_string()));
            offset += eq + 2 + close;
            rest = &text[offset..];
        } else {
            offset += eq + 2;
            rest = &text[offset..];
        }
    }
    if found.is_empty() {
        bail!("no BYTE or DWORD array found");
    }
    let (ident, element, body) = match name {
        Some(n) => found
            .into_iter()
            .find(|(i, _, _)| i == n)
            .with_context(|| format!("no array named `{n}`"))?,
        None => found.into_iter().next().expect("checked non-empty"),
    };
    let mut bytes = Vec::new();
    for (i, item) in body
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        let value = parse_c_integer(item)
            .with_context(|| format!("array `{ident}`, element {i}: `{item}` is not an integer"))?;
        match element {
            Element::Byte => {
                let b = u8::try_from(value).with_context(|| {
                    format!("array `{ident}`, element {i}: {value} is not a byte")
                })?;
                bytes.push(b);
            }
            Element::Dword => {
                let d = u32::try_from(value).with_context(|| {
                    format!("array `{ident}`, element {i}: {value} is not a DWORD")
                })?;
                bytes.extend_from_slice(&d.to_le_bytes());
            }
        }
    }
    Ok(bytes)
}

fn element_type(decl: &str) -> Option<Element> {
    let words: Vec<&str> = decl.split_whitespace().collect();
    let has = |w: &str| words.iter().any(|x| x.eq_ignore_ascii_case(w));
    if has("BYTE") || has("uint8_t") || has("char") {
        Some(Element::Byte)
    } else if has("DWORD") || has("uint32_t") || has("int") || has("UINT") || has("long") {
        Some(Element::Dword)
    } else {
        None
    }
}

fn parse_c_integer(s: &str) -> Option<i64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if s.len() > 1 && s.starts_with('0') {
        i64::from_str_radix(&s[1..], 8).ok()?
    } else {
        s.parse().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Removes `//` and `/* */` comments and `#if 0` blocks are left to the array search (listings
/// hold no `[] = {`).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            for n in chars.by_ref() {
                if n == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut prev = ' ';
            for n in chars.by_ref() {
                if prev == '*' && n == '/' {
                    break;
                }
                prev = n;
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_and_dword_arrays() {
        let h = "#if 0\n//  ps_2_0\n#endif\n\nconst BYTE g_ps20_main[] =\n{\n      0,   2, 255, 255, 255, 255\n};\n\
                 const DWORD g_vs[] = { 0xfffe0101, 0x0000ffff };\n";
        assert_eq!(
            header_array(h, None).unwrap(),
            vec![0, 2, 255, 255, 255, 255]
        );
        assert_eq!(
            header_array(h, Some("g_vs")).unwrap(),
            vec![1, 1, 0xfe, 0xff, 0xff, 0xff, 0, 0]
        );
        assert!(header_array(h, Some("nope")).is_err());
        assert!(header_array("int x;", None).is_err());
    }

    #[test]
    fn comments_between_elements() {
        let h = "static const DWORD a[] = { /* vs_1_1 */ 0xfffe0101, // x\n 0x0000ffff };";
        assert_eq!(header_array(h, None).unwrap().len(), 8);
    }
}
