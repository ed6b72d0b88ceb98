//! The program's interface, decided before the body: declared inputs, outputs and samplers, the
//! constants `def`, `defi` and `defb` give, and the declarations that announce them.

use super::{Gen, InputSlot, OutputSlot};
use dxso::validate::Profile;
use dxso::{
    DclToken, DeclUsage, DstParam, Extra, Instruction, Opcode, Register, RegisterType,
    ResultModifiers, TextureType, WriteMask,
};

/// D3DSINCOSCONST1 and D3DSINCOSCONST2: the series constants shader model 2 `sincos` reads,
/// spelled as d3d9types.h spells them.
#[allow(clippy::excessive_precision)]
pub(crate) const SINCOS_CONST1: [f32; 4] = [
    -1.550_099_2e-6,
    -2.170_138_9e-5,
    0.002_604_166_7,
    0.000_260_416_68,
];
#[allow(clippy::excessive_precision)]
pub(crate) const SINCOS_CONST2: [f32; 4] = [-0.020_833_334, -0.125, 1.0, 0.5];

/// Vertex input usages besides position 0, each used at most once.
const VS_INPUT_USAGES: &[(DeclUsage, u8)] = &[
    (DeclUsage::Normal, 0),
    (DeclUsage::TexCoord, 0),
    (DeclUsage::TexCoord, 1),
    (DeclUsage::TexCoord, 2),
    (DeclUsage::TexCoord, 3),
    (DeclUsage::Color, 0),
    (DeclUsage::Color, 1),
    (DeclUsage::BlendWeight, 0),
    (DeclUsage::BlendIndices, 0),
    (DeclUsage::Tangent, 0),
    (DeclUsage::Binormal, 0),
    (DeclUsage::Position, 1),
    (DeclUsage::PSize, 0),
    (DeclUsage::Fog, 0),
    (DeclUsage::Normal, 1),
    (DeclUsage::TexCoord, 4),
];

/// ps_3_0 input usages (texcoord 0-7, color 0-1).
const PS30_INPUT_USAGES: &[(DeclUsage, u8)] = &[
    (DeclUsage::TexCoord, 0),
    (DeclUsage::TexCoord, 1),
    (DeclUsage::TexCoord, 2),
    (DeclUsage::TexCoord, 3),
    (DeclUsage::TexCoord, 4),
    (DeclUsage::TexCoord, 5),
    (DeclUsage::TexCoord, 6),
    (DeclUsage::TexCoord, 7),
    (DeclUsage::Color, 0),
    (DeclUsage::Color, 1),
];

/// Masks inputs and outputs are declared with.
const DECL_MASKS: &[u8] = &[0xF, 0xF, 0xF, 0x7, 0x3, 0x1];

impl Gen<'_, '_> {
    /// Chooses inputs, outputs, samplers and constants for a vertex shader or a ps_2_0+ shader.
    pub fn setup(&mut self) {
        self.setup_inputs();
        self.setup_outputs();
        self.setup_samplers();
        self.setup_constants();
    }

    fn shuffled<T: Copy>(&mut self, items: &[T]) -> Vec<T> {
        let mut v = items.to_vec();
        for i in (1..v.len()).rev() {
            let j = self.index(i + 1);
            v.swap(i, j);
        }
        v
    }

    fn decl_mask(&mut self) -> u8 {
        if self.cfg.write_masks {
            self.pick(DECL_MASKS)
        } else {
            0xF
        }
    }

