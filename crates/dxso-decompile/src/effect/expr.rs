//! FX programs (state expressions, array selectors, preshaders) folded back into HLSL
//! expressions of the effect's parameters.
//!
//! A program has no branches, so running it over strings instead of numbers gives, for every
//! output component, one expression of the parameters its constant table names. Operations
//! follow the evaluator's definitions (`dxso_fx::eval`); a program that addresses a register
//! by another register's value, reads a `v` input or grows past [`MAX_EXPR`] characters is not
//! folded and the caller writes its listing instead.

use dxso::ctab::{ConstantTable, ParameterClass, TypeInfo};
use dxso_fx::program::{Operand, Table};
use dxso_fx::{Opcode, Program};
use std::collections::BTreeMap;

/// Longest expression kept for one component: past it the program is listed instead (a long
/// chain of temporaries read several times would otherwise grow without bound).
pub(crate) const MAX_EXPR: usize = 4000;

/// What a program writes: an expression per written output unit, by table.
#[derive(Debug, Default)]
pub(crate) struct Folded {
    /// Float outputs by component unit (register * 4 + component).
    pub floats: BTreeMap<u32, String>,
    /// Bool outputs by register.
    pub bools: BTreeMap<u32, String>,
    /// Int outputs by component unit.
    pub ints: BTreeMap<u32, String>,
}

/// Runs `program` over expressions; `None` when it cannot be folded.
pub(crate) fn fold(program: &Program) -> Option<Folded> {
    let literals: Vec<f64> = program
        .literals()
        .map_or(Vec::new(), |l| l.as_f64().collect());
    let table = program.constant_table();
    let mut temps: BTreeMap<u32, String> = BTreeMap::new();
    let mut out = Folded::default();
    for ins in program.instructions() {
        let op = ins.opcode();
        let n = ins.components();
        if n == 0 || n > 4 {
            return None;
        }
        let read = |operand: &Operand, comp: u32, temps: &BTreeMap<u32, String>, out: &Folded| {
            read(operand, comp, &literals, table, temps, out)
        };
        let mut results = Vec::new();
        if op == Opcode::Dot {
            let mut terms = Vec::new();
            for j in 0..n {
                let a = read(
                    ins.inputs.first()?,
                    if ins.scalar() { 0 } else { j },
                    &temps,
                    &out,
                )?;
                let b = read(ins.inputs.get(1)?, j, &temps, &out)?;
                terms.push(format!("{a} * {b}"));
            }
            results.push(format!("({})", terms.join(" + ")));
        } else {
            for j in 0..n {
                let mut args = Vec::new();
                for (k, input) in ins.inputs.iter().enumerate() {
                    let first_only =
                        (ins.scalar() && k == 0) || matches!(op, Opcode::Floor | Opcode::Ceil);
                    args.push(read(input, if first_only { 0 } else { j }, &temps, &out)?);
                }
                results.push(apply(op, &args)?);
            }
        }
        for (j, r) in results.into_iter().enumerate() {
            if r.len() > MAX_EXPR {
                return None;
            }
            let reg = ins.output.register;
            if ins.output.index.is_some() {
                return None;
            }
            let unit = reg.offset.checked_add(j as u32)?;
            match reg.table {
                Table::Temporary => {
                    temps.insert(unit, r);
                }
                Table::Output => {
                    out.floats.insert(unit, r);
                }
                Table::IntOutput => {
                    out.ints.insert(unit, r);
                }
                Table::BoolOutput => {
                    out.bools.insert(reg.offset / 4 + j as u32, r);
                }
                _ => return None,
            }
        }
    }
    Some(out)
}

