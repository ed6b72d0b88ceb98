//! A small instruction builder: the generators write shader model 3 code through it.

use dxso::{
    DclToken, DeclUsage, DstParam, Extra, Instruction, Item, Opcode, Register, RegisterType,
    ResultModifiers, Shader, Sources, SrcModifier, SrcParam, Swizzle, TextureType, Version,
    WriteMask,
};

/// A source operand under construction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Src(pub SrcParam);

impl Src {
    fn of(ty: RegisterType, n: u16) -> Src {
        Src(SrcParam::new(Register::new(ty, n), Swizzle::IDENTITY))
    }

    /// The swizzle spelled `xyzw`-style (one to four letters; the last repeats).
    pub fn s(mut self, swz: &str) -> Src {
        let sel: Vec<u8> = swz
            .bytes()
            .map(|b| match b {
                b'x' | b'r' => 0,
                b'y' | b'g' => 1,
                b'z' | b'b' => 2,
                _ => 3,
            })
            .collect();
        let at = |i: usize| sel.get(i).or(sel.last()).copied().unwrap_or(0);
        // Composes with the swizzle already present (so `x.s("w").s("x")` reads `w`).
        let old = self.0.swizzle;
        self.0.swizzle = Swizzle::new(
            old.get(at(0) as usize),
            old.get(at(1) as usize),
            old.get(at(2) as usize),
            old.get(at(3) as usize),
        );
        self
    }

    /// `-src`.
    pub fn neg(mut self) -> Src {
        self.0.modifier = match self.0.modifier {
            SrcModifier::Neg => SrcModifier::None,
            SrcModifier::Abs => SrcModifier::AbsNeg,
            _ => SrcModifier::Neg,
        };
        self
    }

    /// Relative addressing through `a0.<component>` (constants in vertex shaders).
    pub fn rel_a0(mut self, component: u8) -> Src {
        self.0.relative = Some(dxso::Relative::Token(dxso::RelativeToken::new(
            Register::new(RegisterType::Addr, 0),
            component,
        )));
        self
    }
}

/// A destination operand under construction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dst(pub DstParam);

impl Dst {
    fn of(ty: RegisterType, n: u16) -> Dst {
        Dst(DstParam::new(Register::new(ty, n), WriteMask(0xF)))
    }

    /// The write mask spelled `xyzw`-style.
    pub fn m(mut self, mask: &str) -> Dst {
        let mut bits = 0;
        for b in mask.bytes() {
            bits |= match b {
                b'x' | b'r' => 1,
                b'y' | b'g' => 2,
                b'z' | b'b' => 4,
                _ => 8,
            };
        }
        self.0.mask = WriteMask(bits);
        self
    }

    /// `_sat`.
    pub fn sat(mut self) -> Dst {
        self.0.modifiers = self.0.modifiers.union(ResultModifiers::SATURATE);
        self
    }
}

/// `r#` as a source.
pub(crate) fn r(n: u16) -> Src {
    Src::of(RegisterType::Temp, n)
}
/// `c#` as a source.
pub(crate) fn c(n: u16) -> Src {
    Src::of(RegisterType::Const, n)
}
/// `v#` as a source.
pub(crate) fn v(n: u16) -> Src {
    Src::of(RegisterType::Input, n)
}
/// `r#` as a destination.
pub(crate) fn rd(n: u16) -> Dst {
    Dst::of(RegisterType::Temp, n)
}
/// `o#` (vs_3_0) as a destination.
pub(crate) fn od(n: u16) -> Dst {
    Dst::of(RegisterType::Output, n)
}
/// `oC0` as a destination.
pub(crate) fn oc0() -> Dst {
    Dst::of(RegisterType::ColorOut, 0)
}
/// `a0` as a destination.
pub(crate) fn a0() -> Dst {
    Dst::of(RegisterType::Addr, 0)
}
/// `s#` as a source.
pub(crate) fn sampler(n: u16) -> Src {
    Src::of(RegisterType::Sampler, n)
}

/// Instructions in order, and the next free temporary.
pub(crate) struct Asm {
    version: Version,
    decls: Vec<Item>,
    body: Vec<Item>,
    next_temp: u16,
}

impl Asm {
    /// An empty shader of `version`.
    pub fn new(version: Version) -> Asm {
        Asm {
            version,
            decls: Vec::new(),
            body: Vec::new(),
            next_temp: 0,
        }
    }

    /// A fresh temporary register number.
    pub fn temp(&mut self) -> u16 {
        self.next_temp += 1;
        self.next_temp - 1
    }

    /// `op dst, srcs...`.
    pub fn op(&mut self, opcode: Opcode, dst: Dst, srcs: &[Src]) {
        let mut i = Instruction::new(opcode);
        i.dst = Some(dst.0);
        i.srcs = Sources::from_slice(&srcs.iter().map(|s| s.0).collect::<Vec<_>>())
            .expect("at most four sources");
        self.body.push(Item::Instruction(i));
    }

    /// `texld dst, coords, s#` (`texldp` when `projected`).
    pub fn texld(&mut self, dst: Dst, coords: Src, stage: u16, projected: bool) {
        let mut i = Instruction::new(Opcode::Tex);
        i.control = u8::from(projected);
        i.dst = Some(dst.0);
        i.srcs = Sources::from_slice(&[coords.0, sampler(stage).0]).expect("two sources");
        self.body.push(Item::Instruction(i));
    }

    /// `def c#, x, y, z, w`.
    pub fn def(&mut self, n: u16, values: [f32; 4]) {
        let mut i = Instruction::new(Opcode::Def);
        i.dst = Some(DstParam::new(
            Register::new(RegisterType::Const, n),
            WriteMask(0xF),
        ));
        i.extra = Extra::Def(values.map(f32::to_bits));
        self.decls.push(Item::Instruction(i));
    }

    /// `dcl_<usage><index> <reg>.<mask>` for an input (`v#`) or output (`o#`).
    pub fn dcl(&mut self, ty: RegisterType, n: u16, usage: DeclUsage, index: u8, mask: &str) {
        let mut i = Instruction::new(Opcode::Dcl);
        let mut d = Dst::of(ty, n).m(mask);
        d.0.modifiers = ResultModifiers::NONE;
        i.dst = Some(d.0);
        i.extra = Extra::Dcl(DclToken::usage(usage, index));
        self.decls.push(Item::Instruction(i));
    }

    /// `dcl_<type> s#`.
    pub fn dcl_sampler(&mut self, n: u16, ty: TextureType) {
        let mut i = Instruction::new(Opcode::Dcl);
        i.dst = Some(DstParam::new(
            Register::new(RegisterType::Sampler, n),
            WriteMask(0xF),
        ));
        i.extra = Extra::Dcl(DclToken::sampler(ty));
        self.decls.push(Item::Instruction(i));
    }

    /// The shader: declarations and definitions first, then the body.
    pub fn finish(self) -> Shader {
        let mut s = Shader::new(self.version);
        s.items = self.decls;
        s.items.extend(self.body);
        s
    }
}
