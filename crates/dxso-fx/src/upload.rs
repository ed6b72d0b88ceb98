//! Effect parameters into registers through a constant table: the rules d3dx9 follows to fill
//! a shader's `c`, `i` and `b` registers (and a program's `c` inputs) from parameter values.
//!
//! A constant expands, element by element and member by member, into leaves, each with its
//! first register and a register count clipped to what the table gives the whole constant. In
//! the float and int files a scalar or vector takes one register per element, a row-major
//! matrix one register per row and a column-major one a register per column; in the bool file
//! every component takes a register. The parameter of the same name expands the same way; a
//! parameter whose elements or members do not match the constant's is not uploaded.
//!
//! Values convert as d3dx9 converts them: float to int truncates, anything to bool is `true`
//! for a non-zero bit pattern, bool to float or int gives 1 or 0.

use crate::eval::{Bank, Registers};
use crate::types::{Shape, TypeDesc};
use crate::value::Value;
use dxso::ctab::{Constant, ParameterClass, ParameterType, RegisterSet, TypeInfo};

/// One leaf of a constant: where its registers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CtabLeaf {
    index: u32,
    count: u32,
    class: Option<ParameterClass>,
}

/// One leaf of a parameter: its numbers as stored.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ParamLeaf<'v> {
    pub(crate) ty: Option<ParameterType>,
    pub(crate) class: Option<ParameterClass>,
    pub(crate) rows: u32,
    pub(crate) columns: u32,
    pub(crate) words: &'v [u32],
}

/// Why a constant was not uploaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    /// The parameter's elements or members differ from the constant's.
    #[error("the parameter's elements or struct members do not match the constant's")]
    Shape,
    /// The parameter holds objects where the constant wants numbers.
    #[error("the parameter is not numeric")]
    NotNumeric,
}

fn leaf_size(set: RegisterSet, ty: &TypeInfo) -> u32 {
    let (rows, columns) = (ty.rows as u32, ty.columns as u32);
    match set {
        RegisterSet::Bool => rows * columns,
        RegisterSet::Sampler => 1,
        RegisterSet::Float4 | RegisterSet::Int4 => match ty.class() {
            Some(ParameterClass::MatrixRows) => rows,
            Some(ParameterClass::MatrixColumns) => columns,
            _ => 1,
        },
    }
}

/// Lists the leaves of a constant of type `ty` from register `index` on (registers clipped at
/// `end`) and returns the registers they take; `None` once more than `limit` leaves are
/// listed. Every call lists at least one leaf, so the limit bounds the work whatever element
/// counts the table claims (an empty struct is a leaf here and none on the parameter's side).
fn ctab_leaves(
    set: RegisterSet,
    ty: &TypeInfo,
    index: u32,
    end: u32,
    is_element: bool,
    limit: usize,
    out: &mut Vec<CtabLeaf>,
) -> Option<u32> {
    if out.len() > limit {
        return None;
    }
    let elements = if is_element { 1 } else { ty.elements as u32 };
    let mut size = 0;
    if elements > 1 {
        for _ in 0..elements {
            size += ctab_leaves(set, ty, index + size, end, true, limit, out)?;
        }
    } else if ty.class() == Some(ParameterClass::Struct) && !ty.members.is_empty() {
        for m in &ty.members {
            size += ctab_leaves(set, &m.ty, index + size, end, false, limit, out)?;
        }
    } else {
        size = leaf_size(set, ty);
        out.push(CtabLeaf {
            index,
            count: size.min(end.saturating_sub(index)),
            class: ty.class(),
        });
    }
    Some(size.min(end.saturating_sub(index)))
}

/// `true` when the parameter type and the constant type have the same elements and members.
fn same_structure(p: &TypeDesc, c: &TypeInfo) -> bool {
    if p.element_count() != (c.elements as u32).max(1) {
        return false;
    }
    match (&p.shape, c.class()) {
        (Shape::Struct(pm), Some(ParameterClass::Struct)) => {
            pm.len() == c.members.len()
                && pm
                    .iter()
                    .zip(&c.members)
                    .all(|(a, b)| same_structure(a, &b.ty))
        }
        (Shape::Struct(_), _) | (_, Some(ParameterClass::Struct)) => false,
        _ => true,
    }
}

