//! Every generated shader passes `dxso::validate`, over states covering each area.

use dxso_ffp::d3d::{fog, fvf, light, rs, ta, tci, top, ts, vbf};
use dxso_ffp::{generate, FfpState, Light, ShaderKey, TextureKind};

fn check(state: &FfpState, what: &str) {
    let key = ShaderKey::from_state(state).unwrap_or_else(|e| panic!("{what}: {e}"));
    let g = generate(&key).unwrap_or_else(|e| panic!("{what}: {e}"));
    for (stage, s) in [("vs", &g.vs), ("ps", &g.ps)] {
        let report = dxso::validate(s);
        assert!(report.is_valid(), "{what} {stage}: {report:?}");
    }
}

fn lit_state(types: &[u32]) -> FfpState {
    let mut s = FfpState {
        fvf: fvf::XYZ | fvf::NORMAL | fvf::DIFFUSE | fvf::SPECULAR,
        ..FfpState::default()
    };
    for (i, &ty) in types.iter().enumerate() {
        s.set_light(
            i as u32,
            Light {
                ty,
                ..Light::default()
            },
        );
        s.enable_light(i as u32, true);
    }
    s
}

/// Cases generated per area, counted so the test cannot pass empty.
#[test]
fn every_area_validates() {
    let mut n = 0;
    // Lights of every type, with and without specular, local viewer, normalisation.
    for types in [
        &[][..],
        &[light::POINT],
        &[light::SPOT],
        &[light::DIRECTIONAL],
        &[light::POINT, light::SPOT, light::DIRECTIONAL, 1, 2, 3, 1, 2],
    ] {
        for (spec, local, norm) in [
            (false, false, false),
            (true, true, true),
            (true, false, false),
        ] {
            let mut s = lit_state(types);
            s.set_render_state(rs::SPECULARENABLE, spec as u32);
            s.set_render_state(rs::LOCALVIEWER, local as u32);
            s.set_render_state(rs::NORMALIZENORMALS, norm as u32);
            for src in 0..3 {
                s.set_render_state(rs::DIFFUSEMATERIALSOURCE, src);
                s.set_render_state(rs::AMBIENTMATERIALSOURCE, 2 - src);
                check(
                    &s,
                    &format!("lights {types:?} spec {spec} local {local} src {src}"),
                );
                n += 1;
            }
        }
    }
    // Every colour and alpha op with every argument and modifier.
    for op in top::DISABLE + 1..=top::LERP {
        for arg in [
            ta::DIFFUSE,
            ta::CURRENT,
            ta::TEXTURE,
            ta::TFACTOR,
            ta::SPECULAR,
            ta::TEMP,
            ta::CONSTANT,
        ] {
            for m in [
                0,
                ta::COMPLEMENT,
                ta::ALPHAREPLICATE,
                ta::COMPLEMENT | ta::ALPHAREPLICATE,
            ] {
                let mut s = FfpState::default();
                for stage in 0..3 {
                    s.stages[stage].texture = Some(TextureKind::Flat);
                    s.stages[stage].color_op = op;
                    s.stages[stage].alpha_op = op;
                    s.stages[stage].color_args = [arg | m, arg, ta::CURRENT];
                    s.stages[stage].alpha_args = [ta::TEXTURE, arg | m, ta::DIFFUSE];
                    s.stages[stage].result_arg = if stage == 1 { ta::TEMP } else { ta::CURRENT };
                }
                s.fvf = fvf::XYZ | fvf::DIFFUSE | 0x300;
                check(&s, &format!("op {op} arg {arg:#x}"));
                n += 1;
            }
        }
    }
    // Fog: vertex and table modes, range fog, pre-transformed.
    for table in [fog::NONE, fog::EXP, fog::EXP2, fog::LINEAR] {
        for vertex in [fog::NONE, fog::EXP, fog::EXP2, fog::LINEAR] {
            for (range, position) in [(false, fvf::XYZ), (true, fvf::XYZ), (false, fvf::XYZRHW)] {
                let mut s = FfpState {
                    fvf: position | fvf::DIFFUSE | fvf::SPECULAR,
                    ..FfpState::default()
                };
                s.set_render_state(rs::FOGENABLE, 1);
                s.set_render_state(rs::FOGTABLEMODE, table);
                s.set_render_state(rs::FOGVERTEXMODE, vertex);
                s.set_render_state(rs::RANGEFOGENABLE, range as u32);
                let mut proj = dxso_ffp::state::IDENTITY;
                proj[11] = 1.0;
                proj[15] = 0.0;
                s.set_transform(ts::PROJECTION, proj);
                check(
                    &s,
                    &format!("fog table {table} vertex {vertex} range {range}"),
                );
                n += 1;
            }
        }
    }
    // Texture coordinate generation and transforms.
    for gen in [
        tci::PASSTHRU,
        tci::CAMERASPACENORMAL,
        tci::CAMERASPACEPOSITION,
        tci::CAMERASPACEREFLECTIONVECTOR,
        tci::SPHEREMAP,
    ] {
        for flags in [0, 1, 2, 3, 4, 0x102, 0x103, 0x104] {
            let mut s = FfpState {
                fvf: fvf::XYZ | fvf::NORMAL | 0x100,
                ..FfpState::default()
            };
            s.stages[0].texture = Some(TextureKind::Flat);
            s.stages[0].tex_coord_index = gen | 1;
            s.stages[0].transform_flags = flags;
            check(&s, &format!("texgen {gen:#x} flags {flags:#x}"));
            n += 1;
        }
    }
    // Vertex blending, plain and indexed.
    for (position, weights) in [
        (fvf::XYZB1, 1),
        (fvf::XYZB2, 2),
        (fvf::XYZB3, 3),
        (fvf::XYZB4, 3),
    ] {
        for blend in [vbf::WEIGHTS0, vbf::WEIGHTS1, vbf::WEIGHTS2, vbf::WEIGHTS3] {
            for indexed in [false, true] {
                let mut s = lit_state(&[light::DIRECTIONAL]);
                s.fvf = position
                    | fvf::NORMAL
                    | fvf::DIFFUSE
                    | if indexed { fvf::LASTBETA_UBYTE4 } else { 0 };
                let have = weights - u32::from(indexed && position != fvf::XYZB4);
                if blend != vbf::WEIGHTS0 && blend > have {
                    continue;
                }
                s.set_render_state(rs::VERTEXBLEND, blend);
                s.set_render_state(rs::INDEXEDVERTEXBLENDENABLE, indexed as u32);
                check(&s, &format!("blend {blend} fvf {:#x}", s.fvf));
                n += 1;
            }
        }
    }
    // Point size from the vertex and by distance.
    let mut s = FfpState {
        fvf: fvf::XYZ | fvf::PSIZE,
        ..FfpState::default()
    };
    s.set_render_state(rs::POINTSCALEENABLE, 1);
    check(&s, "point scale");
    n += 1;
    assert!(n > 800, "{n} cases");
}

#[test]
fn hostile_states_are_errors() {
    let mut s = FfpState {
        fvf: 0x1,
        ..FfpState::default()
    };
    assert!(ShaderKey::from_state(&s).is_err());
    s.fvf = fvf::XYZ;
    s.stages[0].color_op = 99;
    assert!(ShaderKey::from_state(&s).is_err());
    s.stages[0].color_op = top::MODULATE;
    s.stages[0].color_args[1] = 0x47;
    assert!(ShaderKey::from_state(&s).is_err());
    let mut s = lit_state(&[1; 9]);
    assert!(matches!(
        ShaderKey::from_state(&s),
        Err(dxso_ffp::FfpError::TooManyLights(9))
    ));
    s.enable_light(8, false);
    s.lights.get_mut(&0).unwrap().ty = 7;
    assert!(ShaderKey::from_state(&s).is_err());
}
