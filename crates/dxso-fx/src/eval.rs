//! The FX program evaluator: one interpreter for state expressions, array selectors and
//! preshaders.
//!
//! # Semantics
//!
//! The register tables are those of [`Table`]: literals (doubles), `c` inputs (floats),
//! temporaries, and the float, bool and int outputs. With [`Precision::Native`] the evaluator
//! computes as native d3dx9 does, in double precision with double temporaries (Wine's tests
//! record native results that only double temporaries give), rounding to float only where a
//! value is stored in a float output; the rules below are native d3dx9's.
//!
//! [`Precision::Float32`] computes what the same program gives as shader code (as when a
//! compiler is told not to make preshaders): `f32` arithmetic with every operation rounded, and
//! the rules of `docs/SEMANTICS.md` for the operations shaders share: `min` is
//! `a < b ? a : b` and `max` is `a >= b ? a : b` (so a NaN in the second operand passes
//! through), `log(0)` is `-inf`, `exp`, `log`, `sin`, `cos` are the `f32` functions, dot
//! products sum left to right in `f32`, NaNs are the hardware's; `div` divides. The operations
//! shaders do not have (`asin`, `acos`, `atan`, `atan2`, the fx_4 integer operations) are the
//! same as in native mode, computed in `f32`.
//!
//! * Addressing: `base + index` where the index register's value is rounded to the nearest
//!   integer (ties to even; NaN and out-of-range values give `0x80000000`, as x86 does). A
//!   register past the end of its table wraps: modulo the table size, except the `c` table,
//!   which wraps modulo the next power of two; a register still outside reads 0. (Wine's tests
//!   record these native answers.)
//! * Outputs: float outputs round to `f32`; int outputs round to the nearest integer; bool
//!   outputs are `true` for any non-zero value (NaN included).
//! * Operations (native d3dx9 where it evaluates them): `rcp` is `1/x`; `rsq` is
//!   `1/sqrt(|x|)`, `+inf` for 0; `log` is `log2(|x|)`, 0 for 0; `exp` is `2^x`; `frc` is
//!   `x - floor(x)`; `min`/`max` ignore a NaN operand; `lt`/`ge` give 1 or 0; `cmp` is
//!   `a >= 0 ? b : c`; `movc` is `a != 0 ? b : c`; `dot` and `d3ds_dotswiz` sum products in
//!   order; `div` gives 0 (native d3dx9 does not implement it; compilers emit `rcp` and
//!   `mul`); `asin`/`acos` give the negative default NaN outside `[-1, 1]`.
//! * NaN: an arithmetic result that is NaN is the first NaN operand (quieted) or, when no
//!   operand is NaN, the negative default NaN (`0xffc00000` as a float), as x86 computes;
//!   `neg` flips the sign of a NaN, selections (`mov`, `cmp`, `movc`) pass operands through.
//! * The fx_4 integer, bitwise and conversion operations (`iadd`, `and`, `ftou`, `bilt`, ...)
//!   act on the 32-bit pattern of the value as a float, as the fx_4 runtime stores it; `floor`
//!   and `ceil` read the first input component for every output component, as that runtime
//!   does.
//!
//! Evaluation is bounded: a program has no branches or loops, and every register it can
//! address is below [`MAX_REGISTERS`].

use crate::opcode::Opcode;
use crate::program::{Operand, Program, Table, MAX_REGISTERS};

/// How results are rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Precision {
    /// As native d3dx9: double precision, double temporaries, float outputs.
    #[default]
    Native,
    /// Every literal, input and result rounded to float.
    Float32,
}

/// A register file: `width` values per register, with the registers that were written.
#[derive(Clone, Debug, PartialEq)]
pub struct Bank<T> {
    values: Vec<T>,
    written: Vec<bool>,
    width: usize,
}

impl<T: Copy + Default> Bank<T> {
    /// An empty file of `width`-component registers.
    pub fn new(width: usize) -> Self {
        Bank {
            values: Vec::new(),
            written: Vec::new(),
            width: width.max(1),
        }
    }

