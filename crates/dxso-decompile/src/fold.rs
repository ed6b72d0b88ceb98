//! Readability: a temporary written by one statement and read once by a later one is folded
//! into that read, when nothing in between changes what the value reads and the temporary's
//! components are dead after the read.
//!
//! The pass works on the emitter's statements, one per line, where every temporary is a
//! `float4 r#` and every assignment has the form `r#.mask = expression;`. Only straight-line
//! code is folded: a statement and its use are in the same block with no braces between them.

use std::collections::BTreeSet;

/// The longest expression folding may build; beyond it a named temporary reads better.
const MAX_FOLDED: usize = 110;

/// An assignment to a temporary: `r{reg}{.mask} = {value};`.
struct Assign {
    reg: u32,
    /// Components written, as lane indices in order.
    mask: Vec<u8>,
    value: String,
}

fn parse_assign(line: &str) -> Option<Assign> {
    let t = line.trim_start();
    let rest = t.strip_prefix('r')?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let reg: u32 = digits.parse().ok()?;
    let rest = &rest[digits.len()..];
    let (mask, rest) = match rest.strip_prefix('.') {
        Some(r) => {
            let m: String = r.chars().take_while(|c| "xyzw".contains(*c)).collect();
            let lanes: Vec<u8> = m.bytes().map(lane).collect();
            (lanes, &r[m.len()..])
        }
        None => (vec![0, 1, 2, 3], rest),
    };
    let value = rest.strip_prefix(" = ")?.strip_suffix(';')?;
    Some(Assign {
        reg,
        mask,
        value: value.to_string(),
    })
}

fn lane(c: u8) -> u8 {
    match c {
        b'x' => 0,
        b'y' => 1,
        b'z' => 2,
        _ => 3,
    }
}

