//! ps_1_x texture instructions (`docs/SEMANTICS.md` section 8).

use super::{Lowerer, Reads};
use crate::error::PlanError;
use crate::io::InputRegister;
use crate::plan::layout::Key;
use crate::plan::{ArithFn, DepthFn, LodPlan, Op, Slot, StageField, Uniform};
use dxso::{Instruction, Opcode};

/// Lowering state particular to ps_1_x.
#[derive(Default)]
pub(crate) struct State {
    /// The next instruction is co-issued with this one.
    pub next_coissued: bool,
    /// The `texm3x*pad` rows so far: the pad's register and the row's slot.
    rows: Vec<(u8, Slot)>,
}

impl Lowerer<'_> {
    /// The interpolated texture coordinate set `m`, all four components.
    fn tc(&mut self, m: u8) -> [Slot; 4] {
        [0, 1, 2, 3].map(|c| self.layout.reg(Key::Input(InputRegister::T(m)), c))
    }

    fn stage_uniform(&mut self, stage: u8, field: StageField) -> Slot {
        self.layout.uniform(Uniform::Stage { stage, field })
    }

    fn arith1(&mut self, f: ArithFn, dst: Slot, srcs: &[Slot]) {
        let zero = self.zero();
        let mut src = [[zero; 4]; 3];
        for (i, &s) in srcs.iter().enumerate() {
            src[i][0] = s;
        }
        self.emit(Op::Arith {
            f,
            mask: 1,
            dst: [dst, zero, zero, zero],
            src,
        });
    }

    /// Samples stage `stage` at `coords` into four scratch channels.
    fn sample_stage(&mut self, stage: u8, coords: [Slot; 3]) -> [Slot; 4] {
        self.samplers.entry(stage).or_insert(None);
        let ch = [(); 4].map(|_| self.layout.scratch());
        self.emit(Op::Sample {
            sampler: stage,
            coords,
            lod: LodPlan::Implicit,
            dst: ch,
        });
        ch
    }

    /// `dot3(tc(m), t(n))` into `dst`.
    fn row(&mut self, m: u8, src: [Slot; 4], dst: Slot) {
        let tc = self.tc(m);
        let zero = self.zero();
        self.emit(Op::Dot {
            len: 3,
            a: tc,
            b: src,
            add: None,
            mask: 1,
            dst: [dst, zero, zero, zero],
        });
    }

    fn row_slot(&mut self, k: usize) -> Slot {
        self.layout.reg(Key::Hidden(k as u8), 0)
    }

    /// One ps_1_x texture instruction (or `bem`).
    pub(super) fn ps1_texture(&mut self, inst: &Instruction) -> Result<(), PlanError> {
        use Opcode::*;
        let d = inst
            .dst
            .ok_or_else(|| self.unsupported(inst, "no destination"))?;
        let m = d.register.num as u8;
        let ps14 = self.shader.version.minor >= 4;
        let zero = self.zero();
        let one = self.one();
        match inst.opcode {
            Tex if !ps14 => {
                let tc = self.tc(m);
                let p = [(); 3].map(|_| self.layout.scratch());
                self.emit(Op::ProjectStage {
                    stage: m,
                    src: tc,
                    dst: p,
                });
                let ch = self.sample_stage(m, p);
                self.write(inst, &d, ch);
            }
            Tex => {
                let c = self.src(&inst.srcs[0], 7);
                let ch = self.sample_stage(m, [c[0], c[1], c[2]]);
                self.write(inst, &d, ch);
            }
            TexCoord if !ps14 => {
                let tc = self.tc(m);
                let mut v = [zero, zero, zero, one];
                for c in 0..3 {
                    v[c] = self.layout.scratch();
                    self.arith1(ArithFn::Sat, v[c], &[tc[c]]);
                }
                self.write(inst, &d, v);
            }
            TexCoord => {
                let v = self.src(&inst.srcs[0], d.mask.0 & 0xF);
                self.write(inst, &d, v);
            }
            TexBem | TexBemL => {
                let t = self.src(&inst.srcs[0], 7);
                let tc = self.tc(m);
                let p = [(); 3].map(|_| self.layout.scratch());
                self.emit(Op::ProjectStage {
                    stage: m,
                    src: tc,
                    dst: p,
                });
                let mat = [0, 1, 2, 3].map(|i| self.stage_uniform(m, StageField::BumpMat(i)));
                let (u1, u, v1, v) = (
                    self.layout.scratch(),
                    self.layout.scratch(),
                    self.layout.scratch(),
                    self.layout.scratch(),
                );
                // u = tc.x + M00 r + M10 g, v = tc.y + M01 r + M11 g.
                self.arith1(ArithFn::Mad, u1, &[mat[0], t[0], p[0]]);
                self.arith1(ArithFn::Mad, u, &[mat[2], t[1], u1]);
                self.arith1(ArithFn::Mad, v1, &[mat[1], t[0], p[1]]);
                self.arith1(ArithFn::Mad, v, &[mat[3], t[1], v1]);
                let mut ch = self.sample_stage(m, [u, v, zero]);
                if inst.opcode == TexBemL {
                    let ls = self.stage_uniform(m, StageField::LScale);
                    let lo = self.stage_uniform(m, StageField::LOffset);
                    let l = self.layout.scratch();
                    self.arith1(ArithFn::Mad, l, &[t[2], ls, lo]);
                    let scaled = [(); 4].map(|_| self.layout.scratch());
                    self.emit(Op::Arith {
                        f: ArithFn::Mul,
                        mask: 0xF,
                        dst: scaled,
                        src: [ch, [l; 4], [zero; 4]],
                    });
                    ch = scaled;
                }
                self.write(inst, &d, ch);
            }
            TexReg2Ar | TexReg2Gb | TexReg2Rgb => {
                let t = self.src(&inst.srcs[0], 0xF);
                let coords = match inst.opcode {
                    TexReg2Ar => [t[3], t[0], zero],
                    TexReg2Gb => [t[1], t[2], zero],
                    _ => [t[0], t[1], t[2]],
                };
                let ch = self.sample_stage(m, coords);
                self.write(inst, &d, ch);
            }
            TexM3x2Pad | TexM3x3Pad => {
                let t = self.src(&inst.srcs[0], 7);
                if inst.opcode == TexM3x2Pad || self.ps1.rows.len() >= 2 {
                    self.ps1.rows.clear();
                }
                let k = self.ps1.rows.len();
                let slot = self.row_slot(k);
                self.row(m, t, slot);
                self.ps1.rows.push((m, slot));
            }
            TexM3x2Tex | TexM3x2Depth => {
                let t = self.src(&inst.srcs[0], 7);
                let u = self.row_slot(0);
                let v = self.row_slot(1);
                self.row(m, t, v);
                self.ps1.rows.clear();
                if inst.opcode == TexM3x2Tex {
                    let ch = self.sample_stage(m, [u, v, zero]);
                    self.write(inst, &d, ch);
                } else {
                    let depth = self
                        .layout
                        .reg(Key::Output(crate::io::OutputRegister::Depth), 0);
                    self.mark_written(crate::io::OutputRegister::Depth);
                    self.emit(Op::Depth {
                        f: DepthFn::TexM3x2,
                        a: u,
                        b: v,
                        dst: depth,
                    });
                }
            }
            TexM3x3Tex | TexM3x3 | TexM3x3Spec | TexM3x3VSpec => {
                let t = self.src(&inst.srcs[0], 7);
                let (u, v, w) = (self.row_slot(0), self.row_slot(1), self.row_slot(2));
                self.row(m, t, w);
                let pads: Vec<u8> = self.ps1.rows.iter().map(|r| r.0).collect();
                self.ps1.rows.clear();
                match inst.opcode {
                    TexM3x3Tex => {
                        let ch = self.sample_stage(m, [u, v, w]);
                        self.write(inst, &d, ch);
                    }
                    TexM3x3 => self.write(inst, &d, [u, v, w, one]),
                    _ => {
                        let e = if inst.opcode == TexM3x3Spec {
                            let c = self.src(&inst.srcs[1], 7);
                            [c[0], c[1], c[2]]
                        } else {
                            let first = pads.first().copied().unwrap_or(m.saturating_sub(2));
                            let second = pads.get(1).copied().unwrap_or(m.saturating_sub(1));
                            [self.tc(first)[3], self.tc(second)[3], self.tc(m)[3]]
                        };
                        let r = [(); 3].map(|_| self.layout.scratch());
                        self.emit(Op::Reflect {
                            n: [u, v, w],
                            e,
                            dst: r,
                        });
                        let ch = self.sample_stage(m, r);
                        self.write(inst, &d, ch);
                    }
                }
            }
            TexDp3Tex => {
                let t = self.src(&inst.srcs[0], 7);
                let u = self.layout.scratch();
                self.row(m, t, u);
                let ch = self.sample_stage(m, [u, zero, zero]);
                self.write(inst, &d, ch);
            }
            TexDp3 => {
                let t = self.src(&inst.srcs[0], 7);
                let u = self.layout.scratch();
                self.row(m, t, u);
                self.write(inst, &d, [u; 4]);
            }
            TexDepth => {
                let r = self.texture_source(d.register, 3);
                let depth = self
                    .layout
                    .reg(Key::Output(crate::io::OutputRegister::Depth), 0);
                self.mark_written(crate::io::OutputRegister::Depth);
                self.emit(Op::Depth {
                    f: DepthFn::TexDepth,
                    a: r[0],
                    b: r[1],
                    dst: depth,
                });
            }
            Bem => {
                let a = self.src(&inst.srcs[0], 3);
                let b = self.src(&inst.srcs[1], 3);
                let mat = [0, 1, 2, 3].map(|i| self.stage_uniform(m, StageField::BumpMat(i)));
                let (x1, x, y1, y) = (
                    self.layout.scratch(),
                    self.layout.scratch(),
                    self.layout.scratch(),
                    self.layout.scratch(),
                );
                self.arith1(ArithFn::Mad, x1, &[mat[0], b[0], a[0]]);
                self.arith1(ArithFn::Mad, x, &[mat[2], b[1], x1]);
                self.arith1(ArithFn::Mad, y1, &[mat[1], b[0], a[1]]);
                self.arith1(ArithFn::Mad, y, &[mat[3], b[1], y1]);
                let vals = [x, y, zero, zero];
                let srcs = [vals];
                let plan = self.dst_begin(inst, &d, Reads::Componentwise(&srcs));
                self.arith_into(ArithFn::Mov, &plan, &srcs);
                self.dst_end(plan);
            }
            _ => {
                return Err(self.unsupported(inst, "not an instruction of this version"));
            }
        }
        Ok(())
    }
}