    fn setup_inputs(&mut self) {
        use Profile::*;
        match self.p {
            Vs11 | Vs20 | Vs2x | Vs30 => {
                // Contiguous v0..vN-1 with full masks, so relative addressing of inputs has a run.
                let n = self.range(1, 8) as u16;
                let usages = self.shuffled(VS_INPUT_USAGES);
                for i in 0..n {
                    let usage = if i == 0 {
                        (DeclUsage::Position, 0)
                    } else {
                        usages[i as usize - 1]
                    };
                    self.inputs.push(InputSlot {
                        register: Register::new(RegisterType::Input, i),
                        mask: 0xF,
                        usage: Some(usage),
                        centroid: false,
                    });
                }
            }
            Ps20 | Ps2x => {
                for n in 0..2u16 {
                    if self.chance(1, 2) {
                        let mask = self.decl_mask();
                        let centroid = self.cfg.result_modifiers && self.chance(1, 6);
                        self.inputs.push(InputSlot {
                            register: Register::new(RegisterType::Input, n),
                            mask,
                            usage: None,
                            centroid,
                        });
                    }
                }
                for n in 0..8u16 {
                    if self.chance(1, 2) {
                        let mask = self.decl_mask();
                        let centroid = self.cfg.result_modifiers && self.chance(1, 6);
                        self.inputs.push(InputSlot {
                            register: Register::new(RegisterType::Addr, n),
                            mask,
                            usage: None,
                            centroid,
                        });
                    }
                }
            }
            Ps30 => {
                let n = self.range(0, 6) as u16;
                let usages = self.shuffled(PS30_INPUT_USAGES);
                for i in 0..n {
                    let mask = self.decl_mask();
                    let centroid = self.cfg.result_modifiers && self.chance(1, 6);
                    self.inputs.push(InputSlot {
                        register: Register::new(RegisterType::Input, i),
                        mask,
                        usage: Some(usages[i as usize]),
                        centroid,
                    });
                }
                if self.chance(1, 3) {
                    self.inputs.push(InputSlot {
                        register: Register::new(RegisterType::MiscType, 0),
                        mask: 0x3,
                        usage: None,
                        centroid: false,
                    });
                }
                if self.chance(1, 3) {
                    self.inputs.push(InputSlot {
                        register: Register::new(RegisterType::MiscType, 1),
                        mask: 0xF,
                        usage: None,
                        centroid: false,
                    });
                }
            }
            Ps11 | Ps12 | Ps13 | Ps14 => {}
        }
    }

    pub(crate) fn setup_outputs(&mut self) {
        use Profile::*;
        let out = |ty, n| Register::new(ty, n);
        match self.p {
            Vs11 | Vs20 | Vs2x => {
                self.outputs.push(OutputSlot {
                    register: out(RegisterType::RastOut, 0),
                    mask: 0xF,
                    usage: None,
                    epilogue_only: false,
                });
                let mut extra: Vec<(Register, bool)> = vec![
                    (out(RegisterType::AttrOut, 0), false),
                    (out(RegisterType::AttrOut, 1), false),
                    (out(RegisterType::RastOut, 1), true),
                    (out(RegisterType::RastOut, 2), true),
                ];
                extra.extend((0..8).map(|n| (out(RegisterType::Output, n), false)));
                let extra = self.shuffled(&extra);
                let n = self.range(0, 4) as usize;
                for &(register, scalar) in extra.iter().take(n) {
                    // oFog and oPts are scalars written with no mask (as fxc writes them), from
                    // a replicate swizzle, at the end of main.
                    let mask = if scalar { 0xF } else { self.decl_mask() };
                    self.outputs.push(OutputSlot {
                        register,
                        mask,
                        usage: None,
                        epilogue_only: scalar,
                    });
                }
            }
            Vs30 => {
                self.outputs.push(OutputSlot {
                    register: out(RegisterType::Output, 0),
                    mask: 0xF,
                    usage: Some((DeclUsage::Position, 0)),
                    epilogue_only: false,
                });
                let n = self.range(0, 5) as u16;
                let mut texcoord = 0u8;
                let mut color = 0u8;
                let mut fog = false;
                let mut psize = false;
                for reg in 1..=n {
                    let roll = self.range(0, 9);
                    let (usage, mask) = match roll {
                        0 if !fog => {
                            fog = true;
                            ((DeclUsage::Fog, 0), 0x1)
                        }
                        1 if !psize => {
                            psize = true;
                            ((DeclUsage::PSize, 0), 0x1)
                        }
                        2 | 3 if color < 2 => {
                            color += 1;
                            ((DeclUsage::Color, color - 1), self.decl_mask())
                        }
                        _ => {
                            texcoord += 1;
                            ((DeclUsage::TexCoord, texcoord - 1), self.decl_mask())
                        }
                    };
                    // Now and then two declarations share a register with disjoint masks.
                    if usage.0 == DeclUsage::TexCoord && mask == 0xF && self.chance(1, 5) {
                        texcoord += 1;
                        self.outputs.push(OutputSlot {
                            register: out(RegisterType::Output, reg),
                            mask: 0x3,
                            usage: Some(usage),
                            epilogue_only: false,
                        });
                        self.outputs.push(OutputSlot {
                            register: out(RegisterType::Output, reg),
                            mask: 0xC,
                            usage: Some((DeclUsage::TexCoord, texcoord - 1)),
                            epilogue_only: false,
                        });
                        continue;
                    }
                    self.outputs.push(OutputSlot {
                        register: out(RegisterType::Output, reg),
                        mask,
                        usage: Some(usage),
                        epilogue_only: false,
                    });
                }
            }
            Ps20 | Ps2x | Ps30 => {
                let targets = if self.cfg.multiple_render_targets && self.chance(1, 4) {
                    self.range(2, 4) as u16
                } else {
                    1
                };
                let only_mov = self.p != Ps30;
                for n in 0..targets {
                    self.outputs.push(OutputSlot {
                        register: out(RegisterType::ColorOut, n),
                        mask: 0xF,
                        usage: None,
                        epilogue_only: only_mov,
                    });
                }
                if self.cfg.depth_output && self.chance(1, 5) {
                    self.outputs.push(OutputSlot {
                        register: out(RegisterType::DepthOut, 0),
                        mask: 0xF,
                        usage: None,
                        epilogue_only: true,
                    });
                }
            }
            Ps11 | Ps12 | Ps13 | Ps14 => {
                self.outputs.push(OutputSlot {
                    register: out(RegisterType::Temp, 0),
                    mask: 0xF,
                    usage: None,
                    epilogue_only: false,
                });
            }
        }
    }