fn read(
    op: &Operand,
    comp: u32,
    literals: &[f64],
    table: Option<&ConstantTable>,
    temps: &BTreeMap<u32, String>,
    out: &Folded,
) -> Option<String> {
    if let Some(ix) = op.index {
        // `c[k + cN.x]`: an element of a parameter array of one register per element,
        // chosen by another value (FNA's `VSIndices[ShaderIndex]`).
        if op.register.table != Table::Constant {
            return None;
        }
        let index = read(
            &Operand {
                index: None,
                register: ix,
            },
            0,
            literals,
            table,
            temps,
            out,
        )?;
        return indexed_component(table?, op.register.offset.checked_add(comp)?, &index);
    }
    let unit = op.register.offset.checked_add(comp)?;
    match op.register.table {
        Table::Immediate => literals.get(unit as usize).map(|&v| number(v)),
        Table::Constant => parameter_component(table?, unit),
        Table::Temporary => Some(temps.get(&unit).cloned().unwrap_or_else(|| "0".into())),
        Table::Output => Some(out.floats.get(&unit).cloned().unwrap_or_else(|| "0".into())),
        Table::IntOutput => Some(out.ints.get(&unit).cloned().unwrap_or_else(|| "0".into())),
        Table::BoolOutput => Some(
            out.bools
                .get(&(op.register.offset / 4))
                .cloned()
                .unwrap_or_else(|| "0".into()),
        ),
        Table::Input => None,
    }
}

/// A literal as HLSL writes it (always with a point or exponent, so it reads as a float).
pub(crate) fn number(v: f64) -> String {
    if v.is_nan() {
        return "(0.0 / 0.0)".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "(1.0 / 0.0)"
        } else {
            "(-1.0 / 0.0)"
        }
        .into();
    }
    let f = v as f32;
    let s = format!("{f:?}");
    if f < 0.0 {
        format!("({s})")
    } else {
        s
    }
}

/// The parameter component a `c` unit holds, through the program's constant table.
fn parameter_component(table: &ConstantTable, unit: u32) -> Option<String> {
    let reg = unit / 4;
    let comp = unit % 4;
    let c = table.constants.iter().find(|c| {
        let lo = c.register_index as u32;
        (lo..lo + c.register_count as u32).contains(&reg)
    })?;
    let name = c.name.as_str().into_owned();
    component(&c.ty, &name, reg - c.register_index as u32, comp)
}

/// Component `unit % 4` of the register `index` past `unit / 4`, when that register lies in a
/// scalar or vector array (one register per element).
fn indexed_component(table: &ConstantTable, unit: u32, index: &str) -> Option<String> {
    const XYZW: [&str; 4] = ["x", "y", "z", "w"];
    let reg = unit / 4;
    let comp = unit % 4;
    let c = table.constants.iter().find(|c| {
        let lo = c.register_index as u32;
        (lo..lo + c.register_count.max(1) as u32).contains(&reg)
    })?;
    let class = c.ty.class()?;
    if c.ty.elements <= 1 || !matches!(class, ParameterClass::Scalar | ParameterClass::Vector) {
        return None;
    }
    let k = reg - c.register_index as u32;
    let at = if k == 0 {
        format!("{}[{index}]", c.name.as_str())
    } else {
        format!("{}[{index} + {k}]", c.name.as_str())
    };
    match class {
        ParameterClass::Vector if c.ty.columns > 1 => {
            Some(format!("{at}.{}", XYZW.get(comp as usize)?))
        }
        _ if comp == 0 => Some(at),
        _ => Some("0".into()),
    }
}

/// The expression of component `comp` of the `reg`-th register of a value of type `ty`.
fn component(ty: &TypeInfo, name: &str, reg: u32, comp: u32) -> Option<String> {
    const XYZW: [&str; 4] = ["x", "y", "z", "w"];
    let rows = ty.rows as u32;
    let cols = ty.columns as u32;
    let class = ty.class()?;
    let per = match class {
        ParameterClass::Scalar | ParameterClass::Vector => 1,
        ParameterClass::MatrixRows => rows.max(1),
        ParameterClass::MatrixColumns => cols.max(1),
        _ => return None,
    };
    let (base, r) = if ty.elements > 1 {
        (format!("{name}[{}]", reg / per), reg % per)
    } else if reg < per {
        (name.to_string(), reg)
    } else {
        return None;
    };
    match class {
        ParameterClass::Scalar if comp == 0 => Some(base),
        ParameterClass::Vector if comp < cols => {
            if cols == 1 {
                Some(base)
            } else {
                Some(format!("{base}.{}", XYZW[comp as usize]))
            }
        }
        ParameterClass::MatrixRows if comp < cols => Some(format!("{base}[{r}][{comp}]")),
        ParameterClass::MatrixColumns if comp < rows => Some(format!("{base}[{comp}][{r}]")),
        // A component past the value reads as zero, as the runtime uploads it.
        _ => Some("0".into()),
    }
}