/// The numeric leaves of a value, in element and member order.
pub(crate) fn param_leaves<'v>(
    ty: &TypeDesc,
    value: &'v Value,
    out: &mut Vec<ParamLeaf<'v>>,
) -> Result<(), UploadError> {
    match value {
        Value::Data(words) => {
            // Every leaf that can be uploaded holds a word: more leaves than words means
            // leaves without numbers, which element counts read from input can multiply
            // without bound.
            if leaf_count(ty) > words.len() as u64 {
                return Err(UploadError::Shape);
            }
            let mut spans = Vec::new();
            let mut at = 0;
            elements_leaves(ty, words.len(), &mut at, &mut spans)?;
            out.extend(spans.into_iter().map(|l| ParamLeaf {
                ty: l.ty,
                class: l.class,
                rows: l.rows,
                columns: l.columns,
                words: &words[l.start..l.start + l.len],
            }));
            Ok(())
        }
        Value::Members(values) => {
            let members = ty.members();
            if members.is_empty() {
                return Err(UploadError::NotNumeric);
            }
            for (m, v) in members.iter().cycle().zip(values) {
                param_leaves(m, v, out)?;
            }
            Ok(())
        }
        _ => Err(UploadError::NotNumeric),
    }
}

/// Numeric leaves of a whole value of `ty` (saturating).
fn leaf_count(ty: &TypeDesc) -> u64 {
    let one = match &ty.shape {
        Shape::Numeric { .. } => 1,
        Shape::Struct(members) => members
            .iter()
            .fold(0u64, |acc, m| acc.saturating_add(leaf_count(m))),
        Shape::None => 0,
    };
    one.saturating_mul(u64::from(ty.element_count()))
}

/// A parameter leaf while its value's words are being laid out: where its words start.
#[derive(Clone, Copy)]
struct LeafSpan {
    ty: Option<ParameterType>,
    class: Option<ParameterClass>,
    rows: u32,
    columns: u32,
    start: usize,
    len: usize,
}

/// The leaves of every element of `ty`, from word `at` of `total`. The first element is laid
/// out by walking the type, the others are copies of it shifted by its words, and an element
/// without leaves ends the listing: the work is the type's size plus the leaves listed, so a
/// struct of many empty members repeated once per element costs no more than its leaves.
fn elements_leaves(
    ty: &TypeDesc,
    total: usize,
    at: &mut usize,
    out: &mut Vec<LeafSpan>,
) -> Result<(), UploadError> {
    let (first, from) = (out.len(), *at);
    element_leaves(ty, total, at, out)?;
    let (leaves, words) = (out.len() - first, *at - from);
    if leaves == 0 {
        return Ok(());
    }
    for k in 1..ty.element_count() as usize {
        let shift = k * words;
        if from + shift + words > total {
            return Err(UploadError::Shape);
        }
        for j in first..first + leaves {
            let l = out[j];
            out.push(LeafSpan {
                start: l.start + shift,
                ..l
            });
        }
    }
    *at = from + words * ty.element_count() as usize;
    Ok(())
}

/// The leaves of one element of `ty`.
fn element_leaves(
    ty: &TypeDesc,
    total: usize,
    at: &mut usize,
    out: &mut Vec<LeafSpan>,
) -> Result<(), UploadError> {
    match &ty.shape {
        Shape::Numeric { rows, columns } => {
            let n = (*rows as usize).saturating_mul(*columns as usize);
            if n > total - *at {
                return Err(UploadError::Shape);
            }
            out.push(LeafSpan {
                ty: ty.ty(),
                class: ty.class(),
                rows: *rows,
                columns: *columns,
                start: *at,
                len: n,
            });
            *at += n;
            Ok(())
        }
        Shape::Struct(members) => members
            .iter()
            .try_for_each(|m| elements_leaves(m, total, at, out)),
        Shape::None => Ok(()),
    }
}

fn as_f32(ty: Option<ParameterType>, w: u32) -> f32 {
    match ty {
        Some(ParameterType::Int) => w as i32 as f32,
        Some(ParameterType::Bool) => (w != 0) as u32 as f32,
        _ => f32::from_bits(w),
    }
}

fn as_i32(ty: Option<ParameterType>, w: u32) -> i32 {
    match ty {
        Some(ParameterType::Int) => w as i32,
        Some(ParameterType::Bool) => (w != 0) as i32,
        _ => f32::from_bits(w) as i32,
    }
}

/// Uploads the parameter (`ty`, `value`) into the register files through `constant`. The
/// sampler register set is not numeric and is left to the caller.
pub fn upload(
    constant: &Constant,
    ty: &TypeDesc,
    value: &Value,
    out: &mut Registers,
) -> Result<(), UploadError> {
    let Some(set) = constant.register_set() else {
        return Ok(());
    };
    if set == RegisterSet::Sampler {
        return Ok(());
    }
    if !same_structure(ty, &constant.ty) {
        return Err(UploadError::Shape);
    }
    // The parameter's leaves first: their count is bounded by the value's words, and the
    // constant's, of the same structure, by theirs.
    let mut pleaves = Vec::new();
    param_leaves(ty, value, &mut pleaves)?;
    let mut cleaves = Vec::new();
    let start = constant.register_index as u32;
    let listed = ctab_leaves(
        set,
        &constant.ty,
        start,
        start + constant.register_count as u32,
        false,
        pleaves.len(),
        &mut cleaves,
    );
    if listed.is_none() || pleaves.len() != cleaves.len() {
        return Err(UploadError::Shape);
    }
    for (c, p) in cleaves.iter().zip(&pleaves) {
        upload_leaf(set, c, p, out);
    }
    Ok(())
}