/// Every read of `r{reg}` in `text`: (start, end, components read).
fn reads(text: &str, reg: u32) -> Vec<(usize, usize, Vec<u8>)> {
    let name = format!("r{reg}");
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find(&name) {
        let start = from + k;
        let end = start + name.len();
        from = end;
        let before_ok = start == 0 || !is_ident(bytes[start - 1]) && bytes[start - 1] != b'.';
        let after_ok = end >= bytes.len() || !is_ident(bytes[end]);
        if !before_ok || !after_ok {
            continue;
        }
        let mut e = end;
        let comps = if bytes.get(end) == Some(&b'.') {
            let m: Vec<u8> = bytes[end + 1..]
                .iter()
                .take_while(|c| b"xyzw".contains(c))
                .map(|c| lane(*c))
                .collect();
            e = end + 1 + m.len();
            m
        } else {
            vec![0, 1, 2, 3]
        };
        out.push((start, e, comps));
        from = e;
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The temporaries a text reads.
fn regs_read(text: &str) -> BTreeSet<u32> {
    let bytes = text.as_bytes();
    let mut out = BTreeSet::new();
    for (k, c) in bytes.iter().enumerate() {
        if *c == b'r' && (k == 0 || !is_ident(bytes[k - 1]) && bytes[k - 1] != b'.') {
            let digits: String = text[k + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            let end = k + 1 + digits.len();
            if !digits.is_empty() && (end >= bytes.len() || !is_ident(bytes[end])) {
                if let Ok(n) = digits.parse() {
                    out.insert(n);
                }
            }
        }
    }
    out
}

/// `true` when the line opens or closes a block or is a control statement.
fn is_structural(line: &str) -> bool {
    let t = line.trim();
    t == "{"
        || t == "}"
        || t == "else"
        || t.starts_with("for ")
        || t.starts_with("if ")
        || t.starts_with("return")
        || t.starts_with("break")
        || t.starts_with("int aL")
}

/// Folds single-use temporaries. `live_out`: the function's temporaries are read after it
/// returns (a subroutine's `inout` parameters), so only overwritten values are dead.
pub(crate) fn fold(mut lines: Vec<String>, live_out: bool) -> Vec<String> {
    // Loops: a value may be read again on the next iteration, so "dead after" needs the next
    // statement that touches the register to overwrite it within the same block.
    let mut changed = true;
    let mut rounds = 0;
    while changed && rounds < 64 {
        changed = false;
        rounds += 1;
        let mut i = 0;
        while i < lines.len() {
            if let Some(done) = try_fold_at(&mut lines, i, live_out) {
                if done {
                    changed = true;
                    continue;
                }
            }
            i += 1;
        }
    }
    for l in &mut lines {
        l.retain(|c| c != crate::emit::SCALAR);
    }
    lines
}

/// Removes the emitter's markers without folding.
pub(crate) fn strip(mut lines: Vec<String>) -> Vec<String> {
    for l in &mut lines {
        l.retain(|c| c != crate::emit::SCALAR);
    }
    lines
}

/// Tries to fold the assignment at `i` into its single use; `Some(true)` when it did.
fn try_fold_at(lines: &mut Vec<String>, i: usize, live_out: bool) -> Option<bool> {
    let a = parse_assign(&lines[i])?;
    // Find the next line that touches the register.
    let mut j = i + 1;
    while j < lines.len() {
        if is_structural(&lines[j]) {
            return None;
        }
        let touches = !reads(&lines[j], a.reg).is_empty()
            || parse_assign(&lines[j]).is_some_and(|b| b.reg == a.reg);
        if touches {
            break;
        }
        // Something the value reads changes before the use: keep it.
        match split_assignment(&lines[j]) {
            Some((lhs, _)) => {
                let target = lhs.trim().split(['.', '[']).next().unwrap_or("");
                if contains_word(&a.value, target) {
                    return None;
                }
            }
            // A call may change any register it names.
            None => {
                if regs_read(&lines[j])
                    .iter()
                    .any(|r| contains_word(&a.value, &format!("r{r}")))
                    || contains_word(&lines[j], "a0")
                {
                    return None;
                }
            }
        }
        j += 1;
    }
    if j >= lines.len() {
        return None;
    }
    let use_line = lines[j].clone();
    let (lhs, rhs) = split_assignment(&use_line)?;
    let rs = reads(rhs, a.reg);
    let rs_lhs = reads(lhs, a.reg);
    if rs.len() != 1 || rs_lhs.len() > 1 {
        return None;
    }
    let (s, e, comps) = rs[0].clone();
    if !comps.iter().all(|c| a.mask.contains(c)) {
        return None;
    }
    // The use must write the register over the value's components (so it is dead after), or
    // be followed in the same block by such a write before any other read.
    let use_assign = parse_assign(&use_line);
    let overwritten = use_assign
        .as_ref()
        .is_some_and(|b| b.reg == a.reg && a.mask.iter().all(|c| b.mask.contains(c)));
    if !overwritten && !dead_after(lines, j, a.reg, &a.mask, live_out) {
        return None;
    }
    if use_assign.as_ref().is_some_and(|b| b.reg == a.reg) && rs_lhs.len() != 1 {
        return None;
    }
    // Rewrite the read: the value's lanes in the order the read asks for. A replicated scalar
    // is one lane, read at one component.
    let scalar = a.value.starts_with(crate::emit::SCALAR);
    if scalar && comps.len() > 1 {
        return None;
    }
    let a = Assign {
        value: a.value.trim_start_matches(crate::emit::SCALAR).to_string(),
        mask: if scalar { vec![comps[0]] } else { a.mask },
        reg: a.reg,
    };
    let positions: Vec<u8> = comps
        .iter()
        .map(|c| a.mask.iter().position(|m| m == c).unwrap_or(0) as u8)
        .collect();
    let width = a.mask.len();
    let identity =
        positions.len() == width && positions.iter().enumerate().all(|(k, p)| *p as usize == k);
    let bare = || {
        let before = rhs[..s].trim_end();
        let after = rhs[e..].trim_start();
        let prev = before.bytes().last();
        let next = after.bytes().next();
        let whole = before.is_empty() && after == ";";
        let argument = matches!(prev, Some(b'(' | b',')) && matches!(next, Some(b')' | b','));
        let class = top_level(&a.value);
        whole
            || argument
            || class == Class::Product
                && matches!(prev, None | Some(b'(' | b',' | b'+' | b'-'))
                && matches!(next, Some(b')' | b',' | b'+' | b'-' | b';'))
            || class == Class::Sum
                && matches!(prev, None | Some(b'(' | b','))
                && matches!(next, Some(b'+' | b'-' | b')' | b',' | b';'))
    };
    let plain = |v: &str| {
        if bare() {
            v.to_string()
        } else {
            crate::emit::paren(v)
        }
    };
    let replacement = if identity {
        plain(&a.value)
    } else if width == 1 {
        // A scalar read at several lanes needs a constructor, which reads worse: keep it.
        if positions.len() != 1 {
            return None;
        }
        plain(&a.value)
    } else {
        format!(
            "{}{}",
            crate::emit::paren(&a.value),
            crate::emit::swizzle(&positions, 0)
        )
    };
    if replacement.len() > MAX_FOLDED {
        return None;
    }
    let offset = use_line.len() - rhs.len();
    let mut new_line = use_line.clone();
    new_line.replace_range(offset + s..offset + e, &replacement);
    lines[j] = new_line;
    lines.remove(i);
    Some(true)
}

/// The loosest operator at the top level of an expression.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Only `*` and `/` (or nothing).
    Product,
    /// `+` or binary `-` (and products).
    Sum,
    /// Comparisons, `?:` or a leading sign: always parenthesised.
    Other,
}

fn top_level(e: &str) -> Class {
    let b = e.as_bytes();
    let mut depth = 0i32;
    let mut class = Class::Product;
    if b.first() == Some(&b'-') {
        return Class::Other;
    }
    for (k, c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'?' | b'<' | b'>' | b'=' | b'!' | b'&' | b'|' if depth == 0 => return Class::Other,
            b'+' if depth == 0 => class = Class::Sum,
            // A binary minus follows a space; `e-5` in a literal and `-x` after `(` do not.
            b'-' if depth == 0 && k > 0 && b[k - 1] == b' ' && b.get(k + 1) == Some(&b' ') => {
                class = Class::Sum
            }
            _ => {}
        }
    }
    class
}

/// The left and right sides of `lhs = rhs;`.
fn split_assignment(line: &str) -> Option<(&str, &str)> {
    let k = line.find(" = ")?;
    Some((&line[..k], &line[k + 3..]))
}

/// `true` when, after line `j`, the lanes `mask` of `r{reg}` are overwritten before any read,
/// within the same block; or the function ends with no enclosing loop and no other read.
fn dead_after(lines: &[String], j: usize, reg: u32, mask: &[u8], live_out: bool) -> bool {
    let mut remaining: Vec<u8> = mask.to_vec();
    let mut depth = 0i32;
    for line in &lines[j + 1..] {
        let t = line.trim();
        if t == "{" {
            depth += 1;
            continue;
        }
        if t == "}" {
            depth -= 1;
            if depth < 0 {
                // Leaving the block: a loop may come back; be conservative.
                return false;
            }
            continue;
        }
        if t.starts_with("return") && live_out {
            return false;
        }
        let r = reads(line, reg);
        if let Some(b) = parse_assign(line) {
            let rhs = split_assignment(line).map_or("", |(_, r)| r);
            if reads(rhs, reg)
                .iter()
                .any(|(_, _, c)| c.iter().any(|x| remaining.contains(x)))
            {
                return false;
            }
            if b.reg == reg && depth == 0 {
                remaining.retain(|c| !b.mask.contains(c));
                if remaining.is_empty() {
                    return true;
                }
            }
            continue;
        }
        if r.iter()
            .any(|(_, _, c)| c.iter().any(|x| remaining.contains(x)))
        {
            return false;
        }
    }
    // The end of the function: the entry point's temporaries die (`return o;` reads none).
    !live_out
}

/// `true` when `line` names `word` (not as part of a longer identifier).
pub(crate) fn mentions(line: &str, word: &str) -> bool {
    contains_word(line, word)
}

/// The entry point's statements without the writes to register locals that nothing reads: a
/// local no other statement mentions holds a value that reaches no output (the entry point
/// returns only `o`), so its assignments go, and with them what only they read.
pub(crate) fn drop_dead_locals(mut lines: Vec<String>, names: &[String]) -> Vec<String> {
    // Each pass removes at least one line; the bound is for the reader.
    for _ in 0..=lines.len() {
        let dead = lines.iter().position(|l| {
            let t = l.trim_start();
            names.iter().any(|n| {
                let assigns = t
                    .strip_prefix(n.as_str())
                    .is_some_and(|r| r.starts_with(" = ") || r.starts_with('.'))
                    && t.contains(" = ")
                    && t.ends_with(';');
                assigns && !lines.iter().any(|o| !std::ptr::eq(o, l) && mentions(o, n))
            })
        });
        match dead {
            Some(k) => {
                lines.remove(k);
            }
            None => break,
        }
    }
    lines
}

/// `line` with every `word` that is not part of a longer identifier (nor a member after `.`)
/// replaced by `with`.
pub(crate) fn replace_word(line: &str, word: &str, with: &str) -> String {
    if word.is_empty() {
        return line.to_string();
    }
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut from = 0;
    while let Some(k) = line[from..].find(word) {
        let s = from + k;
        let e = s + word.len();
        let before = s == 0 || !(is_ident(b[s - 1]) || b[s - 1] == b'.');
        let after = e >= b.len() || !is_ident(b[e]);
        out.push_str(&line[from..s]);
        out.push_str(if before && after { with } else { word });
        from = e;
    }
    out.push_str(&line[from..]);
    out
}

/// `true` when `text` contains `word` not as part of a longer identifier.
fn contains_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(k) = text[from..].find(word) {
        let s = from + k;
        let e = s + word.len();
        let before = s == 0 || !is_ident(b[s - 1]);
        let after = e >= b.len() || !is_ident(b[e]);
        if before && after {
            return true;
        }
        from = e;
    }
    false
}

