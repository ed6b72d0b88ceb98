//! The arrays of a C header as `fxc /Fh` writes it (`const BYTE g_ps20_main[] = { ... };`, or
//! `const DWORD ...` with `/Fh` of older fxc), and the bytes of one of them.

use thiserror::Error;

/// The element type of a C array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Element {
    /// `BYTE`, `unsigned char`, `uint8_t`.
    Byte,
    /// `DWORD`, `unsigned int`, `uint32_t`, `UINT`.
    Dword,
}

impl Element {
    /// `BYTE` or `DWORD`.
    pub fn name(self) -> &'static str {
        match self {
            Element::Byte => "BYTE",
            Element::Dword => "DWORD",
        }
    }
}

/// One array of the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// Its C name.
    pub name: String,
    /// Its element type.
    pub element: Element,
    /// The 1-based line of its name.
    pub line: usize,
    /// The byte range of the text between `{` and `}` (comments blanked).
    body: std::ops::Range<usize>,
}

/// Why a header gives no bytes.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HeaderError {
    /// No `BYTE`/`DWORD` array at all.
    #[error("no BYTE or DWORD array (`const BYTE name[] = {{ ... }};`) in the header")]
    NoArray,
    /// An array whose `{` has no `}`.
    #[error("line {line}: array `{name}` has no closing brace")]
    Unclosed {
        /// The array.
        name: String,
        /// Its line.
        line: usize,
    },
    /// `--name` names no array; lists the ones there are.
    #[error("no array named `{wanted}`; the header has {}", list(.available))]
    NoSuchArray {
        /// The name asked for.
        wanted: String,
        /// `name (TYPE, line N)` of every array.
        available: Vec<String>,
    },
    /// An element that is not a C integer.
    #[error("line {line}: array `{array}`, element {index}: `{text}` is not an integer")]
    NotInteger {
        /// The array.
        array: String,
        /// The element's index.
        index: usize,
        /// Its line.
        line: usize,
        /// Its text.
        text: String,
    },
    /// An element too big for the element type.
    #[error("line {line}: array `{array}`, element {index}: {value} is not a {what}")]
    OutOfRange {
        /// The array.
        array: String,
        /// The element's index.
        index: usize,
        /// Its line.
        line: usize,
        /// The value.
        value: i64,
        /// `byte (0-255)` or `DWORD (0-4294967295)`.
        what: &'static str,
    },
}

fn list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A parsed header: the text with comments blanked (same byte positions) and its arrays.
pub struct Header {
    text: String,
    /// The arrays in text order.
    pub arrays: Vec<Array>,
}

impl Header {
    /// Finds every `BYTE`/`DWORD` array of `text`.
    pub fn parse(text: &str) -> Result<Header, HeaderError> {
        let text = blank_comments(text);
        let mut arrays = Vec::new();
        let mut from = 0;
        while let Some(found) = text[from..].find("[]") {
            let at = from + found;
            from = at + 2;
            let before = &text[..at];
            let name_start = before
                .trim_end()
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map_or(0, |i| i + 1);
            let name = before[name_start..].trim_end().to_string();
            let decl_start = before[..name_start]
                .rfind([';', '}', '{'])
                .map_or(0, |i| i + 1);
            let Some(element) = element_type(&before[decl_start..name_start]) else {
                continue;
            };
            let after = &text[from..];
            let Some(rest) = after.trim_start().strip_prefix('=') else {
                continue;
            };
            if !rest.trim_start().starts_with('{') {
                continue;
            }
            let line = line_of(&text, name_start);
            let open = from + after.find('{').expect("checked above");
            let Some(close) = text[open..].find('}').map(|c| open + c) else {
                return Err(HeaderError::Unclosed { name, line });
            };
            arrays.push(Array {
                name,
                element,
                line,
                body: open + 1..close,
            });
            from = close;
        }
        Ok(Header { text, arrays })
    }

