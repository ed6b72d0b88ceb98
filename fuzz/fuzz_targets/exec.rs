//! The executor on any input: the fuzzer's bytes are either a shader's bytecode (first byte
//! even) or drive dxso-smith to a valid program (odd). What decodes and validates is lowered and
//! run on a few invocations (vertices or quads) with inputs, constants, textures and sampler
//! states from the bytes, under a small instruction budget: never a panic, never a hang (the
//! budget turns any long run into `ExecError::Budget`).
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use dxso_exec::*;
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fn value(u: &mut Unstructured<'_>) -> f32 {
    match u.int_in_range(0u8..=3).unwrap_or(0) {
        0 => f32::from_bits(u.arbitrary().unwrap_or(0)),
        _ => u.int_in_range(-64i32..=64).unwrap_or(0) as f32 / 8.0,
    }
}

fn vec4(u: &mut Unstructured<'_>) -> [f32; 4] {
    [value(u), value(u), value(u), value(u)]
}

fn texture(u: &mut Unstructured<'_>, dim: Dimension) -> Texture {
    let (w, h, d) = match dim {
        Dimension::D2 => (1 + u.int_in_range(0..=4).unwrap_or(0), 1 + u.int_in_range(0..=4).unwrap_or(0), 1),
        Dimension::Cube => (2, 2, 6),
        Dimension::Volume => (2, 2, 2),
    };
    let data: Vec<u8> = (0..w * h * d * 4).map(|_| u.arbitrary().unwrap_or(0)).collect();
    let t = Texture::new(dim, Format::Rgba8Unorm, vec![MipLevel { width: w, height: h, depth: d, data }])
        .expect("sizes match");
    if u.arbitrary().unwrap_or(false) {
        t.with_mip_chain()
    } else {
        t
    }
}

fn sampler(u: &mut Unstructured<'_>, dim: Dimension) -> Sampler {
    let mut s = Sampler::new(Arc::new(texture(u, dim)));
    let names = ["addressu", "addressv", "addressw", "magfilter", "minfilter", "mipfilter", "mipmaplodbias", "maxmiplevel", "bordercolor", "srgbtexture"];
    let values = ["wrap", "mirror", "clamp", "border", "mirroronce", "none", "point", "linear", "1", "-2.5", "0xff00ff00", "true"];
    for _ in 0..u.int_in_range(0..=4).unwrap_or(0) {
        let n = names[u.int_in_range(0..=names.len() - 1).unwrap_or(0)];
        let v = values[u.int_in_range(0..=values.len() - 1).unwrap_or(0)];
        let _ = s.state.set(n, v);
    }
    s.stage.bump_env_mat = vec4(u);
    s.stage.bump_env_lscale = value(u);
    s.stage.bump_env_loffset = value(u);
    s.stage.texture_transform_flags = u.arbitrary().unwrap_or(0);
    s.dimension = Some(dim);
    s
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut u = Unstructured::new(rest);
    let shader = if mode % 2 == 0 {
        let Ok(s) = dxso::decode(rest) else { return };
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
    let plan = if shader.version.is_vertex() {
        VertexShader::with_options(&shader, &options).map(|s| s.plan().clone())
    } else {
        PixelShader::with_options(&shader, &options).map(|s| s.plan().clone())
    };
    let Ok(plan) = plan else { return };
    let mut res = Resources::default();
    res.constants.float = (0..u.int_in_range(0..=40).unwrap_or(0)).map(|_| vec4(&mut u)).collect();
    res.constants.int = (0..16)
        .map(|_| [u.int_in_range(-3..=300).unwrap_or(0), u.arbitrary().unwrap_or(0), u.int_in_range(-3..=3).unwrap_or(1), 0])
        .collect();
    res.constants.bool = (0..16).map(|_| u.arbitrary().unwrap_or(false)).collect();
    for s in &plan.samplers {
        let i = s.index as usize;
        if res.samplers.len() <= i {
            res.samplers.resize(i + 1, Sampler::default());
        }
        res.samplers[i] = sampler(&mut u, s.declared.unwrap_or(Dimension::D2));
    }
    let count = 1 + u.int_in_range(0..=20).unwrap_or(0) as usize;
    let result = if shader.version.is_vertex() {
        let vs = VertexShader::with_options(&shader, &options).expect("lowered above");
        let mut batch = VertexBatch::new(count);
        for i in &plan.inputs {
            batch.set(i.register, (0..count).map(|_| vec4(&mut u)).collect());
        }
        vs.run(&batch, &res)
    } else {
        let ps = PixelShader::with_options(&shader, &options).expect("lowered above");
        let mut batch = QuadBatch::new(count);
        for i in &plan.inputs {
            batch.set(i.register, (0..count * 4).map(|_| vec4(&mut u)).collect());
        }
        batch.coverage = (0..count * 4).map(|_| u.arbitrary().unwrap_or(true)).collect();
        ps.run(&batch, &res)
    };
    if let Ok(out) = result {
        for (_, values) in &out.registers {
            assert_eq!(values.len(), out.count);
        }
    }
});