/// The component order of a leaf: `(register, component, word index)` triples.
fn leaf_layout(set: RegisterSet, c: &CtabLeaf, p: &ParamLeaf) -> Vec<(u32, u32, usize)> {
    let (rows, cols) = (p.rows, p.columns);
    let n = rows as usize * cols as usize;
    let mut out = Vec::new();
    if c.count == 0 {
        return out;
    }
    let param_columns = p.class == Some(ParameterClass::MatrixColumns);
    let const_columns = c.class == Some(ParameterClass::MatrixColumns);
    let is_matrix = matches!(
        c.class,
        Some(ParameterClass::MatrixRows | ParameterClass::MatrixColumns)
    );
    // Which parameter word is the (major, minor) component: the major index runs over
    // registers (rows of a row-major constant, columns of a column-major one).
    let transpose = is_matrix && param_columns != const_columns;
    let (major, minor) = if const_columns {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let word = |i: u32, j: u32| -> usize {
        if transpose {
            (i + j * major) as usize
        } else {
            (i * minor + j) as usize
        }
    };
    match set {
        RegisterSet::Bool => {
            let mut k = 0;
            'outer: for i in 0..major.max(1) {
                for j in 0..minor.max(1) {
                    if k >= c.count || k as usize >= n {
                        break 'outer;
                    }
                    let w = if is_matrix { word(i, j) } else { k as usize };
                    out.push((c.index + k, 0, w));
                    k += 1;
                }
            }
        }
        _ if !is_matrix => {
            // Scalars and vectors: the components from component 0 on, spilling into the
            // following registers when longer than four.
            let len = (rows.max(cols) as usize).min(n).min(4 * c.count as usize);
            for k in 0..len {
                out.push((c.index + k as u32 / 4, k as u32 % 4, k));
            }
        }
        _ => {
            for i in 0..major.min(c.count) {
                for j in 0..minor.min(4) {
                    let w = word(i, j);
                    if w < n {
                        out.push((c.index + i, j, w));
                    }
                }
            }
        }
    }
    out
}

fn upload_leaf(set: RegisterSet, c: &CtabLeaf, p: &ParamLeaf, out: &mut Registers) {
    for (reg, comp, w) in leaf_layout(set, c, p) {
        let word = p.words[w];
        match set {
            RegisterSet::Float4 => put(&mut out.floats, reg, comp, as_f32(p.ty, word)),
            RegisterSet::Int4 => put(&mut out.ints, reg, comp, as_i32(p.ty, word)),
            RegisterSet::Bool => put(&mut out.bools, reg, 0, word != 0),
            RegisterSet::Sampler => {}
        }
    }
}

fn put<T: Copy + Default>(bank: &mut Bank<T>, reg: u32, comp: u32, v: T) {
    bank.set(reg as usize * bank.width() + comp as usize, v);
}

