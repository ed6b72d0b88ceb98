//! FNA's stock effects through the runtime view and the executor: for every technique and
//! every shader permutation (`ShaderIndex`), the vertex shader the pass picks, with the
//! registers the runtime fills, transforms a vertex by the world-view-projection matrix the
//! test sets, and the pixel shader runs on what it outputs.

use dxso::{DeclUsage, Item, RegisterType};
use dxso_exec::{
    Constants, InputRegister, OutputRegister, PixelShader, QuadBatch, Resources, Sampler,
    VertexBatch, VertexShader,
};
use dxso_fx::runtime::written;
use dxso_fx::{Effect, Registers, Runtime, ShaderView};

/// Scale (2, 3, 4) and translate (1, 2, 3), row-vector convention: `pos * M`.
const M: [f32; 16] = [
    2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 1.0, 2.0, 3.0, 1.0,
];
const POSITIONS: [[f32; 4]; 3] = [
    [1.0, 2.0, 3.0, 1.0],
    [0.0, 0.0, 0.0, 1.0],
    [-1.0, 0.5, 2.0, 1.0],
];
const DIFFUSE: [f32; 4] = [0.25, 0.5, 0.75, 1.0];

fn transform(p: [f32; 4]) -> [f32; 4] {
    std::array::from_fn(|c| (0..4).map(|k| p[k] * M[k * 4 + c]).sum())
}

fn constants(r: &Registers) -> Constants {
    let floats = written(&r.floats);
    let mut float = vec![[0.0; 4]; floats.last().map_or(0, |(i, _)| i + 1)];
    for (i, v) in floats {
        float[i] = [v[0], v[1], v[2], v[3]];
    }
    let ints = written(&r.ints);
    let mut int = vec![[0; 4]; ints.last().map_or(0, |(i, _)| i + 1)];
    for (i, v) in ints {
        int[i] = [v[0], v[1], v[2], v[3]];
    }
    let mut bool = vec![false; r.bools.len()];
    for (i, v) in written(&r.bools) {
        bool[i] = v[0];
    }
    Constants { float, int, bool }
}

/// The vertex attribute a declared usage gets.
fn attribute(usage: Option<DeclUsage>, vertex: usize) -> [f32; 4] {
    match usage {
        Some(DeclUsage::Position) => POSITIONS[vertex],
        Some(DeclUsage::Normal) => [0.0, 0.0, 1.0, 0.0],
        Some(DeclUsage::TexCoord) => [0.25, 0.75, 0.0, 1.0],
        Some(DeclUsage::Color) => [1.0, 1.0, 1.0, 1.0],
        Some(DeclUsage::BlendWeight) => [1.0, 0.0, 0.0, 0.0],
        // Bone 0 for every weight.
        _ => [0.0; 4],
    }
}

fn resources(view: &ShaderView) -> Resources {
    Resources {
        constants: constants(&view.registers),
        samplers: vec![Sampler::default(); 16],
    }
}