    /// The bytes of the array called `name`, or of the first array.
    pub fn bytes(&self, name: Option<&str>) -> Result<Vec<u8>, HeaderError> {
        let array = match name {
            None => self.arrays.first().ok_or(HeaderError::NoArray)?,
            Some(n) => self.arrays.iter().find(|a| a.name == n).ok_or_else(|| {
                if self.arrays.is_empty() {
                    return HeaderError::NoArray;
                }
                HeaderError::NoSuchArray {
                    wanted: n.to_string(),
                    available: self
                        .arrays
                        .iter()
                        .map(|a| format!("{} ({}, line {})", a.name, a.element.name(), a.line))
                        .collect(),
                }
            })?,
        };
        let mut bytes = Vec::new();
        let mut pos = array.body.start;
        for (index, item) in self.text[array.body.clone()].split(',').enumerate() {
            let start = pos + (item.len() - item.trim_start().len());
            pos += item.len() + 1;
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let line = line_of(&self.text, start);
            let value = parse_c_integer(item).ok_or_else(|| HeaderError::NotInteger {
                array: array.name.clone(),
                index,
                line,
                text: item.to_string(),
            })?;
            let out_of_range = |what| HeaderError::OutOfRange {
                array: array.name.clone(),
                index,
                line,
                value,
                what,
            };
            match array.element {
                Element::Byte => {
                    bytes.push(u8::try_from(value).map_err(|_| out_of_range("byte (0-255)"))?)
                }
                Element::Dword => {
                    let d =
                        u32::try_from(value).map_err(|_| out_of_range("DWORD (0-4294967295)"))?;
                    bytes.extend_from_slice(&d.to_le_bytes());
                }
            }
        }
        Ok(bytes)
    }
}

/// Extracts the bytes of the array called `name` (or the first array) from C source.
pub fn header_array(text: &str, name: Option<&str>) -> Result<Vec<u8>, HeaderError> {
    Header::parse(text)?.bytes(name)
}

fn line_of(text: &str, byte: usize) -> usize {
    text.as_bytes()[..byte]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
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

/// `//` and `/* */` comments replaced by spaces, newlines kept, so byte positions and line
/// numbers stay those of the file. (fxc's listing sits in `#if 0` as `//` lines and holds no
/// `[] = {`.)
fn blank_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let blank = |out: &mut String, c: char| {
        if c == '\n' {
            out.push('\n');
        } else {
            for _ in 0..c.len_utf8() {
                out.push(' ');
            }
        }
    };
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            out.push(' ');
            while let Some(&n) = chars.peek() {
                if n == '\n' {
                    break;
                }
                blank(&mut out, n);
                chars.next();
            }
        } else if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            out.push_str("  ");
            let mut prev = ' ';
            for n in chars.by_ref() {
                blank(&mut out, n);
                if prev == '*' && n == '/' {
                    break;
                }
                prev = n;
            }
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
        assert_eq!(
            header_array(h, Some("nope")).unwrap_err().to_string(),
            "no array named `nope`; the header has `g_ps20_main (BYTE, line 5)`, \
             `g_vs (DWORD, line 9)`"
        );
        assert_eq!(header_array("int x;", None), Err(HeaderError::NoArray));
    }

    #[test]
    fn comments_between_elements() {
        let h = "static const DWORD a[] = { /* vs_1_1 */ 0xfffe0101, // x\n 0x0000ffff };";
        assert_eq!(header_array(h, None).unwrap().len(), 8);
    }

    #[test]
    fn errors_name_the_line_and_the_value() {
        let h = "const BYTE g[] =\n{\n  1, 2,\n  3, 999\n};\n";
        assert_eq!(
            header_array(h, None).unwrap_err().to_string(),
            "line 4: array `g`, element 3: 999 is not a byte (0-255)"
        );
        let h = "// note\nconst BYTE g[] = { 1, /* a\n b */ zz };";
        assert_eq!(
            header_array(h, None).unwrap_err().to_string(),
            "line 3: array `g`, element 1: `zz` is not an integer"
        );
        let h = "const DWORD g[] = {\n 0x1ffffffff };";
        assert!(header_array(h, None)
            .unwrap_err()
            .to_string()
            .starts_with("line 2: array `g`, element 0: 8589934591 is not a DWORD"));
        let h = "const BYTE g[] = { 1, 2";
        assert_eq!(
            header_array(h, None),
            Err(HeaderError::Unclosed {
                name: "g".into(),
                line: 1
            })
        );
    }
}