/// The sampler registers of a sampler constant: `(first register, count)`.
pub fn sampler_registers(constant: &Constant) -> Option<(u32, u32)> {
    (constant.register_set() == Some(RegisterSet::Sampler)).then_some((
        constant.register_index as u32,
        constant.register_count as u32,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxso::ctab::{CtabString, TypeInfo};

    fn constant(set: u16, index: u16, count: u16, class: u16, rows: u16, columns: u16) -> Constant {
        Constant {
            name: CtabString::from("p"),
            register_set_raw: set,
            register_index: index,
            register_count: count,
            reserved: 0,
            ty: TypeInfo {
                class_raw: class,
                type_raw: 3,
                rows,
                columns,
                elements: 1,
                members: Vec::new(),
            },
            default_value: None,
        }
    }

    fn param(ty: u32, class: u32, rows: u32, columns: u32) -> TypeDesc {
        TypeDesc {
            type_raw: ty,
            class_raw: class,
            name: None,
            semantic: None,
            elements: 0,
            shape: Shape::Numeric { rows, columns },
        }
    }

    fn floats(v: &[f32]) -> Value {
        Value::Data(v.iter().map(|f| f.to_bits()).collect())
    }

    #[test]
    fn vectors_fill_their_components() {
        let mut out = Registers::default();
        upload(
            &constant(2, 3, 1, 1, 1, 3),
            &param(3, 1, 1, 3),
            &floats(&[1.0, 2.0, 3.0]),
            &mut out,
        )
        .unwrap();
        assert!(out.floats.is_written(3) && !out.floats.is_written(2));
        assert_eq!(out.floats.register(3), [1.0, 2.0, 3.0, 0.0]);
    }

    #[test]
    fn column_major_constants_take_columns() {
        // float2x3 {{11, 12, 13}, {21, 22, 23}} into a column-major constant: one register per
        // column (Wine's pixel-shader answers for m2x3column).
        let mut out = Registers::default();
        let data = floats(&[11.0, 12.0, 13.0, 21.0, 22.0, 23.0]);
        upload(
            &constant(2, 0, 3, 3, 2, 3),
            &param(3, 2, 2, 3),
            &data,
            &mut out,
        )
        .unwrap();
        assert_eq!(out.floats.register(0), [11.0, 21.0, 0.0, 0.0]);
        assert_eq!(out.floats.register(1), [12.0, 22.0, 0.0, 0.0]);
        assert_eq!(out.floats.register(2), [13.0, 23.0, 0.0, 0.0]);
        // Row-major: one register per row, and a clipped register count cuts rows off.
        let mut out = Registers::default();
        upload(
            &constant(2, 0, 1, 2, 2, 3),
            &param(3, 2, 2, 3),
            &data,
            &mut out,
        )
        .unwrap();
        assert_eq!(out.floats.register(0), [11.0, 12.0, 13.0, 0.0]);
        assert!(!out.floats.is_written(1));
    }

    #[test]
    fn conversions_follow_d3dx9() {
        let mut out = Registers::default();
        upload(
            &constant(1, 0, 1, 1, 1, 2),
            &param(3, 1, 1, 2),
            &floats(&[2.7, -1.5]),
            &mut out,
        )
        .unwrap();
        assert_eq!(out.ints.register(0), [2, -1, 0, 0]);
        // Bools: one register per component, row by row; -0.0 is true (a non-zero pattern).
        let mut out = Registers::default();
        let data = floats(&[1.0, 0.0, -0.0, 0.0, 3.0, 1.0]);
        upload(
            &constant(0, 2, 5, 2, 2, 3),
            &param(3, 2, 2, 3),
            &data,
            &mut out,
        )
        .unwrap();
        let b: Vec<bool> = (2..8).map(|r| out.bools.get(r)).collect();
        assert_eq!(b, [true, false, true, false, true, false]);
    }

    #[test]
    fn mismatched_shapes_are_refused() {
        let mut out = Registers::default();
        let mut array = param(3, 1, 1, 4);
        array.elements = 2;
        let e = upload(
            &constant(2, 0, 2, 1, 1, 4),
            &array,
            &floats(&[0.0; 8]),
            &mut out,
        );
        assert_eq!(e, Err(UploadError::Shape));
    }

    #[test]
    fn leaves_without_words_are_refused_before_they_are_listed() {
        // 65535 elements of 65535 elements of an empty vector: 2^32 leaves and no words.
        let mut inner = param(3, 1, 0, 4);
        inner.elements = 65535;
        let mut ty = TypeDesc {
            type_raw: 0,
            class_raw: 5,
            name: None,
            semantic: None,
            elements: 65535,
            shape: Shape::Struct(vec![inner]),
        };
        let mut c = constant(2, 0, 1, 5, 1, 0);
        c.ty.elements = 65535;
        let mut member = constant(2, 0, 1, 1, 0, 4).ty;
        member.elements = 65535;
        c.ty.members = vec![dxso::ctab::StructMember {
            name: CtabString::from("m"),
            ty: member,
        }];
        let started = std::time::Instant::now();
        let mut out = Registers::default();
        assert_eq!(
            upload(&c, &ty, &Value::Data(Vec::new()), &mut out),
            Err(UploadError::Shape)
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        // Empty structs: no leaf on the parameter's side, one per element on the constant's.
        let empty = || TypeDesc {
            shape: Shape::Struct(Vec::new()),
            ..ty.clone()
        };
        let nested = TypeDesc {
            shape: Shape::Struct(vec![empty()]),
            ..ty.clone()
        };
        let mut empty_member = c.ty.clone();
        empty_member.members = Vec::new();
        let mut nested_constant = c.clone();
        nested_constant.ty.members[0].ty = empty_member;
        let started = std::time::Instant::now();
        assert_eq!(
            upload(
                &nested_constant,
                &nested,
                &Value::Data(Vec::new()),
                &mut out
            ),
            Err(UploadError::Shape)
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        // One word per leaf is enough to be listed.
        ty.elements = 1;
        c.ty.elements = 1;
        let words = Value::Data(vec![0; 65535 * 4]);
        assert_eq!(upload(&c, &ty, &words, &mut out), Ok(()));
    }
}