    /// Components per register.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Registers allocated (one past the highest written).
    pub fn len(&self) -> usize {
        self.written.len()
    }

    /// `true` when no register was written.
    pub fn is_empty(&self) -> bool {
        !self.written.iter().any(|&w| w)
    }

    /// Component `unit` (default when never written).
    pub fn get(&self, unit: usize) -> T {
        self.values.get(unit).copied().unwrap_or_default()
    }

    /// Sets component `unit`, marking its register written. Units past [`MAX_REGISTERS`]
    /// registers are ignored.
    pub fn set(&mut self, unit: usize, value: T) {
        let reg = unit / self.width;
        if reg > MAX_REGISTERS as usize {
            return;
        }
        if reg >= self.written.len() {
            self.written.resize(reg + 1, false);
            self.values.resize((reg + 1) * self.width, T::default());
        }
        self.values[unit] = value;
        self.written[reg] = true;
    }

    /// The components of register `reg`.
    pub fn register(&self, reg: usize) -> Vec<T> {
        (0..self.width)
            .map(|c| self.get(reg * self.width + c))
            .collect()
    }

    /// `true` when register `reg` was written.
    pub fn is_written(&self, reg: usize) -> bool {
        self.written.get(reg).copied().unwrap_or(false)
    }

    /// The written registers in order.
    pub fn written(&self) -> impl Iterator<Item = usize> + '_ {
        self.written
            .iter()
            .enumerate()
            .filter_map(|(i, &w)| w.then_some(i))
    }
}

/// The shader register files a preshader writes and a constant table fills: float `c`, int
/// `i` (four components each) and bool `b` registers.
#[derive(Clone, Debug, PartialEq)]
pub struct Registers {
    /// `c#`.
    pub floats: Bank<f32>,
    /// `i#`.
    pub ints: Bank<i32>,
    /// `b#`.
    pub bools: Bank<bool>,
}

impl Default for Registers {
    fn default() -> Self {
        Registers {
            floats: Bank::new(4),
            ints: Bank::new(4),
            bools: Bank::new(1),
        }
    }
}

/// The negative quiet NaN x86 produces for invalid operations.
const DEFAULT_NAN: u64 = 0xFFF8_0000_0000_0000;

/// `f32` to `f64`, keeping a NaN's sign and payload.
pub fn widen(x: f32) -> f64 {
    if x.is_nan() {
        let b = x.to_bits() as u64;
        f64::from_bits((b & 0x8000_0000) << 32 | 0x7FF0_0000_0000_0000 | (b & 0x7F_FFFF) << 29)
    } else {
        x as f64
    }
}

/// `f64` to `f32` rounding to nearest; a NaN keeps its sign and the top of its payload and is
/// quieted, as x86 converts.
pub fn narrow(x: f64) -> f32 {
    if x.is_nan() {
        let b = x.to_bits();
        f32::from_bits(
            ((b >> 32) as u32 & 0x8000_0000) | 0x7FC0_0000 | ((b >> 29) as u32 & 0x3F_FFFF),
        )
    } else {
        x as f32
    }
}

/// Round to the nearest integer, ties to even, as `lrint` does; NaN and values outside the
/// 32-bit range give `i32::MIN` (the x86 "integer indefinite").
pub fn round_to_int(x: f64) -> i32 {
    let r = x.round_ties_even();
    if r.is_finite() && r >= i32::MIN as f64 && r <= i32::MAX as f64 {
        r as i32
    } else {
        i32::MIN
    }
}

fn quiet(x: f64) -> f64 {
    f64::from_bits(x.to_bits() | 0x0008_0000_0000_0000)
}

/// An arithmetic result with x86's NaN rules.
fn arith(r: f64, args: &[f64]) -> f64 {
    if r.is_nan() {
        args.iter()
            .find(|a| a.is_nan())
            .map_or(f64::from_bits(DEFAULT_NAN), |&a| quiet(a))
    } else {
        r
    }
}

fn bits(x: f64) -> u32 {
    narrow(x).to_bits()
}