    fn setup_samplers(&mut self) {
        let count = match self.p {
            Profile::Vs30 => 4,
            Profile::Ps20 | Profile::Ps2x | Profile::Ps30 => 16,
            _ => return,
        };
        if !self.cfg.textures {
            return;
        }
        let n = self.range(0, 4);
        let numbers: Vec<u16> = (0..count).collect();
        let numbers = self.shuffled(&numbers);
        for &s in numbers.iter().take(n as usize) {
            let ty = self.pick(&[
                TextureType::Texture2D,
                TextureType::Texture2D,
                TextureType::Cube,
                TextureType::Volume,
            ]);
            self.samplers.push((s, ty));
        }
        self.samplers.sort_by_key(|s| s.0);
    }

    /// A float constant register nothing else defines yet.
    pub fn free_const(&mut self) -> Option<u32> {
        let count = self.const_count();
        for _ in 0..8 {
            let i = self.range(0, count.min(24) - 1);
            if !self.fdefs.contains_key(&i) {
                return Some(i);
            }
        }
        (0..count).find(|i| !self.fdefs.contains_key(i))
    }

    /// A value for `def`: small exact values, or in ps_1_x within [-1, 1]; without
    /// `finite_values`, sometimes any bit pattern (NaN payloads, infinities, -0, denormals).
    pub fn def_value(&mut self) -> u32 {
        if self.p.is_ps1() {
            return (self.range_i(-8, 8) as f32 / 8.0).to_bits();
        }
        if self.cfg.finite_values || self.chance(3, 4) {
            return (self.range_i(-32, 32) as f32 / 8.0).to_bits();
        }
        match self.range(0, 9) {
            0 => f32::NAN.to_bits(),
            1 => f32::INFINITY.to_bits(),
            2 => f32::NEG_INFINITY.to_bits(),
            3 => (-0.0f32).to_bits(),
            4 => 1.0e-40f32.to_bits(),
            5 => f32::MAX.to_bits(),
            6 => 1.0e20f32.to_bits(),
            _ => self.u.arbitrary().unwrap_or(0),
        }
    }

