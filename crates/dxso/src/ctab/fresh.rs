//! A constant table written straight into bytes, for writers that build one per shader (an
//! assembler rebuilding a table per listing): the bytes [`super::ConstantTable::to_words`]
//! gives for a table built in code, without building one.

use crate::table::{u32_at, PAD_BYTE};
use crate::type_info::{ParameterClass, TypeInfo};

/// One constant of a table that [`append_fresh_ctab`] writes, its parts borrowed.
#[derive(Clone, Copy, Debug)]
pub struct ConstantRef<'a> {
    /// The name's bytes (no NUL).
    pub name: &'a [u8],
    /// `D3DXREGISTER_SET` as encoded.
    pub register_set_raw: u16,
    /// The first register.
    pub register_index: u16,
    /// How many registers.
    pub register_count: u16,
    /// The type; [`append_fresh_ctab`] writes types without struct members only.
    pub ty: &'a TypeInfo,
}

/// Appends to `out`, as little-endian bytes, the CTAB comment (its comment token, the FOURCC,
/// the table) that [`ConstantTable::to_words`](super::ConstantTable::to_words) gives for
/// a table built in code with these parts: no layout, header size 28, flags, reserved fields
/// and defaults 0. The table is laid out in `out` itself: nothing is allocated per name or
/// type, which matters to an assembler that rebuilds a table per listing. `None`, with `out`
/// as it was, when a constant's type has struct members (`to_words` lays those out).
pub fn append_fresh_ctab<'a>(
    out: &mut Vec<u8>,
    creator: &[u8],
    target: &[u8],
    version: u32,
    constants: impl ExactSizeIterator<Item = ConstantRef<'a>>,
) -> Option<()> {
    const HEADER: usize = 28;
    const INFO: usize = 20;
    let n = constants.len();
    let comment = out.len();
    // The table starts after the comment token and the FOURCC; offsets are from there.
    let base = comment + 8;
    out.resize(base + HEADER + INFO * n, 0);
    let put = |out: &mut Vec<u8>, at: usize, v: &[u8]| {
        out[base + at..base + at + v.len()].copy_from_slice(v)
    };
    let u16_at = |out: &[u8], at: usize| u16::from_le_bytes([out[base + at], out[base + at + 1]]);
    // The numeric types written so far, each once (its fields in one key) with where it is:
    // a constant's type is shared with the one it equals, as fxc does (objects are written
    // anew). Past `WRITTEN` of them, the type records of the constants before are searched.
    const WRITTEN: usize = 16;
    let mut written = [(0u128, 0u32); WRITTEN];
    let mut n_written = 0;
    for (i, c) in constants.enumerate() {
        if !c.ty.members.is_empty() {
            out.truncate(comment);
            return None;
        }
        let name = (out.len() - base) as u32;
        out.extend_from_slice(c.name);
        out.push(0);
        let t = c.ty;
        let fields = [t.class_raw, t.type_raw, t.rows, t.columns, t.elements, 0];
        let key = fields
            .iter()
            .rev()
            .fold(0u128, |key, &f| key << 16 | f as u128);
        let shareable = t.class() != Some(ParameterClass::Object);
        let known = match shareable {
            false => None,
            true if n_written < WRITTEN => written[..n_written]
                .iter()
                .find(|&&(k, _)| k == key)
                .map(|&(_, off)| off),
            true => (0..i)
                .map(|k| u32_at(&out[base..], HEADER + k * INFO + 12))
                .find(|&off| (0..6).all(|f| u16_at(out, off as usize + 2 * f) == fields[f])),
        };
        let ty = match known {
            Some(off) => off,
            None => {
                while (out.len() - base) % 4 != 0 {
                    out.push(PAD_BYTE);
                }
                let off = (out.len() - base) as u32;
                for field in fields {
                    out.extend_from_slice(&field.to_le_bytes());
                }
                // The member list: none.
                out.extend_from_slice(&[0; 4]);
                if shareable && n_written < WRITTEN {
                    written[n_written] = (key, off);
                    n_written += 1;
                }
                off
            }
        };
        let at = HEADER + i * INFO;
        put(out, at, &name.to_le_bytes());
        put(out, at + 4, &c.register_set_raw.to_le_bytes());
        put(out, at + 6, &c.register_index.to_le_bytes());
        put(out, at + 8, &c.register_count.to_le_bytes());
        // The reserved field and the default stay 0.
        put(out, at + 12, &ty.to_le_bytes());
    }
    // fxc writes the two strings after everything else, and pads the last to a DWORD.
    let target_off = (out.len() - base) as u32;
    out.extend_from_slice(target);
    out.push(0);
    let creator_off = (out.len() - base) as u32;
    out.extend_from_slice(creator);
    out.push(0);
    while (out.len() - base) % 4 != 0 {
        out.push(PAD_BYTE);
    }
    let info_off = if n == 0 { 0 } else { HEADER as u32 };
    let header = [28, creator_off, version, n as u32, info_off, 0, target_off];
    for (k, v) in header.iter().enumerate() {
        put(out, 4 * k, &v.to_le_bytes());
    }
    let words = (out.len() - comment) / 4 - 1;
    out[comment..comment + 4].copy_from_slice(&crate::words::comment_token(words).to_le_bytes());
    out[comment + 4..base].copy_from_slice(&super::CTAB_FOURCC.to_le_bytes());
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctab::{Constant, ConstantTable};
    use crate::type_info::{StructMember, TypeInfo};

    fn ty(class_raw: u16, type_raw: u16, rows: u16, columns: u16, elements: u16) -> TypeInfo {
        TypeInfo {
            class_raw,
            type_raw,
            rows,
            columns,
            elements,
            members: vec![],
        }
    }

    /// A constant as the tests spell it: name, register set, index, count, type.
    type Row<'a> = (&'a str, u16, u16, u16, TypeInfo);

    /// What `to_words` writes for a table of `constants`, with its comment token.
    fn owned_words(constants: &[Row<'_>]) -> Vec<u32> {
        let table = ConstantTable {
            creator: "Microsoft (R) HLSL Shader Compiler 9.29.952.3111".into(),
            version: 0xFFFF_0300,
            flags: 0,
            target: "ps_3_0".into(),
            header_size: 28,
            constants: constants
                .iter()
                .map(|(name, set, index, count, ty)| Constant {
                    name: (*name).into(),
                    register_set_raw: *set,
                    register_index: *index,
                    register_count: *count,
                    reserved: 0,
                    ty: ty.clone(),
                    default_value: None,
                })
                .collect(),
            layout: None,
        };
        let data = table.to_words();
        let mut words = vec![crate::encode::comment_token(data.len())];
        words.extend(data);
        words
    }

    fn fresh_words(constants: &[Row<'_>]) -> Option<Vec<u32>> {
        let mut out = vec![7];
        append_fresh_ctab(
            &mut out,
            b"Microsoft (R) HLSL Shader Compiler 9.29.952.3111",
            b"ps_3_0",
            0xFFFF_0300,
            constants
                .iter()
                .map(|(name, set, index, count, ty)| ConstantRef {
                    name: name.as_bytes(),
                    register_set_raw: *set,
                    register_index: *index,
                    register_count: *count,
                    ty,
                }),
        )
        .map(|()| {
            assert_eq!(out.len() % 4, 1, "whole DWORDs");
            out[1..]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
        .or_else(|| {
            assert_eq!(out, [7], "nothing appended when it gives up");
            None
        })
    }

    #[test]
    fn fresh_tables_are_what_to_words_writes() {
        let float4 = ty(1, 3, 1, 4, 1);
        let sampler = ty(4, 12, 1, 1, 1);
        let cases: Vec<Vec<Row<'_>>> = vec![
            vec![],
            vec![("a", 2, 0, 1, float4.clone())],
            vec![
                // Shared numeric types, objects written anew, odd name lengths for the padding.
                ("ambient", 2, 0, 1, float4.clone()),
                ("base", 3, 0, 1, sampler.clone()),
                ("bump", 3, 1, 1, sampler.clone()),
                ("diffuse", 2, 1, 1, float4.clone()),
                ("g_bones", 2, 2, 12, ty(3, 3, 3, 4, 4)),
                ("on", 0, 0, 1, ty(0, 1, 1, 1, 1)),
                ("xyz", 2, 14, 1, ty(1, 3, 1, 3, 1)),
                ("zz", 2, 15, 1, float4.clone()),
            ],
        ];
        for case in &cases {
            assert_eq!(fresh_words(case), Some(owned_words(case)), "{case:?}");
        }
    }

    #[test]
    fn tables_of_many_types_share_them_as_to_words_does() {
        // More distinct numeric types than the writer keeps at hand, each used twice, with
        // objects among them.
        let names: Vec<String> = (0..60).map(|k| format!("c{k:02}")).collect();
        let case: Vec<Row<'_>> = names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                let ty = match k % 7 {
                    6 => ty(4, 12, 1, 1, 1),
                    _ => ty(1, 3, 1, 1 + (k % 4) as u16, 1 + (k / 2 % 15) as u16),
                };
                (name.as_str(), 2, k as u16, 1, ty)
            })
            .collect();
        for n in [0, 1, 17, 33, 60] {
            assert_eq!(
                fresh_words(&case[..n]),
                Some(owned_words(&case[..n])),
                "{n}"
            );
        }
    }

    #[test]
    fn struct_types_are_left_to_to_words() {
        let mut light = ty(5, 0, 1, 4, 1);
        light.members.push(StructMember {
            name: "color".into(),
            ty: ty(1, 3, 1, 4, 1),
        });
        assert_eq!(
            fresh_words(&[("a", 2, 0, 1, ty(1, 3, 1, 4, 1)), ("light", 2, 1, 1, light)]),
            None
        );
    }
}
