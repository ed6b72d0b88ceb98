//! Generated shaders translate through dxso-naga into validated naga modules (the path to
//! Vulkan and lavapipe), over a sample of states from every area.

use dxso_ffp::d3d::{fvf, light, rs, ta, tci, top, vbf};
use dxso_ffp::{generate, FfpState, Light, ShaderKey, TextureKind};

fn states() -> Vec<(String, FfpState)> {
    let mut out = Vec::new();
    out.push(("default".to_string(), FfpState::default()));
    let mut lit = FfpState {
        fvf: fvf::XYZ | fvf::NORMAL | fvf::DIFFUSE | fvf::SPECULAR | 0x100,
        ..FfpState::default()
    };
    for (i, ty) in [light::POINT, light::SPOT, light::DIRECTIONAL]
        .into_iter()
        .enumerate()
    {
        lit.set_light(
            i as u32,
            Light {
                ty,
                ..Light::default()
            },
        );
        lit.enable_light(i as u32, true);
    }
    lit.set_render_state(rs::SPECULARENABLE, 1);
    lit.set_render_state(rs::FOGENABLE, 1);
    lit.set_render_state(rs::FOGVERTEXMODE, 2);
    lit.set_render_state(rs::RANGEFOGENABLE, 1);
    lit.stages[0].texture = Some(TextureKind::Flat);
    lit.stages[0].tex_coord_index = tci::SPHEREMAP;
    lit.stages[0].transform_flags = 0x103;
    out.push(("lit, fogged, sphere-mapped".into(), lit.clone()));
    lit.set_render_state(rs::FOGTABLEMODE, 3);
    lit.stages[0].tex_coord_index = tci::CAMERASPACEREFLECTIONVECTOR;
    out.push(("table fog, reflection vector".into(), lit));
    for op in top::SELECTARG1..=top::LERP {
        let mut s = FfpState {
            fvf: fvf::XYZRHW | fvf::DIFFUSE | fvf::SPECULAR | 0x200,
            ..FfpState::default()
        };
        for n in 0..2 {
            s.stages[n].texture = Some(TextureKind::Flat);
            s.stages[n].color_op = op;
            s.stages[n].alpha_op = op;
            s.stages[n].color_args = [ta::TFACTOR, ta::TEXTURE | ta::COMPLEMENT, ta::TEMP];
            s.stages[n].alpha_args = [ta::CONSTANT, ta::SPECULAR, ta::CURRENT | ta::ALPHAREPLICATE];
        }
        s.stages[0].result_arg = ta::TEMP;
        out.push((format!("op {op}"), s));
    }
    let mut blend = FfpState {
        fvf: fvf::XYZB3 | fvf::LASTBETA_UBYTE4 | fvf::NORMAL,
        ..FfpState::default()
    };
    blend.set_render_state(rs::VERTEXBLEND, vbf::WEIGHTS2);
    blend.set_render_state(rs::INDEXEDVERTEXBLENDENABLE, 1);
    blend.enable_light(0, true);
    out.push(("indexed blending".into(), blend));
    out
}

#[test]
fn generated_shaders_translate_to_valid_naga_modules() {
    let options = dxso_naga::Options::default();
    let mut n = 0;
    for (name, state) in states() {
        let key = ShaderKey::from_state(&state).unwrap_or_else(|e| panic!("{name}: {e}"));
        let g = generate(&key).unwrap();
        for (stage, shader) in [("vs", &g.vs), ("ps", &g.ps)] {
            dxso_naga::translate(shader, &options)
                .unwrap_or_else(|e| panic!("{name} {stage}: {e}"));
            n += 1;
        }
    }
    assert!(n >= 56, "{n} shaders");
}
