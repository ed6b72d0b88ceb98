//! Labels for the DWORDs of a CTAB comment (`D3DXSHADER_CONSTANTTABLE`), so `dxso dump` says
//! what each one is: the header's fields, each constant's `D3DXSHADER_CONSTANTINFO`, the type
//! records, the strings and the default values. Offsets in the table count bytes from the
//! DWORD after the `CTAB` tag; a table whose offsets point outside it keeps the plain data
//! labels for the words it cannot place.

use std::collections::HashSet;

/// Nesting of struct members followed (deeper records keep their plain labels).
const MAX_DEPTH: usize = 8;

/// A label for each DWORD of `data` (the comment's words, the `CTAB` tag first); `None` where
/// the table says nothing about the word.
pub fn labels(data: &[u32]) -> Vec<Option<String>> {
    let mut out = vec![None; data.len()];
    if data.len() < 8 {
        return out;
    }
    out[0] = Some("tag \"CTAB\"".to_string());
    let table = &data[1..];
    let mut labeler = Labeler {
        table,
        out: &mut out[1..],
        types_seen: HashSet::new(),
    };
    labeler.header();
    out
}

struct Labeler<'a> {
    table: &'a [u32],
    out: &'a mut [Option<String>],
    types_seen: HashSet<usize>,
}