/// Runs the pass's shaders; returns the number of vertices checked.
fn run_pass(effect: &Effect, rt: &Runtime, what: &str) -> usize {
    let view = rt.pass(0, 0).unwrap_or_else(|e| panic!("{what}: {e}"));
    let vs_view = view
        .vertex_shader
        .as_ref()
        .unwrap_or_else(|| panic!("{what}: no vertex shader"));
    assert!(
        vs_view.warnings.is_empty(),
        "{what}: {:?}",
        vs_view.warnings
    );
    let vs_model = &effect.shader(vs_view.shader.source).unwrap().shader;
    let vs = VertexShader::new(vs_model).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut batch = VertexBatch::new(POSITIONS.len());
    for item in &vs_model.items {
        let Item::Instruction(i) = item else { continue };
        let (Some(dcl), Some(dst)) = (i.dcl(), i.dst.as_ref()) else {
            continue;
        };
        if dst.register.ty == RegisterType::Input {
            let values = (0..POSITIONS.len())
                .map(|v| attribute(dcl.decl_usage(), v))
                .collect();
            batch.set(InputRegister::V(dst.register.num as u8), values);
        }
    }
    let out = vs
        .run(&batch, &resources(vs_view))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let pos = out
        .get(OutputRegister::Pos)
        .unwrap_or_else(|| panic!("{what}: no oPos"));
    for (v, &p) in POSITIONS.iter().enumerate() {
        let want = transform(p);
        let got = pos[v];
        let close = (0..4).all(|c| (got[c] - want[c]).abs() <= 1e-5 * want[c].abs().max(1.0));
        assert!(
            close,
            "{what}: vertex {v} {p:?} -> {got:?}, the matrix says {want:?}"
        );
    }

    // The pixel shader on what the vertex shader wrote (colours to v#, coordinates to t#).
    let ps_view = view
        .pixel_shader
        .as_ref()
        .unwrap_or_else(|| panic!("{what}: no pixel shader"));
    assert!(
        ps_view.warnings.is_empty(),
        "{what}: {:?}",
        ps_view.warnings
    );
    let ps = PixelShader::new(&effect.shader(ps_view.shader.source).unwrap().shader)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut quad = QuadBatch::new(1);
    for (reg, values) in &out.registers {
        let input = match *reg {
            OutputRegister::Color(n) => InputRegister::V(n),
            OutputRegister::TexCoord(n) => InputRegister::T(n),
            _ => continue,
        };
        quad.set(input, (0..4).map(|k| values[k % values.len()]).collect());
    }
    let pixels = ps
        .run(&quad, &resources(ps_view))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let color = pixels
        .get(OutputRegister::Target(0))
        .unwrap_or_else(|| panic!("{what}: no oC0"));
    assert!(
        color.iter().flatten().all(|c| c.is_finite()),
        "{what}: {color:?}"
    );
    POSITIONS.len()
}

fn identity_bones() -> Vec<f32> {
    let bone = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    bone.iter().copied().cycle().take(72 * 12).collect()
}

const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