    /// Up to `max` float constants with `def` values (when the configuration defines constants).
    pub(crate) fn define_floats(&mut self, max: u32) {
        if !self.cfg.defined_constants {
            return;
        }
        for _ in 0..self.range(0, max) {
            if let Some(i) = self.free_const() {
                let vals = [
                    self.def_value(),
                    self.def_value(),
                    self.def_value(),
                    self.def_value(),
                ];
                self.fdefs.insert(i, vals);
            }
        }
    }

    fn setup_constants(&mut self) {
        use Profile::*;
        self.define_floats(5);
        // The address constant: integers plus a fraction that rounding (mova) and flooring
        // (vs_1_1 mov) both take to the same integer.
        if self.cfg.relative_addressing && self.p.is_vertex() {
            if let Some(i) = self.free_const() {
                let lo = self.range_i(-3, 2);
                let hi = lo + self.range_i(0, 6);
                let mut ints = [0i32; 4];
                let mut bits = [0u32; 4];
                for c in 0..4 {
                    ints[c] = self.range_i(lo, hi);
                    let frac = if self.p == Vs11 {
                        self.range_i(0, 4)
                    } else {
                        self.range_i(-4, 4)
                    } as f32
                        / 10.0;
                    bits[c] = (ints[c] as f32 + frac).to_bits();
                }
                let min = *ints.iter().min().unwrap_or(&0);
                let max = *ints.iter().max().unwrap_or(&0);
                self.a0_range = (min, max);
                self.addr_const = Some(i);
                self.fdefs.insert(i, bits);
            }
        }
        if self.cfg.transcendentals && self.v.major == 2 && self.allowed(Opcode::SinCos) {
            if let Some(a) = self.free_const() {
                self.fdefs.insert(a, SINCOS_CONST1.map(f32::to_bits));
                if let Some(b) = self.free_const() {
                    self.fdefs.insert(b, SINCOS_CONST2.map(f32::to_bits));
                    self.sincos_consts = Some((a, b));
                } else {
                    self.fdefs.remove(&a);
                }
            }
        }
        if self.has_flow() && self.cfg.flow_control {
            let n = self.range(1, 4);
            let max_iter = self.cfg.max_loop_iterations.max(1);
            for _ in 0..n {
                let i = self.range(0, 15) as u16;
                let count = if self.chance(1, 12) {
                    0
                } else if self.chance(1, 8) {
                    self.range(1, max_iter.min(255))
                } else {
                    self.range(1, max_iter.min(6))
                } as i32;
                let start = self.range_i(0, 8);
                let step = self.range_i(-2, 3);
                self.idefs.insert(i, [count, start, step, 0]);
            }
            if self.cfg.defined_constants {
                for _ in 0..self.range(0, 3) {
                    let b = self.range(0, 15) as u16;
                    let val = self.chance(1, 2);
                    self.bdefs.insert(b, val);
                }
            }
        }
    }
}

/// The `dcl` instructions of a program, in Microsoft's order: inputs, outputs, samplers.
pub(crate) fn declarations(g: &Gen<'_, '_>) -> Vec<Instruction> {
    let mut out = Vec::new();
    let dcl = |register: Register, mask: u8, token: DclToken, centroid: bool| {
        let mut i = Instruction::new(Opcode::Dcl);
        let mut d = DstParam::new(register, WriteMask(mask));
        if centroid {
            d.modifiers = ResultModifiers::CENTROID;
        }
        i.dst = Some(d);
        i.extra = Extra::Dcl(token);
        i
    };
    if g.p.is_ps1() {
        return out;
    }
    for s in &g.inputs {
        let token = match s.usage {
            Some((u, n)) => DclToken::usage(u, n),
            None => DclToken::default(),
        };
        out.push(dcl(s.register, s.mask, token, s.centroid));
    }
    if g.p == Profile::Vs30 {
        for s in &g.outputs {
            let (u, n) = s.usage.unwrap_or((DeclUsage::TexCoord, 0));
            out.push(dcl(s.register, s.mask, DclToken::usage(u, n), false));
        }
    }
    for &(n, ty) in &g.samplers {
        out.push(dcl(
            Register::new(RegisterType::Sampler, n),
            0xF,
            DclToken::sampler(ty),
            false,
        ));
    }
    out
}
