//! The FXLC operations: the fx_2_0 set that d3dx9 evaluates (numbers and input counts as
//! Wine's `preshader.c` and native d3dx9 use them) and the integer, bitwise, conversion and
//! `movc` operations of the fx_4 expression format (numbers as Wine's d3d10 effect code uses
//! them), so that one evaluator covers every opcode either runtime knows.

/// One operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Opcode {
    Nop,
    Mov,
    Neg,
    Rcp,
    Frc,
    Exp,
    Log,
    Rsq,
    Sin,
    Cos,
    Asin,
    Acos,
    Atan,
    Sqrt,
    Ineg,
    Not,
    Itof,
    Utof,
    Ftou,
    Ftob,
    Floor,
    Ceil,
    Min,
    Max,
    Lt,
    Ge,
    Add,
    Mul,
    Atan2,
    Div,
    Bilt,
    Bige,
    Bieq,
    Bine,
    Buge,
    Bult,
    Iadd,
    Imul,
    Udiv,
    Imin,
    Imax,
    Umin,
    Umax,
    And,
    Or,
    Xor,
    Ishl,
    Ishr,
    Ushr,
    Cmp,
    Movc,
    Dot,
    /// `d3ds_dotswiz` with 6 inputs (three pairs of single components).
    DotSwiz6,
    /// `d3ds_dotswiz` with 8 inputs (four pairs).
    DotSwiz8,
}

/// `(opcode number, input count, operation, mnemonic)`.
const TABLE: &[(u32, u32, Opcode, &str)] = &[
    (0x000, 0, Opcode::Nop, "nop"),
    (0x100, 1, Opcode::Mov, "mov"),
    (0x101, 1, Opcode::Neg, "neg"),
    (0x103, 1, Opcode::Rcp, "rcp"),
    (0x104, 1, Opcode::Frc, "frc"),
    (0x105, 1, Opcode::Exp, "exp"),
    (0x106, 1, Opcode::Log, "log"),
    (0x107, 1, Opcode::Rsq, "rsq"),
    (0x108, 1, Opcode::Sin, "sin"),
    (0x109, 1, Opcode::Cos, "cos"),
    (0x10a, 1, Opcode::Asin, "asin"),
    (0x10b, 1, Opcode::Acos, "acos"),
    (0x10c, 1, Opcode::Atan, "atan"),
    (0x112, 1, Opcode::Sqrt, "sqrt"),
    (0x120, 1, Opcode::Ineg, "ineg"),
    (0x121, 1, Opcode::Not, "not"),
    (0x130, 1, Opcode::Itof, "itof"),
    (0x131, 1, Opcode::Utof, "utof"),
    (0x133, 1, Opcode::Ftou, "ftou"),
    (0x137, 1, Opcode::Ftob, "ftob"),
    (0x139, 1, Opcode::Floor, "floor"),
    (0x13a, 1, Opcode::Ceil, "ceil"),
    (0x200, 2, Opcode::Min, "min"),
    (0x201, 2, Opcode::Max, "max"),
    (0x202, 2, Opcode::Lt, "lt"),
    (0x203, 2, Opcode::Ge, "ge"),
    (0x204, 2, Opcode::Add, "add"),
    (0x205, 2, Opcode::Mul, "mul"),
    (0x206, 2, Opcode::Atan2, "atan2"),
    (0x208, 2, Opcode::Div, "div"),
    (0x210, 2, Opcode::Bilt, "bilt"),
    (0x211, 2, Opcode::Bige, "bige"),
    (0x212, 2, Opcode::Bieq, "bieq"),
    (0x213, 2, Opcode::Bine, "bine"),
    (0x214, 2, Opcode::Buge, "buge"),
    (0x215, 2, Opcode::Bult, "bult"),
    (0x216, 2, Opcode::Iadd, "iadd"),
    (0x219, 2, Opcode::Imul, "imul"),
    (0x21a, 2, Opcode::Udiv, "udiv"),
    (0x21d, 2, Opcode::Imin, "imin"),
    (0x21e, 2, Opcode::Imax, "imax"),
    (0x21f, 2, Opcode::Umin, "umin"),
    (0x220, 2, Opcode::Umax, "umax"),
    (0x230, 2, Opcode::And, "and"),
    (0x231, 2, Opcode::Or, "or"),
    (0x233, 2, Opcode::Xor, "xor"),
    (0x234, 2, Opcode::Ishl, "ishl"),
    (0x235, 2, Opcode::Ishr, "ishr"),
    (0x236, 2, Opcode::Ushr, "ushr"),
    (0x300, 3, Opcode::Cmp, "cmp"),
    (0x301, 3, Opcode::Movc, "movc"),
    (0x500, 2, Opcode::Dot, "dot"),
    (0x70e, 6, Opcode::DotSwiz6, "d3ds_dotswiz"),
    (0x70e, 8, Opcode::DotSwiz8, "d3ds_dotswiz"),
];

impl Opcode {
    /// The operation with opcode number `opcode` (bits 20-30) taking `inputs` inputs.
    pub fn lookup(opcode: u32, inputs: u32) -> Option<Opcode> {
        TABLE
            .iter()
            .find(|e| e.0 == opcode && e.1 == inputs)
            .map(|e| e.2)
    }

    fn entry(self) -> &'static (u32, u32, Opcode, &'static str) {
        TABLE
            .iter()
            .find(|e| e.2 == self)
            .expect("every opcode is in the table")
    }

    /// The opcode number.
    pub fn number(self) -> u32 {
        self.entry().0
    }

    /// The input count.
    pub fn inputs(self) -> u32 {
        self.entry().1
    }

    /// The mnemonic of listings.
    pub fn mnemonic(self) -> &'static str {
        self.entry().3
    }

    /// `true` for `dot`, which reduces all components to one output component.
    pub fn reduces(self) -> bool {
        self == Opcode::Dot
    }

    /// Every operation.
    pub fn all() -> impl Iterator<Item = Opcode> {
        TABLE.iter().map(|e| e.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_round_trip() {
        for op in Opcode::all() {
            assert_eq!(Opcode::lookup(op.number(), op.inputs()), Some(op));
        }
        assert_eq!(Opcode::lookup(0x300, 2), None);
        assert_eq!(Opcode::lookup(0x70e, 7), None);
        assert_eq!(Opcode::lookup(0x207, 2), None);
    }
}
