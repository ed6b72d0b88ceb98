//! Derivatives out of flow control (`docs/SEMANTICS.md`, "Derivatives in flow control").
//!
//! WGSL (and tint) accept `dpdx`, `dpdy` and implicit-level sampling only in uniform control
//! flow, while Direct3D 9 lets `dsx`, `dsy` and `texld`/`texldb`/`texldp` sit under any `if`
//! or loop: its quads run both sides of a branch with masked writes, so a pixel's neighbours
//! still hold the operand's value. When none of an instruction's operands is written inside
//! the construct that encloses it, the operand has the same value before the construct for
//! every pixel of the quad, so computing the derivative or the sample there, unconditionally,
//! gives what the quad computes; both are free of side effects. The instruction then writes
//! the value computed before the construct where it stood.

use crate::body::Body;
use crate::Error;
use dxso::{Instruction, Opcode, RegisterType};
use std::collections::HashSet;

/// Whether `inst` needs its quad's neighbours (derivatives or an implicit level of detail).
fn needs_quad(inst: &Instruction) -> bool {
    matches!(inst.opcode, Opcode::Dsx | Opcode::Dsy | Opcode::Tex)
}

/// The index of the instruction that closes the construct opened at `insts[start]`.
fn construct_end(insts: &[(usize, &Instruction)], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, (_, inst)) in insts.iter().enumerate().skip(start) {
        match inst.opcode {
            Opcode::If | Opcode::Ifc | Opcode::Loop | Opcode::Rep => depth += 1,
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => {
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

impl Body<'_> {
    /// Before the construct opened at `insts[start]` (a pixel shader's `if`, `loop` or
    /// `rep`), computes the derivatives and samples inside it whose operands the construct
    /// does not write, and keeps them for [`Body::take_hoisted`].
    pub(crate) fn hoist(
        &mut self,
        insts: &[(usize, &Instruction)],
        start: usize,
    ) -> Result<(), Error> {
        let Some(end) = construct_end(insts, start) else {
            return Ok(());
        };
        let range = &insts[start..=end];
        let mut written = HashSet::new();
        for (_, inst) in range {
            // A subroutine may write any register.
            if matches!(inst.opcode, Opcode::Call | Opcode::CallNz) {
                return Ok(());
            }
            if let Some(d) = inst.dst {
                written.insert(dxso::analysis::register_key(d.register));
            }
        }
        let (item, opcode) = (self.item, self.opcode);
        for &(k, inst) in range {
            if !needs_quad(inst) || self.hoisted.contains_key(&k) {
                continue;
            }
            let movable = inst.srcs.iter().all(|s| {
                s.register.ty == RegisterType::Sampler
                    || (s.relative.is_none()
                        && !written.contains(&dxso::analysis::register_key(s.register)))
            });
            if !movable {
                continue;
            }
            self.item = k;
            self.opcode = inst.opcode;
            self.capture = true;
            let computed = self.compute(inst);
            self.capture = false;
            computed?;
            if let Some(v) = self.captured.take() {
                self.hoisted.insert(k, v);
            }
        }
        self.item = item;
        self.opcode = opcode;
        Ok(())
    }

    /// The value computed before its construct for the instruction of item `item`, if any.
    pub(crate) fn take_hoisted(&mut self, item: usize) -> Option<crate::body::Value> {
        self.hoisted.remove(&item)
    }
}

#[cfg(test)]
mod tests {
    use crate::{translate, Options, Target};

    fn wgsl(asm: &str) -> String {
        let shader = dxso_text::parse(asm).unwrap();
        let t = translate(&shader, &Options::default()).unwrap();
        let out = t.write(Target::Wgsl, &Default::default()).unwrap();
        out.text().unwrap().to_string()
    }

    #[test]
    fn samples_and_derivatives_of_unwritten_operands_move_before_the_branch() {
        let text = wgsl(
            "ps_3_0\ndef c0, 0.5, 0, 0, 0\ndcl_texcoord0 v0\ndcl_2d s0\n\
             texld r0, v0, s0\nif_gt r0.w, c0.x\ntexld r1, v0, s0\ndsx r2, v0\n\
             add r3, r1, r2\ndsy r4, r3\nadd r0, r3, r4\nendif\nmov oC0, r0\n",
        );
        let (before, inside) = text.split_once("if (").unwrap();
        assert_eq!(before.matches("textureSample(").count(), 2, "{text}");
        assert!(before.contains("dpdxFine"), "{text}");
        // `dsy r4, r3` reads r3, which the branch writes: it stays.
        assert!(
            inside.contains("dpdyFine") && !before.contains("dpdyFine"),
            "{text}"
        );
    }

    #[test]
    fn a_subroutine_call_keeps_everything_in_place() {
        let text = wgsl(
            "ps_3_0\ndef c0, 0.5, 0, 0, 0\ndcl_texcoord0 v0\ndcl_2d s0\n\
             texld r0, v0, s0\nif_gt r0.w, c0.x\ncall l0\ndsx r0, v0\nendif\nmov oC0, r0\nret\n\
             label l0\nmov r1, c0\nret\n",
        );
        let (before, _) = text.split_once("if (").unwrap();
        assert!(!before.contains("dpdxFine"), "{text}");
    }
}