#[cfg(test)]
mod tests {

    #[test]
    fn dead_locals_go_with_what_only_they_read() {
        let names = ["r0".to_string(), "r1".to_string(), "r2".to_string()];
        let body =
            lines("    r1 = c0 * 2.0;\n    r0 = r1 + 1.0;\n    r2 = i.color0;\n    o.color0 = r2;");
        assert_eq!(
            drop_dead_locals(body, &names),
            lines("    r2 = i.color0;\n    o.color0 = r2;")
        );
    }

    #[test]
    fn words_are_replaced_but_not_members_or_longer_names() {
        assert_eq!(
            replace_word("r0.x = r01 + s.r0 + r0;", "r0", "o.color0"),
            "o.color0.x = r01 + s.r0 + o.color0;"
        );
    }

    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn chains_fold_into_one_expression() {
        let out = fold(
            lines("    r0 = a * b;\n    r0 = r0 + c;\n    o.color0 = r0;"),
            false,
        );
        assert_eq!(out, lines("    o.color0 = a * b + c;"));
        // Lanes are renamed to the value's own.
        let out = fold(lines("    r1.zw = c.xy;\n    o.color0 = r1.wz;"), false);
        assert_eq!(out, lines("    o.color0 = c.xy.yx;"));
    }

    #[test]
    fn values_read_twice_or_changed_inputs_stay() {
        let src = "    r0 = a * b;\n    r1 = r0 + r0;\n    o.color0 = r1;";
        assert_eq!(
            fold(lines(src), false),
            lines("    r0 = a * b;\n    o.color0 = r0 + r0;")
        );
        let src = "    r0 = r1 * 2;\n    r1 = c;\n    o.color0 = r0 + r1;\n    o.color1 = r1;";
        assert_eq!(fold(lines(src), false), lines(src));
        // A subroutine's temporaries outlive it.
        let src = "    r0 = a * b;\n    o.color0 = r0;";
        assert_eq!(fold(lines(src), true), lines(src));
    }

    #[test]
    fn loops_keep_values_that_live_across_iterations() {
        let src = "    for (int k0 = 0; k0 < 4; k0++)\n    {\n        r0 = r0 * 2;\n    }\n    o.color0 = r0;";
        assert_eq!(fold(lines(src), false), lines(src));
    }
}