impl Labeler<'_> {
    fn set(&mut self, word: usize, label: String) {
        if let Some(slot) = self.out.get_mut(word) {
            slot.get_or_insert(label);
        }
    }

    fn word(&self, index: usize) -> Option<u32> {
        self.table.get(index).copied()
    }

    /// The string at byte offset `at`, and the DWORDs it spans.
    fn string(&mut self, at: u32, what: &str) {
        let bytes: Vec<u8> = self.table.iter().flat_map(|w| w.to_le_bytes()).collect();
        let start = at as usize;
        if start >= bytes.len() {
            return;
        }
        let end = bytes[start..]
            .iter()
            .position(|&b| b == 0)
            .map_or(bytes.len(), |n| start + n);
        let text = String::from_utf8_lossy(&bytes[start..end]).into_owned();
        self.set(start / 4, format!("{what} \"{text}\""));
        for word in start / 4 + 1..=end / 4 {
            self.set(word, format!("  ({what}, continued)"));
        }
    }

    fn header(&mut self) {
        let field = |i: usize| self.table[i];
        let (creator, version, count, infos, flags, target) =
            (field(1), field(2), field(3), field(4), field(5), field(6));
        self.set(0, format!("Size {}", field(0)));
        self.set(1, format!("Creator at {creator:#x}"));
        self.set(2, format!("Version {version:#010x}"));
        self.set(3, format!("Constants {count}"));
        self.set(4, format!("ConstantInfo at {infos:#x}"));
        self.set(5, format!("Flags {flags:#x}"));
        self.set(6, format!("Target at {target:#x}"));
        self.string(creator, "creator");
        self.string(target, "target");
        if infos % 4 != 0 {
            return;
        }
        let first = infos as usize / 4;
        // Each record is 5 DWORDs; a count larger than the table is cut to what fits.
        let fits = self.table.len().saturating_sub(first) / 5;
        for k in 0..(count as usize).min(fits) {
            self.constant(k, first + 5 * k);
        }
    }

    fn constant(&mut self, k: usize, at: usize) {
        let (Some(name), Some(set_index), Some(count), Some(ty), Some(default)) = (
            self.word(at),
            self.word(at + 1),
            self.word(at + 2),
            self.word(at + 3),
            self.word(at + 4),
        ) else {
            return;
        };
        let set = match set_index & 0xFFFF {
            0 => "bool".to_string(),
            1 => "int4".to_string(),
            2 => "float4".to_string(),
            3 => "sampler".to_string(),
            n => format!("set {n}"),
        };
        self.set(at, format!("constant {k}: Name at {name:#x}"));
        self.set(
            at + 1,
            format!("  RegisterSet {set}, RegisterIndex {}", set_index >> 16),
        );
        self.set(at + 2, format!("  RegisterCount {}", count & 0xFFFF));
        self.set(at + 3, format!("  TypeInfo at {ty:#x}"));
        self.set(at + 4, format!("  DefaultValue at {default:#x}"));
        self.string(name, &format!("constant {k} name"));
        self.type_info(ty, &format!("constant {k} type"), 0);
        if default != 0 && default % 4 == 0 {
            // Registers of four DWORDs each, as fxc writes defaults.
            let words = (count & 0xFFFF) as usize * 4;
            for i in 0..words {
                let w = default as usize / 4 + i;
                if let Some(v) = self.word(w) {
                    self.set(
                        w,
                        format!("  constant {k} default [{i}] = {}", f32::from_bits(v)),
                    );
                }
            }
        }
    }

    fn type_info(&mut self, at: u32, what: &str, depth: usize) {
        if at % 4 != 0 || depth > MAX_DEPTH || !self.types_seen.insert(at as usize) {
            return;
        }
        let i = at as usize / 4;
        let (Some(a), Some(b), Some(c), Some(members)) =
            (self.word(i), self.word(i + 1), self.word(i + 2), self.word(i + 3))
        else {
            return;
        };
        let class = match a & 0xFFFF {
            0 => "scalar".to_string(),
            1 => "vector".to_string(),
            2 => "matrix rows".to_string(),
            3 => "matrix columns".to_string(),
            4 => "object".to_string(),
            5 => "struct".to_string(),
            n => format!("class {n}"),
        };
        let ty = dxso::ctab::ParameterType::from_raw((a >> 16) as u16)
            .map_or_else(|| format!("{}", a >> 16), |t| format!("{t:?}"));
        self.set(i, format!("{what}: Class {class}, Type {ty}"));
        self.set(i + 1, format!("  Rows {}, Columns {}", b & 0xFFFF, b >> 16));
        self.set(
            i + 2,
            format!("  Elements {}, StructMembers {}", c & 0xFFFF, c >> 16),
        );
        self.set(i + 3, format!("  StructMemberInfo at {members:#x}"));
        let member_count = (c >> 16) as usize;
        if member_count == 0 || members % 4 != 0 {
            return;
        }
        let first = members as usize / 4;
        let fits = self.table.len().saturating_sub(first) / 2;
        for m in 0..member_count.min(fits) {
            let at = first + 2 * m;
            let (Some(name), Some(ty)) = (self.word(at), self.word(at + 1)) else {
                return;
            };
            self.set(at, format!("{what} member {m}: Name at {name:#x}"));
            self.set(at + 1, format!("  TypeInfo at {ty:#x}"));
            self.string(name, &format!("{what} member {m} name"));
            self.type_info(ty, &format!("{what} member {m} type"), depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::labels;

    #[test]
    fn hostile_tables_give_labels_without_panicking() {
        // Offsets and counts past the end, a type record pointing at itself as a member.
        let mut data = vec![0x4241_5443, 28, 0xFFFF_FF00, 0xFFFF0200, 1_000_000, 0x1C, 0, 0x40];
        data.extend([0, 2, 1, 0x30, 0x1000]);
        data.extend([0x0001_0005, 0x0001_0001, 0x0001_0001, 0x30]);
        data.extend([0x30, 0x30]);
        let l = labels(&data);
        assert_eq!(l.len(), data.len());
        assert_eq!(l[4].as_deref(), Some("Constants 1000000"));
        assert!(l[9].as_deref().unwrap().contains("RegisterSet float4"));
        assert!(l[13].as_deref().unwrap().contains("Class struct"), "{l:?}");
    }

    #[test]
    fn a_short_comment_has_no_labels() {
        assert!(labels(&[0x4241_5443, 1]).iter().all(Option::is_none));
    }
}
