//! Derivatives out of flow control (`docs/SEMANTICS.md`, "Derivatives in flow control").
//!
//! WGSL (and tint) accept `dpdx`, `dpdy` and implicit-level sampling only in uniform control
//! flow, while Direct3D 9 lets `dsx`, `dsy` and `texld`/`texldb`/`texldp` sit under any `if`
//! or loop: its quads run both sides of a branch with masked writes, so a pixel's neighbours
//! still hold the operand's value. When none of an instruction's operands is written between
//! the start of the construct that encloses it and the instruction (in program order, or
//! anywhere in a loop around the instruction), the operand has the same value before the
//! construct for every pixel of the quad, so computing the derivative or the sample there,
//! unconditionally, gives what the quad computes; both are free of side effects. The
//! instruction then writes the value computed before the construct where it stood.

use crate::body::Body;
use crate::Error;
use dxso::analysis::RegisterKey;
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
    /// `rep`), computes the derivatives and samples inside it whose operands are not written
    /// on the way to them (see the module), and keeps them for [`Body::take_hoisted`].
    pub(crate) fn hoist(
        &mut self,
        insts: &[(usize, &Instruction)],
        start: usize,
    ) -> Result<(), Error> {
        let Some(end) = construct_end(insts, start) else {
            return Ok(());
        };
        // A subroutine may write any register.
        if insts[start..=end]
            .iter()
            .any(|(_, i)| matches!(i.opcode, Opcode::Call | Opcode::CallNz))
        {
            return Ok(());
        }
        let writes = |range: &[(usize, &Instruction)]| -> HashSet<RegisterKey> {
            range
                .iter()
                .filter_map(|(_, i)| i.dst.map(|d| dxso::analysis::register_key(d.register)))
                .collect()
        };
        let (item, opcode) = (self.item, self.opcode);
        // Registers written since `start`, and those written by the loops open at `k` (their
        // later iterations come before `k` too).
        let mut before: HashSet<RegisterKey> = HashSet::new();
        let mut loops: Vec<HashSet<RegisterKey>> = Vec::new();
        let mut loop_ends: Vec<usize> = Vec::new();
        for k in start..=end {
            let (it, inst) = insts[k];
            if matches!(inst.opcode, Opcode::Loop | Opcode::Rep) {
                if let Some(e) = construct_end(insts, k) {
                    loops.push(writes(&insts[k..=e]));
                    loop_ends.push(e);
                }
            }
            if needs_quad(inst) && !self.hoisted.contains_key(&it) {
                let movable = inst.srcs.iter().all(|s| {
                    let key = dxso::analysis::register_key(s.register);
                    s.register.ty == RegisterType::Sampler
                        || (s.relative.is_none()
                            && !before.contains(&key)
                            && !loops.iter().any(|w| w.contains(&key)))
                });
                if movable {
                    self.item = it;
                    self.opcode = inst.opcode;
                    self.capture = true;
                    let computed = self.compute(inst);
                    self.capture = false;
                    computed?;
                    if let Some(v) = self.captured.take() {
                        self.hoisted.insert(it, v);
                    }
                }
            }
            if let Some(d) = inst.dst {
                before.insert(dxso::analysis::register_key(d.register));
            }
            while loop_ends.last() == Some(&k) {
                loop_ends.pop();
                loops.pop();
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
    fn operands_written_after_the_instruction_move_but_not_in_a_loop() {
        // r1 is written after the sample in the branch: the sample still moves.
        let text = wgsl(
            "ps_3_0\ndef c0, 0.5, 0, 0, 0\ndefi i0, 2, 0, 0, 0\ndcl_texcoord0 v0\ndcl_2d s0\n\
             mov r1, v0\ntexld r0, v0, s0\nif_gt r0.w, c0.x\ntexld r2, r1, s0\n\
             add r1, r2, c0\nendif\nmov oC0, r1\n",
        );
        let (before, _) = text.split_once("if (").unwrap();
        assert_eq!(before.matches("textureSample(").count(), 2, "{text}");
        // In a loop, the next iteration reads what this one wrote: it stays.
        let text = wgsl(
            "ps_3_0\ndef c0, 0.5, 0, 0, 0\ndefi i0, 2, 0, 0, 0\ndcl_texcoord0 v0\ndcl_2d s0\n\
             mov r1, v0\nrep i0\ntexld r2, r1, s0\nadd r1, r2, c0\nendrep\nmov oC0, r1\n",
        );
        let (before, _) = text.split_once("loop {").unwrap();
        assert!(!before.contains("textureSample("), "{text}");
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
