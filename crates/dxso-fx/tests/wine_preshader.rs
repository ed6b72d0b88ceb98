//! Expression and preshader results against the native d3dx9 answers Wine's tests record
//! (`dlls/d3dx9_36/tests/effect.c`: `test_effect_preshader_op_expected`,
//! `test_effect_preshader_ops`, `test_effect_preshader`, `test_effect_out_of_bounds_selector`,
//! `test_effect_states`). The expected values are data here; the comparison is Wine's:
//! distance in units in the last place, with -0 equal to +0.

use dxso_fx::runtime::{Numbers, PassView, StateSource, StateValue};
use dxso_fx::{Effect, Runtime};

fn load(name: &str) -> Option<Effect> {
    let dir = dxso_corpus::corpus_or_skip(name)?;
    let bytes = std::fs::read(dir.join("effects").join(name)).expect("read effect");
    Some(Effect::parse(&bytes).expect("parse effect"))
}

/// Wine's `compare_float`: ULP distance of the sign-magnitude orderings.
fn ulps_apart(a: u32, b: u32) -> u64 {
    let key = |x: u32| {
        let i = x as i32;
        if i < 0 {
            (i32::MIN as i64) - i as i64
        } else {
            i as i64
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

fn floats(v: &PassView, name: &str, index: u32) -> Vec<f32> {
    let s = v
        .states
        .iter()
        .find(|s| s.name == name && s.index == index)
        .unwrap_or_else(|| panic!("no state {name}[{index}]"));
    match &s.value {
        Ok(StateValue::Numbers(Numbers::Floats(f))) => f.clone(),
        other => panic!("{name}[{index}]: expected floats, found {other:?}"),
    }
}

fn ints(v: &PassView, name: &str, index: u32) -> Vec<i32> {
    let s = v
        .states
        .iter()
        .find(|s| s.name == name && s.index == index)
        .unwrap_or_else(|| panic!("no state {name}[{index}]"));
    match &s.value {
        Ok(StateValue::Numbers(Numbers::Ints(f))) => f.clone(),
        other => panic!("{name}[{index}]: expected ints, found {other:?}"),
    }
}

/// Counts checks met and lists the misses.
#[derive(Default)]
struct Tally {
    met: usize,
    total: usize,
    misses: Vec<String>,
}

impl Tally {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.total += 1;
        if ok {
            self.met += 1;
        } else {
            self.misses.push(what());
        }
    }

    fn float(&mut self, what: &str, got: f32, expected: u32, ulps: u64) {
        let d = ulps_apart(got.to_bits(), expected);
        self.check(d <= ulps, || {
            format!(
                "{what}: expected {expected:#010x}, got {:#010x} ({got})",
                got.to_bits()
            )
        });
    }

    fn finish(self, name: &str) {
        println!("{name}: {}/{} native answers met", self.met, self.total);
        assert!(
            self.misses.is_empty(),
            "{name}: {} of {} missed:\n{}",
            self.misses.len(),
            self.total,
            self.misses.join("\n")
        );
    }
}

/// `test_effect_preshader_op_expected`: the states of pass p0 of the preshader effect, for the
/// default parameter values (x86_64 answers of sin and cos).
const OP_EXPECTED: [(&str, [u32; 4], u64); 19] = [
    (
        "1 / op",
        [0x7f800000, 0xff800000, 0xbee8ba2e, 0x00200000],
        0,
    ),
    ("rsq", [0x7f800000, 0x7f800000, 0x3f2c985c, 0x1f800001], 1),
    ("mul", [0x00000000, 0x80000000, 0x40d33334, 0x7f800000], 0),
    ("add", [0x3f800000, 0x40000000, 0xc0a66666, 0x7f7fffff], 0),
    ("lt", [0x3f800000, 0x3f800000, 0x00000000, 0x00000000], 0),
    ("ge", [0x00000000, 0x00000000, 0x3f800000, 0x3f800000], 0),
    ("neg", [0x80000000, 0x00000000, 0x400ccccd, 0xff7fffff], 0),
    ("rcp", [0x7f800000, 0xff800000, 0xbee8ba2e, 0x00200000], 0),
    ("frac", [0x00000000, 0x00000000, 0x3f4ccccc, 0x00000000], 0),
    ("min", [0x00000000, 0x80000000, 0xc0400000, 0x40800000], 0),
    ("max", [0x3f800000, 0x40000000, 0xc00ccccd, 0x7f7fffff], 0),
    ("sin", [0x00000000, 0x80000000, 0xbf4ef99e, 0xbf0599b3], 0),
    ("cos", [0x3f800000, 0x3f800000, 0xbf16a803, 0x3f5a5f96], 0),
    (
        "den mul",
        [0x7f800000, 0xff800000, 0xbb94f209, 0x000051ec],
        0,
    ),
    ("dot", [0x00000000, 0x7f800000, 0x41f00000, 0x00000000], 0),
    ("prec", [0x2b8cbccc, 0x2c0cbccc, 0xac531800, 0x00000000], 0),
    ("dotswiz", [0xc00ccccd, 0xc0d33334, 0xc10ccccd, 0], 0),
    ("reladdr", [0xc00ccccd, 0x3f800000, 0, 0x41200000], 0),
    ("reladdr2", [0, 0, 0x447ac000, 0x40000000], 0),
];

fn light_rows(view: &PassView, tally: &mut Tally, prefix: &str) {
    for (i, (name, expected, ulps)) in OP_EXPECTED.iter().enumerate() {
        let state = match i {
            0..=7 => "LightDiffuse",
            8..=15 => "LightAmbient",
            _ => "LightSpecular",
        };
        let got = floats(view, state, (i % 8) as u32);
        for (j, &e) in expected.iter().enumerate() {
            tally.float(&format!("{prefix}{name} component {j}"), got[j], e, *ulps);
        }
    }
}

/// `test_effect_preshader_fvect_v`: vertex shader c0..c33 after Begin/BeginPass(0) with
/// g_Pos2 = (28, 29, 30, 31).
const FVECT_V: [[f32; 4]; 34] = [
    [0.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0, 0.0],
    [1.0, 2.0, 3.0, 0.0],
    [4.0, 0.0, 0.0, 0.0],
    [5.0, 6.0, 7.0, 8.0],
    [1.0, 2.0, 3.0, 0.0],
    [4.0, 0.0, 0.0, 0.0],
    [5.0, 6.0, 7.0, 8.0],
    [9.0, 10.0, 11.0, 0.0],
    [12.0, 0.0, 0.0, 0.0],
    [13.0, 14.0, 15.0, 16.0],
    [11.0, 12.0, 13.0, 0.0],
    [21.0, 22.0, 23.0, 0.0],
    [31.0, 32.0, 33.0, 0.0],
    [41.0, 42.0, 43.0, 0.0],
    [11.0, 21.0, 31.0, 0.0],
    [12.0, 22.0, 32.0, 0.0],
    [13.0, 23.0, 33.0, 0.0],
    [14.0, 24.0, 34.0, 0.0],
    [11.0, 12.0, 13.0, 14.0],
    [21.0, 22.0, 23.0, 24.0],
    [31.0, 32.0, 33.0, 34.0],
    [11.0, 21.0, 31.0, 41.0],
    [12.0, 22.0, 32.0, 42.0],
    [13.0, 23.0, 33.0, 43.0],
    [9.0, 10.0, 11.0, 0.0],
    [12.0, 0.0, 0.0, 0.0],
    [13.0, 14.0, 15.0, 16.0],
    [92.0, 0.0, 0.0, 0.0],
    [93.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0, 0.0],
    [91.0, 0.0, 0.0, 0.0],
    [4.0, 5.0, 6.0, 7.0],
];

/// `test_effect_preshader_fvect_p`: pixel shader c0..c13.
const FVECT_P: [[f32; 4]; 14] = [
    [11.0, 21.0, 0.0, 0.0],
    [12.0, 22.0, 0.0, 0.0],
    [13.0, 23.0, 0.0, 0.0],
    [11.0, 12.0, 0.0, 0.0],
    [21.0, 22.0, 0.0, 0.0],
    [31.0, 32.0, 0.0, 0.0],
    [11.0, 12.0, 0.0, 0.0],
    [21.0, 22.0, 0.0, 0.0],
    [11.0, 21.0, 0.0, 0.0],
    [12.0, 22.0, 0.0, 0.0],
    [11.0, 12.0, 13.0, 0.0],
    [21.0, 22.0, 23.0, 0.0],
    [11.0, 21.0, 31.0, 0.0],
    [12.0, 22.0, 32.0, 0.0],
];

/// `test_effect_preshader_bconsts`: pixel shader b0..b5.
const BCONSTS: [bool; 6] = [true, false, true, false, true, true];

fn sampler_filters(view: &dxso_fx::ShaderView, register: u32) -> (i32, i32) {
    let b = view
        .samplers
        .iter()
        .find(|b| b.register == register)
        .unwrap_or_else(|| panic!("no sampler s{register}"));
    // The value the device receives (MagFilter is a float expression, set as an integer).
    let get = |name: &str| {
        b.states
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.device)
            .map_or(-1, |d| d as i32)
    };
    (get("MinFilter"), get("MagFilter"))
}

/// The `def c0` value of a shader (the three `vs_arr` shaders define 1, 2 and 3).
fn def_c0(effect: &Effect, view: &PassView) -> Option<f32> {
    let s = view.states.iter().find(|s| s.name == "VertexShader")?;
    let Ok(StateValue::Shader(Some(r))) = &s.value else {
        return None;
    };
    let shader = effect.shader(r.source)?;
    shader
        .shader
        .instructions()
        .find_map(|i| i.extra.def_floats())
        .map(|d| d[0])
}

#[test]
fn preshader_effect_matches_native() {
    let Some(effect) = load("wine_test_effect_preshader_effect_blob.fxb") else {
        return;
    };
    let mut rt = Runtime::new(&effect);
    rt.set_floats("g_Pos2", &[28.0, 29.0, 30.0, 31.0]).unwrap();
    let view = rt.pass(0, 0).unwrap();
    let mut t = Tally::default();

    light_rows(&view, &mut t, "");

    let vs = view
        .vertex_shader
        .as_ref()
        .expect("pass p0 has a vertex shader");
    for (r, e) in FVECT_V.iter().enumerate() {
        let got = vs.registers.floats.register(r);
        t.check(vs.registers.floats.is_written(r) && got == e, || {
            format!("vertex c{r}: expected {e:?}, got {got:?}")
        });
    }
    let ps = view
        .pixel_shader
        .as_ref()
        .expect("pass p0 has a pixel shader");
    for (r, e) in FVECT_P.iter().enumerate() {
        let got = ps.registers.floats.register(r);
        t.check(ps.registers.floats.is_written(r) && got == e, || {
            format!("pixel c{r}: expected {e:?}, got {got:?}")
        });
    }
    let i0 = ps.registers.ints.register(0);
    t.check(i0 == [4, 3, 2, 1], || {
        format!("pixel i0: expected [4, 3, 2, 1], got {i0:?}")
    });
    for (r, &e) in BCONSTS.iter().enumerate() {
        let got = ps.registers.bools.get(r);
        t.check(got == e, || format!("pixel b{r}: expected {e}, got {got}"));
    }
    // Sampler states (the run with D3DXFX_DONOTSAVESTATE; native reports the same minimum
    // filters in both runs, its magnification filters are the expressions' values).
    for (shader, reg, expected) in [
        (ps, 0, (3, 3)),
        (ps, 1, (1, 1)),
        (vs, 0, (1, 1)),
        (vs, 1, (2, 2)),
        (vs, 2, (3, 3)),
    ] {
        let got = sampler_filters(shader, reg);
        t.check(got == expected, || {
            format!("sampler s{reg}: expected (min, mag) {expected:?}, got {got:?}")
        });
    }
    for (state, expected) in [
        ("FogDensity", 0.0),
        ("FogStart", 4.0),
        ("PointScale_A", 4.0),
        ("PointScale_B", 12.0),
    ] {
        let got = floats(&view, state, 0)[0];
        t.check(got == expected, || {
            format!("{state}: expected {expected}, got {got}")
        });
    }
    assert_eq!(ints(&view, "LightType", 3), vec![1]);

    // Pass p1: `VertexShader = vs_arr[g_iVect.z]`.
    let selector = |z: f32| {
        let mut rt = Runtime::new(&effect);
        rt.set_floats("g_iVect", &[0.0, 0.0, z, 0.0]).unwrap();
        rt.pass(0, 1).unwrap()
    };
    for (z, expected) in [
        (1.0, Some(2.0)),
        (-1.0, Some(1.0)),
        (3.0, None),
        (-2.0, None),
        (30.0, None),
    ] {
        let view = selector(z);
        let got = def_c0(&effect, &view);
        t.check(got == expected, || {
            format!("vs_arr[{z}]: expected the shader defining {expected:?}, got {got:?}")
        });
        if expected.is_none() {
            let s = view
                .states
                .iter()
                .find(|s| s.name == "VertexShader")
                .unwrap();
            assert!(matches!(s.source, StateSource::Selector { .. }));
            assert!(s.value.is_err(), "vs_arr[{z}] must be out of range");
        }
    }
    t.finish("test_effect_preshader + out_of_bounds_selector");
}

#[test]
fn preshader_ops_match_native() {
    let Some(effect) = load("wine_test_effect_preshader_ops_blob.fxb") else {
        return;
    };
    const NAN: f32 = f32::NAN;
    const INF: f32 = f32::INFINITY;
    type Case = (
        &'static str,
        [u32; 4],
        (&'static str, u32),
        [f32; 4],
        [f32; 4],
        [f32; 4],
    );
    let cases: [Case; 10] = [
        (
            "exp",
            [0x3f800000, 0x3f800000, 0x3e5edc66, 0x7f800000],
            ("LightDiffuse", 0),
            [0.0, -0.0, -2.2, f32::MAX],
            [1.0, 2.0, -3.0, 4.0],
            [0.0; 4],
        ),
        (
            "log",
            [0, 0x40000000, 0x3f9199b7, 0x43000000],
            ("LightDiffuse", 1),
            [0.0, 4.0, -2.2, f32::MAX],
            [1.0, 2.0, -3.0, 4.0],
            [0.0; 4],
        ),
        (
            "asin",
            [0xbe9c00ad, 0xffc00000, 0xffc00000, 0xffc00000],
            ("LightDiffuse", 2),
            [-0.3, 4.0, -2.2, f32::MAX],
            [1.0, 2.0, -3.0, 4.0],
            [0.0; 4],
        ),
        (
            "acos",
            [0x3ff01006, 0xffc00000, 0xffc00000, 0xffc00000],
            ("LightDiffuse", 3),
            [-0.3, 4.0, -2.2, f32::MAX],
            [1.0, 2.0, -3.0, 4.0],
            [0.0; 4],
        ),
        (
            "atan",
            [0xbe9539d4, 0x3fa9b465, 0xbf927420, 0x3fc90fdb],
            ("LightDiffuse", 4),
            [-0.3, 4.0, -2.2, f32::MAX],
            [1.0, 2.0, -3.0, 4.0],
            [0.0; 4],
        ),
        (
            "atan2 test #1",
            [0xbfc90fdb, 0x40490fdb, 0x80000000, 0x7fc00000],
            ("LightDiffuse", 5),
            [-0.3, 0.0, -0.0, NAN],
            [0.0, -0.0, 0.0, 1.0],
            [0.0; 4],
        ),
        (
            "atan2 test #2",
            [0xbfc90fdb, 0, 0xc0490fdb, 0],
            ("LightDiffuse", 5),
            [-0.3, 0.0, -0.0, -0.0],
            [-0.0, 0.0, -0.0, 1.0],
            [0.0; 4],
        ),
        (
            "div",
            [0, 0, 0, 0],
            ("LightDiffuse", 7),
            [-0.3, 0.0, -2.2, NAN],
            [0.0, -0.0, -3.0, 1.0],
            [0.0; 4],
        ),
        (
            "cmp",
            [0x40a00000, 0x40000000, 0x40400000, 0x41000000],
            ("LightAmbient", 0),
            [-0.3, 0.0, 2.2, NAN],
            [1.0, 2.0, 3.0, 4.0],
            [5.0, 6.0, 7.0, 8.0],
        ),
        (
            "0 * INF",
            [0xffc00000, 0xffc00000, 0xc0d33334, 0x7f800000],
            ("LightDiffuse", 6),
            [0.0, -0.0, -2.2, f32::MAX],
            [INF, INF, 3.0, 4.0],
            [0.0; 4],
        ),
    ];
    let mut t = Tally::default();
    for (name, expected, (state, index), v1, v2, v3) in cases {
        let mut rt = Runtime::new(&effect);
        rt.set_floats("opvect1", &v1).unwrap();
        rt.set_floats("opvect2", &v2).unwrap();
        rt.set_floats("opvect3", &v3).unwrap();
        let view = rt.pass(0, 0).unwrap();
        let got = floats(&view, state, index);
        for (j, &e) in expected.iter().enumerate() {
            t.float(&format!("{name} component {j}"), got[j], e, 0);
        }
    }
    t.finish("test_effect_preshader_ops");
}

#[test]
fn preshader_effect_versions_match_native_ops() {
    // The op expectations hold for the blob versions that have all 19 light states (the
    // 2017 versions); older versions have fewer.
    let Some(dir) = dxso_corpus::corpus_or_skip("preshader_effect_versions_match_native_ops")
    else {
        return;
    };
    let mut checked = 0;
    for e in dxso_corpus::effects(&dir) {
        if !e
            .name
            .starts_with("wine_test_effect_preshader_effect_blob__2017")
        {
            continue;
        }
        let effect = Effect::parse(&e.bytes()).unwrap();
        let mut rt = Runtime::new(&effect);
        rt.set_floats("g_Pos2", &[28.0, 29.0, 30.0, 31.0]).unwrap();
        let view = rt.pass(0, 0).unwrap();
        let mut t = Tally::default();
        let rows = view
            .states
            .iter()
            .filter(|s| {
                s.name.starts_with("Light") && s.name != "LightEnable" && s.name != "LightType"
            })
            .count();
        if rows < OP_EXPECTED.len() {
            continue;
        }
        light_rows(&view, &mut t, "");
        t.finish(&e.name);
        checked += 1;
    }
    println!("preshader effect versions with the 19 op rows: {checked}");
}

#[test]
fn states_effect_matches_native() {
    let Some(effect) = load("wine_test_effect_states_effect_blob.fxb") else {
        return;
    };
    let rt = Runtime::new(&effect);
    let view = rt.pass(0, 0).unwrap();
    let mut t = Tally::default();
    let mut world1 = [0.0f32; 16];
    world1[0] = 2.0;
    world1[15] = 4.0;
    let mut camera = [0.0f32; 16];
    camera[0] = 4.0;
    camera[15] = 6.0;
    let got = floats(&view, "WorldTransform", 1);
    t.check(got == world1, || format!("WorldTransform[1]: got {got:?}"));
    let got = floats(&view, "ViewTransform", 0);
    t.check(got == camera, || format!("ViewTransform: got {got:?}"));
    let got = ints(&view, "BlendOp", 0);
    t.check(got == [2], || format!("BlendOp: got {got:?}"));
    // Native reports TRUE for both (compilers store TRUE as the int 1).
    let got = view
        .states
        .iter()
        .find(|s| s.name == "ZEnable")
        .unwrap()
        .device;
    t.check(got.is_some_and(|d| d != 0), || {
        format!("ZEnable: got {got:?}")
    });
    let got = view
        .states
        .iter()
        .find(|s| s.name == "LightEnable" && s.index == 2)
        .unwrap()
        .device;
    t.check(got.is_some_and(|d| d != 0), || {
        format!("LightEnable[2]: got {got:?}")
    });
    let got = floats(&view, "LightPosition", 2);
    t.check(got == [4.0, 5.0, 6.0], || {
        format!("LightPosition[2]: got {got:?}")
    });
    let got = floats(&view, "VertexShaderConstant1", 3);
    t.check(got == [2.0; 4], || {
        format!("VertexShaderConstant1[3]: got {got:?}")
    });
    let got = ints(&view, "AlphaOp", 3);
    t.check(got == [4], || format!("AlphaOp[3]: got {got:?}"));
    // Sampler[1] = sampler1 { MipFilter = LINEAR; }
    let s = view.states.iter().find(|s| s.name == "Sampler").unwrap();
    let mip = match &s.value {
        Ok(StateValue::Sampler { states, .. }) => states
            .iter()
            .find(|s| s.name == "MipFilter")
            .map(|s| s.value.clone()),
        _ => None,
    };
    t.check(
        s.index == 1
            && matches!(&mip, Some(Ok(StateValue::Numbers(Numbers::Ints(v)))) if v == &[2]),
        || format!("Sampler[1] MipFilter: got {mip:?}"),
    );
    // vertexshader = vs_arr1[1]: the vs_2_0 shader that defines c0 = 2.
    let got = def_c0(&effect, &view);
    t.check(got == Some(2.0), || {
        format!("VertexShader: got the shader defining {got:?}")
    });
    t.finish("test_effect_states");
}
