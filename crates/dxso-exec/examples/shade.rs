//! Runs a vertex shader over a few vertices and a textured pixel shader over one 2x2 quad:
//! `cargo run -p dxso-exec --example shade`.

use dxso_exec::*;
use std::sync::Arc;

const VS: &str = "
vs_3_0
dcl_position v0
dcl_texcoord v1
dcl_position o0
dcl_texcoord o1
m4x4 o0, v0, c0
mov o1, v1
";

const PS: &str = "
ps_3_0
dcl_texcoord v0.xy
dcl_2d s0
texld r0, v0, s0
mul oC0, r0, c0
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Vertices: a scale-by-two transform.
    let vs = VertexShader::new(&dxso_text::parse(VS)?)?;
    let mut vertices = VertexBatch::new(3);
    vertices.set(
        InputRegister::V(0),
        vec![
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
        ],
    );
    vertices.set(
        InputRegister::V(1),
        vec![
            [0.0, 0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
        ],
    );
    let mut res = Resources::default();
    res.constants.float = vec![
        [2.0, 0.0, 0.0, 0.0],
        [0.0, 2.0, 0.0, 0.0],
        [0.0, 0.0, 2.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let out = vs.run(&vertices, &res)?;
    for (register, values) in &out.registers {
        println!("{register}: {values:?}");
    }

    // One quad sampling a 2x2 texture with bilinear filtering, tinted by c0.
    let ps = PixelShader::new(&dxso_text::parse(PS)?)?;
    let texels = vec![
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
    ];
    let mut sampler = Sampler::new(Arc::new(Texture::new_2d(Format::Rgba8Unorm, 2, 2, texels)?));
    sampler.state.set("magfilter", "linear")?;
    let mut quad = QuadBatch::new(1);
    quad.set(
        InputRegister::V(0),
        vec![
            [0.25, 0.25, 0.0, 0.0],
            [0.75, 0.25, 0.0, 0.0],
            [0.25, 0.75, 0.0, 0.0],
            [0.75, 0.75, 0.0, 0.0],
        ],
    );
    let res = Resources {
        constants: Constants {
            float: vec![[1.0, 1.0, 1.0, 0.5]],
            ..Constants::default()
        },
        samplers: vec![sampler],
    };
    let out = ps.run(&quad, &res)?;
    println!(
        "oC0 per pixel: {:?}",
        out.get(OutputRegister::Target(0)).unwrap()
    );
    Ok(())
}
