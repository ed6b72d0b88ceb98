//! Sample fixed-function states for the tests of back ends (translation, devices): one or
//! more from every area the generator covers.

use crate::d3d::{fvf, light, rs, ta, tci, top, vbf};
use crate::{FfpState, Light, TextureKind};

/// Named states covering every area of the generator: the default, lights of each type with
/// specular, range fog, sphere-map and reflection-vector texture coordinates with a transform,
/// table fog, every D3DTOP on two textured stages with modifiers, TEMP and every argument,
/// indexed vertex blending, point scale with a PSIZE component, and bump mapping into a
/// projected stage. The translation and Vulkan differential tests run their shaders.
pub fn states() -> Vec<(String, FfpState)> {
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
    let mut points = FfpState {
        fvf: fvf::XYZ | fvf::PSIZE | fvf::DIFFUSE,
        ..FfpState::default()
    };
    points.set_render_state(rs::POINTSCALEENABLE, 1);
    points.set_render_state(rs::POINTSCALE_B, 1.0f32.to_bits());
    points.set_render_state(rs::LIGHTING, 0);
    out.push(("point scale".into(), points));
    let mut bump = FfpState {
        fvf: fvf::XYZ | fvf::DIFFUSE | 0x200,
        ..FfpState::default()
    };
    bump.set_render_state(rs::LIGHTING, 0);
    for n in 0..2 {
        bump.stages[n].texture = Some(TextureKind::Flat);
    }
    bump.stages[0].color_op = top::BUMPENVMAPLUMINANCE;
    bump.stages[1].tex_coord_index = 1;
    bump.stages[1].transform_flags = 0x103;
    out.push(("bump mapping into a projected stage".into(), bump));
    out
}