fn from_bits(b: u32) -> f64 {
    widen(f32::from_bits(b))
}

fn mask(b: bool) -> f64 {
    from_bits(if b { u32::MAX } else { 0 })
}

struct Machine<'a> {
    literals: Vec<f64>,
    constants: &'a Bank<f32>,
    /// Registers of the `c` table (from the program's constant table).
    constant_size: usize,
    temps: Vec<f64>,
    out: &'a mut Registers,
    precision: Precision,
}

impl Machine<'_> {
    fn table_size(&self, table: Table) -> usize {
        match table {
            Table::Immediate => self.literals.len().div_ceil(4),
            Table::Constant => self.constant_size,
            Table::Input => 0,
            Table::Output => self.out.floats.len(),
            Table::BoolOutput => self.out.bools.len(),
            Table::IntOutput => self.out.ints.len(),
            Table::Temporary => self.temps.len() / 4,
        }
    }

    /// The value at `unit` of `table`, 0 outside it.
    fn unit(&self, table: Table, unit: usize) -> f64 {
        let v = match table {
            Table::Immediate => self.literals.get(unit).copied().unwrap_or(0.0),
            Table::Constant => widen(self.constants.get(unit)),
            Table::Input => 0.0,
            Table::Output => widen(self.out.floats.get(unit)),
            Table::BoolOutput => self.out.bools.get(unit) as u32 as f64,
            Table::IntOutput => self.out.ints.get(unit) as f64,
            Table::Temporary => self.temps.get(unit).copied().unwrap_or(0.0),
        };
        self.round(v)
    }

    fn round(&self, v: f64) -> f64 {
        match self.precision {
            Precision::Native => v,
            Precision::Float32 => widen(narrow(v)),
        }
    }

    /// The unit a register names in its table's own addressing (bools: the register).
    fn base_unit(table: Table, offset: u32) -> u32 {
        if table == Table::BoolOutput {
            offset / 4
        } else {
            offset
        }
    }

    fn read(&self, op: &Operand, comp: u32) -> f64 {
        let table = op.register.table;
        let per = table.components();
        let base = match op.index {
            None => 0,
            Some(ix) => {
                let at = Self::base_unit(ix.table, ix.offset) as usize;
                round_to_int(self.unit(ix.table, at)) as u32
            }
        };
        let mut unit = base
            .wrapping_mul(per)
            .wrapping_add(Self::base_unit(table, op.register.offset))
            .wrapping_add(comp);
        let reg = (unit / per) as usize;
        let size = self.table_size(table);
        if reg >= size {
            let wrap = if table == Table::Constant {
                size.next_power_of_two()
            } else {
                size
            };
            if wrap == 0 {
                return 0.0;
            }
            let r = reg % wrap;
            if r >= size {
                return 0.0;
            }
            unit = r as u32 * per + unit % per;
        }
        self.unit(table, unit as usize)
    }

    fn write(&mut self, op: &Operand, comp: u32, v: f64) {
        let table = op.register.table;
        let unit = (Self::base_unit(table, op.register.offset) + comp) as usize;
        match table {
            Table::Temporary => {
                let v = self.round(v);
                if let Some(t) = self.temps.get_mut(unit) {
                    *t = v;
                }
            }
            Table::Output => self.out.floats.set(unit, narrow(v)),
            Table::BoolOutput => self.out.bools.set(unit, v != 0.0),
            Table::IntOutput => self.out.ints.set(unit, round_to_int(v)),
            // Parsing rejects outputs to input tables.
            Table::Immediate | Table::Constant | Table::Input => {}
        }
    }
}

