//! What the executor's fuzz targets (`exec`, `jit`) build from the fuzzer's bytes: values,
//! textures and sampler states, and the constants and samplers a plan reads.

use arbitrary::Unstructured;
use dxso_exec::plan::Plan;
use dxso_exec::*;
use std::sync::Arc;

/// A float: any bits one time in four, otherwise a small multiple of 1/8.
pub fn value(u: &mut Unstructured<'_>) -> f32 {
    match u.int_in_range(0u8..=3).unwrap_or(0) {
        0 => f32::from_bits(u.arbitrary().unwrap_or(0)),
        _ => u.int_in_range(-64i32..=64).unwrap_or(0) as f32 / 8.0,
    }
}

/// Four of [`value`].
pub fn vec4(u: &mut Unstructured<'_>) -> [f32; 4] {
    [value(u), value(u), value(u), value(u)]
}

fn texture(u: &mut Unstructured<'_>, dim: Dimension) -> Texture {
    let (w, h, d) = match dim {
        Dimension::D2 => (
            1 + u.int_in_range(0..=4).unwrap_or(0),
            1 + u.int_in_range(0..=4).unwrap_or(0),
            1,
        ),
        Dimension::Cube => (2, 2, 6),
        Dimension::Volume => (2, 2, 2),
    };
    let data: Vec<u8> = (0..w * h * d * 4)
        .map(|_| u.arbitrary().unwrap_or(0))
        .collect();
    let t = Texture::new(
        dim,
        Format::Rgba8Unorm,
        vec![MipLevel {
            width: w,
            height: h,
            depth: d,
            data,
        }],
    )
    .expect("sizes match");
    if u.arbitrary().unwrap_or(false) {
        t.with_mip_chain()
    } else {
        t
    }
}

fn sampler(u: &mut Unstructured<'_>, dim: Dimension) -> Sampler {
    let mut s = Sampler::new(Arc::new(texture(u, dim)));
    let names = [
        "addressu",
        "addressv",
        "addressw",
        "magfilter",
        "minfilter",
        "mipfilter",
        "mipmaplodbias",
        "maxmiplevel",
        "bordercolor",
        "srgbtexture",
    ];
    let values = [
        "wrap",
        "mirror",
        "clamp",
        "border",
        "mirroronce",
        "none",
        "point",
        "linear",
        "1",
        "-2.5",
        "0xff00ff00",
        "true",
    ];
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

/// Values for every input register `plan` loads, `invocations` of each (for `run_plan`).
pub fn attributes(u: &mut Unstructured<'_>, plan: &Plan, invocations: usize) -> Vec<Attribute> {
    plan.inputs
        .iter()
        .map(|i| Attribute {
            register: i.register,
            values: (0..invocations).map(|_| vec4(u)).collect(),
        })
        .collect()
}

/// Constants (float, int with loop counts near the limits, bool) and a sampler for every
/// sampler `plan` reads.
pub fn resources(u: &mut Unstructured<'_>, plan: &Plan) -> Resources {
    let mut res = Resources::default();
    res.constants.float = (0..u.int_in_range(0..=40).unwrap_or(0))
        .map(|_| vec4(u))
        .collect();
    res.constants.int = (0..16)
        .map(|_| {
            [
                u.int_in_range(-3..=300).unwrap_or(0),
                u.arbitrary().unwrap_or(0),
                u.int_in_range(-3..=3).unwrap_or(1),
                0,
            ]
        })
        .collect();
    res.constants.bool = (0..16).map(|_| u.arbitrary().unwrap_or(false)).collect();
    for s in &plan.samplers {
        let i = s.index as usize;
        if res.samplers.len() <= i {
            res.samplers.resize(i + 1, Sampler::default());
        }
        res.samplers[i] = sampler(u, s.declared.unwrap_or(Dimension::D2));
    }
    res
}