#[test]
fn stock_effects_transform_as_the_matrix_says() {
    let Some(dir) = dxso_corpus::corpus_or_skip("stock_effects_transform_as_the_matrix_says")
    else {
        return;
    };
    let stock = [
        "AlphaTestEffect",
        "BasicEffect",
        "DualTextureEffect",
        "EnvironmentMapEffect",
        "SkinnedEffect",
        "SpriteEffect",
    ];
    let (mut permutations, mut vertices) = (0, 0);
    for name in stock {
        let bytes = std::fs::read(dir.join(format!("effects/fna_{name}.fxb"))).unwrap();
        let effect = Effect::parse(&bytes).unwrap();
        // Every value ShaderIndex can take: the length of the index tables.
        let count = ["VSIndices", "PSIndices"]
            .iter()
            .filter_map(|n| effect.parameter(n))
            .map(|(_, p)| p.ty.elements)
            .max()
            .unwrap_or(1);
        for t in 0..effect.techniques.len() {
            assert_eq!(t, 0, "{name}: the stock effects have one technique");
            for index in 0..count {
                let mut rt = Runtime::new(&effect);
                let matrix = if name == "SpriteEffect" {
                    "MatrixTransform"
                } else {
                    "WorldViewProj"
                };
                rt.set_floats(matrix, &M).unwrap();
                const IDENTITY3: [f32; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
                for (p, v) in [
                    ("World", &IDENTITY[..]),
                    ("WorldInverseTranspose", &IDENTITY3[..]),
                ] {
                    if effect.parameter(p).is_some() {
                        rt.set_floats(p, v).unwrap();
                    }
                }
                if effect.parameter("Bones").is_some() {
                    rt.set_floats("Bones", &identity_bones()).unwrap();
                }
                // Lights that point somewhere (the defaults are zero vectors, which lighting
                // normalizes to NaN, as it would on a GPU).
                let lighting: [(&str, &[f32]); 15] = [
                    ("DiffuseColor", &DIFFUSE),
                    ("SpecularColor", &[1.0, 1.0, 1.0]),
                    ("SpecularPower", &[16.0]),
                    ("EyePosition", &[0.0, 0.0, 5.0]),
                    ("DirLight0Direction", &[0.0, 0.0, -1.0]),
                    ("DirLight1Direction", &[0.0, -1.0, 0.0]),
                    ("DirLight2Direction", &[-1.0, 0.0, 0.0]),
                    ("DirLight0DiffuseColor", &[1.0, 1.0, 1.0]),
                    ("DirLight1DiffuseColor", &[0.5, 0.5, 0.5]),
                    ("DirLight2DiffuseColor", &[0.25, 0.25, 0.25]),
                    ("DirLight0SpecularColor", &[1.0, 1.0, 1.0]),
                    ("DirLight1SpecularColor", &[0.5, 0.5, 0.5]),
                    ("DirLight2SpecularColor", &[0.25, 0.25, 0.25]),
                    ("EnvironmentMapAmount", &[0.5]),
                    ("FresnelFactor", &[1.0]),
                ];
                for (p, v) in lighting {
                    if effect.parameter(p).is_some() {
                        rt.set_floats(p, v).unwrap();
                    }
                }
                if effect.parameter("ShaderIndex").is_some() {
                    rt.set_ints("ShaderIndex", &[index as i32]).unwrap();
                }
                vertices += run_pass(&effect, &rt, &format!("{name} ShaderIndex {index}"));
                permutations += 1;
            }
        }
    }
    println!("FNA stock effects: {permutations} shader permutations, {vertices} vertices transformed as the matrix says");
    assert_eq!(permutations, 8 + 32 + 4 + 16 + 18 + 1);
}

#[test]
fn basic_effect_colour_reaches_the_pixel() {
    // ShaderIndex 0 and 1 (no lighting, texture or vertex colour; with and without fog): the
    // pixel is the diffuse colour (the fog vector is zero, so no fog is applied).
    let Some(dir) = dxso_corpus::corpus_or_skip("basic_effect_colour_reaches_the_pixel") else {
        return;
    };
    let effect =
        Effect::parse(&std::fs::read(dir.join("effects/fna_BasicEffect.fxb")).unwrap()).unwrap();
    for index in [0, 1] {
        let mut rt = Runtime::new(&effect);
        rt.set_floats("WorldViewProj", &M).unwrap();
        rt.set_floats("DiffuseColor", &DIFFUSE).unwrap();
        rt.set_ints("ShaderIndex", &[index]).unwrap();
        let view = rt.pass(0, 0).unwrap();
        let (vsv, psv) = (view.vertex_shader.unwrap(), view.pixel_shader.unwrap());
        let vs = VertexShader::new(&effect.shader(vsv.shader.source).unwrap().shader).unwrap();
        let mut batch = VertexBatch::new(1);
        batch.set(InputRegister::V(0), vec![POSITIONS[0]]);
        let out = vs.run(&batch, &resources(&vsv)).unwrap();
        let ps = PixelShader::new(&effect.shader(psv.shader.source).unwrap().shader).unwrap();
        let mut quad = QuadBatch::new(1);
        for (reg, values) in &out.registers {
            let input = match *reg {
                OutputRegister::Color(n) => InputRegister::V(n),
                OutputRegister::TexCoord(n) => InputRegister::T(n),
                _ => continue,
            };
            quad.set(input, vec![values[0]; 4]);
        }
        let pixels = ps.run(&quad, &resources(&psv)).unwrap();
        let c = pixels.get(OutputRegister::Target(0)).unwrap()[0];
        assert!(
            (0..4).all(|k| (c[k] - DIFFUSE[k]).abs() < 1e-6),
            "ShaderIndex {index}: pixel {c:?}, diffuse {DIFFUSE:?}"
        );
    }
}