/// Runs `program` with its `c` inputs in `constants`, writing its outputs into `out`
/// (temporaries start at 0).
pub fn execute(
    program: &Program,
    constants: &Bank<f32>,
    out: &mut Registers,
    precision: Precision,
) {
    let mut literals: Vec<f64> = program
        .literals()
        .map_or(Vec::new(), |l| l.as_f64().collect());
    if precision == Precision::Float32 {
        literals.iter_mut().for_each(|v| *v = widen(narrow(*v)));
    }
    let constant_size = program
        .constant_table()
        .map(|t| {
            t.constants
                .iter()
                .filter(|c| c.register_set_raw == 2)
                .map(|c| c.register_index as usize + c.register_count as usize)
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(constants.len());
    let temp_units = program
        .instructions()
        .iter()
        .filter(|i| i.output.register.table == Table::Temporary)
        .map(|i| (i.output.register.offset as usize | 3) + 1)
        .max()
        .unwrap_or(0);
    // Output tables are as large as the registers the program writes (reads past them wrap).
    for ins in program.instructions() {
        let o = ins.output.register;
        let last = Machine::base_unit(o.table, o.offset) as usize + ins.components() as usize - 1;
        match o.table {
            Table::Output => out.floats.touch(last),
            Table::BoolOutput => out.bools.touch(last),
            Table::IntOutput => out.ints.touch(last),
            _ => {}
        }
    }
    let mut m = Machine {
        literals,
        constants,
        constant_size,
        temps: vec![0.0; temp_units],
        out,
        precision,
    };
    let mut args = [0f64; 32];
    for ins in program.instructions() {
        let op = ins.opcode();
        let n = ins.components();
        if op == Opcode::Dot {
            for (k, input) in ins.inputs.iter().enumerate() {
                for j in 0..n {
                    let comp = if ins.scalar() && k == 0 { 0 } else { j };
                    args[k * n as usize + j as usize] = m.read(input, comp);
                }
            }
            let (a, b) = args[..2 * n as usize].split_at(n as usize);
            let r = match precision {
                Precision::Native => arith(
                    a.iter().zip(b).fold(0.0, |s, (x, y)| s + x * y),
                    &args[..2 * n as usize],
                ),
                Precision::Float32 => widen(
                    a.iter()
                        .zip(b)
                        .fold(0f32, |s, (&x, &y)| s + narrow(x) * narrow(y)),
                ),
            };
            let r = m.round(r);
            m.write(&ins.output, 0, r);
            continue;
        }
        for j in 0..n {
            for (k, input) in ins.inputs.iter().enumerate() {
                let first_only =
                    (ins.scalar() && k == 0) || matches!(op, Opcode::Floor | Opcode::Ceil);
                args[k] = m.read(input, if first_only { 0 } else { j });
            }
            let a = &args[..ins.inputs.len()];
            let r = match precision {
                Precision::Native => apply(op, a),
                Precision::Float32 => apply_f32(op, a),
            };
            let r = m.round(r);
            m.write(&ins.output, j, r);
        }
    }
}

impl<T: Copy + Default> Bank<T> {
    /// Allocates up to component `unit` without marking anything written.
    fn touch(&mut self, unit: usize) {
        let reg = unit / self.width;
        if reg <= MAX_REGISTERS as usize && reg >= self.written.len() {
            self.written.resize(reg + 1, false);
            self.values.resize((reg + 1) * self.width, T::default());
        }
    }
}

fn min_max(a: f64, b: f64, min: bool) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if (a < b) == min {
        a
    } else {
        b
    }
}

/// One component of one operation in `f32`, with the shader rules of `docs/SEMANTICS.md`.
fn apply_f32(op: Opcode, a: &[f64]) -> f64 {
    use Opcode::*;
    let f = |k: usize| a.get(k).copied().map_or(0.0, narrow);
    let (x, y) = (f(0), f(1));
    let r = match op {
        Rcp => 1.0 / x,
        Frc => x - x.floor(),
        Exp => x.exp2(),
        Log => x.abs().log2(),
        Rsq => 1.0 / x.abs().sqrt(),
        Sin => x.sin(),
        Cos => x.cos(),
        Asin | Acos => {
            let r = if op == Asin { x.asin() } else { x.acos() };
            if r.is_nan() {
                f32::from_bits(0xFFC0_0000)
            } else {
                r
            }
        }
        Atan => x.atan(),
        Atan2 => x.atan2(y),
        Sqrt => x.sqrt(),
        Min => {
            if x < y {
                x
            } else {
                y
            }
        }
        Max => {
            if x >= y {
                x
            } else {
                y
            }
        }
        Add => x + y,
        Mul => x * y,
        Div => x / y,
        DotSwiz6 | DotSwiz8 => {
            let half = a.len() / 2;
            (0..half).fold(0f32, |s, k| s + f(k) * f(k + half))
        }
        // Selections, comparisons and bit operations are exact: as in native mode.
        _ => return apply(op, a),
    };
    widen(r)
}

/// One component of one operation.
fn apply(op: Opcode, a: &[f64]) -> f64 {
    use Opcode::*;
    let x = a.first().copied().unwrap_or(0.0);
    let y = a.get(1).copied().unwrap_or(0.0);
    let z = a.get(2).copied().unwrap_or(0.0);
    let (i, j) = (bits(x) as i32, bits(y) as i32);
    let (u, v) = (bits(x), bits(y));
    match op {
        Nop => 0.0,
        Mov => x,
        Neg => -x,
        Rcp => arith(1.0 / x, a),
        Frc => arith(x - x.floor(), a),
        Exp => arith(2f64.powf(x), a),
        Log => {
            let m = x.abs();
            if m == 0.0 {
                0.0
            } else {
                arith(m.log2(), a)
            }
        }
        Rsq => {
            let m = x.abs();
            if m == 0.0 {
                f64::INFINITY
            } else {
                arith(1.0 / m.sqrt(), a)
            }
        }
        Sin => arith(x.sin(), a),
        Cos => arith(x.cos(), a),
        Asin | Acos => {
            let r = if op == Asin { x.asin() } else { x.acos() };
            if r.is_nan() {
                f64::from_bits(DEFAULT_NAN)
            } else {
                r
            }
        }
        Atan => arith(x.atan(), a),
        Atan2 => arith(x.atan2(y), a),
        Sqrt => arith(x.sqrt(), a),
        Floor => x.floor(),
        Ceil => x.ceil(),
        Min => min_max(x, y, true),
        Max => min_max(x, y, false),
        Lt => (x < y) as u32 as f64,
        Ge => (x >= y) as u32 as f64,
        Add => arith(x + y, a),
        Mul => arith(x * y, a),
        Div => 0.0,
        Cmp => {
            if x >= 0.0 {
                y
            } else {
                z
            }
        }
        Movc => {
            if x != 0.0 {
                y
            } else {
                z
            }
        }
        DotSwiz6 | DotSwiz8 => {
            let half = a.len() / 2;
            let r = (0..half).fold(0.0, |s, k| s + a[k] * a[k + half]);
            arith(r, a)
        }
        Dot => unreachable!("dot reduces all components and is evaluated apart"),
        Ineg => from_bits(i.wrapping_neg() as u32),
        Not => from_bits(!u),
        Itof => widen(i as f32),
        Utof => widen(u as f32),
        Ftou => from_bits(narrow(x) as u32),
        Ftob => mask(narrow(x) != 0.0),
        Bilt => mask(i < j),
        Bige => mask(i >= j),
        Bieq => mask(i == j),
        Bine => mask(i != j),
        Buge => mask(u >= v),
        Bult => mask(u < v),
        Iadd => from_bits(i.wrapping_add(j) as u32),
        Imul => from_bits(i.wrapping_mul(j) as u32),
        Udiv => from_bits(u.checked_div(v).unwrap_or(u32::MAX)),
        Imin => from_bits(i.min(j) as u32),
        Imax => from_bits(i.max(j) as u32),
        Umin => from_bits(u.min(v)),
        Umax => from_bits(u.max(v)),
        And => from_bits(u & v),
        Or => from_bits(u | v),
        Xor => from_bits(u ^ v),
        Ishl => from_bits(u.wrapping_shl(j.rem_euclid(32) as u32)),
        Ishr => from_bits((i >> j.rem_euclid(32)) as u32),
        Ushr => from_bits(u >> j.rem_euclid(32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_keep_nan_signs() {
        let neg = f32::from_bits(0xFFC0_0000);
        assert_eq!(narrow(widen(neg)).to_bits(), 0xFFC0_0000);
        assert_eq!(narrow(f64::from_bits(DEFAULT_NAN)).to_bits(), 0xFFC0_0000);
        assert_eq!(
            narrow(widen(f32::from_bits(0x7FC0_0000))).to_bits(),
            0x7FC0_0000
        );
        assert_eq!(round_to_int(2.5), 2);
        assert_eq!(round_to_int(-1.5), -2);
        assert_eq!(round_to_int(f64::NAN), i32::MIN);
        assert_eq!(round_to_int(1e10), i32::MIN);
    }

    #[test]
    fn nan_rules() {
        // 0 * inf: generated NaN is the negative default.
        assert_eq!(
            narrow(apply(Opcode::Mul, &[0.0, f64::INFINITY])).to_bits(),
            0xFFC0_0000
        );
        // A NaN operand propagates.
        let pos = widen(f32::from_bits(0x7FC0_0000));
        assert_eq!(
            narrow(apply(Opcode::Atan2, &[pos, 1.0])).to_bits(),
            0x7FC0_0000
        );
        assert_eq!(narrow(apply(Opcode::Neg, &[pos])).to_bits(), 0xFFC0_0000);
        assert_eq!(apply(Opcode::Cmp, &[f64::NAN, 1.0, 8.0]), 8.0);
        assert_eq!(apply(Opcode::Min, &[f64::NAN, 3.0]), 3.0);
        assert_eq!(apply(Opcode::Div, &[1.0, 2.0]), 0.0);
        assert_eq!(apply(Opcode::Log, &[0.0]), 0.0);
        assert_eq!(apply(Opcode::Rsq, &[-0.0]), f64::INFINITY);
    }

    #[test]
    fn float32_follows_the_shader_rules() {
        assert_eq!(apply_f32(Opcode::Log, &[0.0]), f64::NEG_INFINITY);
        assert_eq!(apply(Opcode::Log, &[0.0]), 0.0);
        // min(a, NaN) = NaN as a shader computes it; native d3dx9 ignores the NaN.
        assert!(apply_f32(Opcode::Min, &[1.0, f64::NAN]).is_nan());
        assert_eq!(apply_f32(Opcode::Min, &[f64::NAN, 1.0]), 1.0);
        assert_eq!(apply(Opcode::Min, &[1.0, f64::NAN]), 1.0);
        assert_eq!(apply_f32(Opcode::Div, &[1.0, 4.0]), 0.25);
        // -2.2 + 1e-12 * -3 - (-2.2): 0 in float, -3e-12 with native double temporaries.
        let add = |p, a, b| match p {
            Precision::Native => apply(Opcode::Add, &[a, b]),
            Precision::Float32 => apply_f32(Opcode::Add, &[a, b]),
        };
        for (p, expected) in [(Precision::Native, 0xac53_1800u32), (Precision::Float32, 0)] {
            let v = widen(-2.2f32);
            let t = add(p, v, widen(narrow(1e-12 * -3.0)));
            let t = if p == Precision::Float32 {
                widen(narrow(t))
            } else {
                t
            };
            assert_eq!(
                narrow(add(p, t, -v)).to_bits() & 0x7FFF_FFFF,
                expected & 0x7FFF_FFFF
            );
        }
    }

    #[test]
    fn integer_operations_act_on_bit_patterns() {
        let int = |v: i32| from_bits(v as u32);
        let back = |r: f64| bits(r) as i32;
        assert_eq!(back(apply(Opcode::Iadd, &[int(2), int(-5)])), -3);
        assert_eq!(back(apply(Opcode::Udiv, &[int(7), int(0)])), -1);
        assert_eq!(back(apply(Opcode::Ishl, &[int(1), int(33)])), 2);
        assert_eq!(back(apply(Opcode::Bilt, &[int(-1), int(0)])), -1);
        assert_eq!(apply(Opcode::Itof, &[int(3)]), 3.0);
        assert_eq!(back(apply(Opcode::Ftou, &[2.7])), 2);
    }
}
