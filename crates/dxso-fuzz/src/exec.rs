//! The executor on any input: the fuzzer's bytes are either a shader's bytecode (first byte
//! even; zero-padded to whole DWORDs) or drive dxso-smith to a valid program (odd). What decodes and validates is lowered and
//! run on a few invocations (vertices or quads) with inputs, constants, textures and sampler
//! states from the bytes, under a small instruction budget: never a panic, never a hang (the
//! budget turns any long run into `ExecError::Budget`).

use crate::exec_inputs::{resources, vec4};
use arbitrary::{Arbitrary, Unstructured};
use dxso_exec::*;

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut u = Unstructured::new(rest);
    let shader = if mode % 2 == 0 {
        let Ok(s) = dxso::decode(&crate::input::padded(rest)) else {
            return;
        };
        s
    } else {
        let Ok(p) = dxso_smith::ConfiguredShader::arbitrary(&mut u) else {
            return;
        };
        p.shader.shader().clone()
    };
    let options = Options {
        budget: 20_000,
        lanes: [8, 16, 32, 64][(mode as usize / 2) % 4],
        zero_times_anything: mode & 0x10 != 0,
        ..Options::default()
    };
    // Lowered once, by the shader object that runs it.
    let result = if shader.version.is_vertex() {
        let Ok(vs) = VertexShader::with_options(&shader, &options) else {
            return;
        };
        let res = resources(&mut u, vs.plan());
        let count = 1 + u.int_in_range(0..=20).unwrap_or(0) as usize;
        let mut batch = VertexBatch::new(count);
        for i in &vs.plan().inputs {
            batch.set(i.register, (0..count).map(|_| vec4(&mut u)).collect());
        }
        vs.run(&batch, &res)
    } else {
        let Ok(ps) = PixelShader::with_options(&shader, &options) else {
            return;
        };
        let res = resources(&mut u, ps.plan());
        let count = 1 + u.int_in_range(0..=20).unwrap_or(0) as usize;
        let mut batch = QuadBatch::new(count);
        for i in &ps.plan().inputs {
            batch.set(i.register, (0..count * 4).map(|_| vec4(&mut u)).collect());
        }
        batch.coverage = (0..count * 4)
            .map(|_| u.arbitrary().unwrap_or(true))
            .collect();
        ps.run(&batch, &res)
    };
    if let Ok(out) = result {
        for (_, values) in &out.registers {
            assert_eq!(values.len(), out.count);
        }
    }
}