/// `e` in parentheses unless it is one already (every operation's result is parenthesised or
/// a call, so operands never need more).
pub(crate) fn parenthesised(e: &str) -> String {
    if e.starts_with('(') && closing(e) == Some(e.len() - 1) {
        e.to_string()
    } else {
        format!("({e})")
    }
}

/// The index of the parenthesis closing the one `e` starts with.
fn closing(e: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (k, c) in e.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// One operation on expressions, as the evaluator defines it. Every operand is a parameter
/// component, a literal, or an earlier result (parenthesised or a call): none needs more
/// parentheses.
fn apply(op: Opcode, a: &[String]) -> Option<String> {
    use Opcode::*;
    let x = a.first().map(String::as_str).unwrap_or("0");
    let y = a.get(1).map(String::as_str).unwrap_or("0");
    let z = a.get(2).map(String::as_str).unwrap_or("0");
    Some(match op {
        Nop => return None,
        Mov => x.to_string(),
        Neg => format!("(-{x})"),
        Rcp => format!("(1.0 / {x})"),
        Frc => format!("frac({x})"),
        Exp => format!("exp2({x})"),
        Log => format!("log2(abs({x}))"),
        Rsq => format!("rsqrt(abs({x}))"),
        Sin => format!("sin({x})"),
        Cos => format!("cos({x})"),
        Asin => format!("asin({x})"),
        Acos => format!("acos({x})"),
        Atan => format!("atan({x})"),
        Sqrt => format!("sqrt({x})"),
        Floor => format!("floor({x})"),
        Ceil => format!("ceil({x})"),
        Min => format!("min({x}, {y})"),
        Max => format!("max({x}, {y})"),
        Lt => format!("({x} < {y} ? 1.0 : 0.0)"),
        Ge => format!("({x} >= {y} ? 1.0 : 0.0)"),
        Add => format!("({x} + {y})"),
        Mul => format!("({x} * {y})"),
        Atan2 => format!("atan2({x}, {y})"),
        Div => format!("({x} / {y})"),
        Cmp => format!("({x} >= 0 ? {y} : {z})"),
        Movc => format!("({x} != 0 ? {y} : {z})"),
        DotSwiz6 | DotSwiz8 => {
            let half = a.len() / 2;
            let terms: Vec<String> = (0..half)
                .map(|k| format!("{} * {}", a[k], a[k + half]))
                .collect();
            format!("({})", terms.join(" + "))
        }
        // The fx_4 integer and bit operations have no dx9 HLSL spelling on floats.
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parentheses_are_not_doubled() {
        assert_eq!(parenthesised("(a + b)"), "(a + b)");
        assert_eq!(parenthesised("(a) + (b)"), "((a) + (b))");
        assert_eq!(parenthesised("a.x"), "(a.x)");
    }

    #[test]
    fn numbers_read_as_floats() {
        assert_eq!(number(1.0), "1.0");
        assert_eq!(number(-2.5), "(-2.5)");
        assert_eq!(number(f64::INFINITY), "(1.0 / 0.0)");
    }

    #[test]
    fn matrix_components_follow_majorness() {
        let ty = TypeInfo {
            class_raw: 3,
            type_raw: 3,
            rows: 4,
            columns: 4,
            elements: 1,
            members: Vec::new(),
        };
        // Column-major: register 1 holds column 1; component 2 is row 2.
        assert_eq!(component(&ty, "M", 1, 2).as_deref(), Some("M[2][1]"));
    }
}
