//! Fixed-function checks ported from Wine's d3d9 visual tests (`dlls/d3d9/tests/visual.c`):
//! each test names the Wine function (and case), each probe Wine's message; the expected
//! colours are the ones Wine records for Windows drivers. Scenes are DP2 streams built from
//! JSON and drawn without shaders, so they run the generated fixed-function shaders.

pub mod wine;

use serde_json::json;
use wine::{assert_probes, assert_probes_full, f, Scene, IDENTITY};

const QUAD_INDICES: [u16; 6] = [0, 1, 2, 2, 3, 0];

/// Vertices of (position, D3DCOLOR).
fn xyz_diffuse(v: &[([f32; 3], u32)]) -> Vec<u32> {
    v.iter()
        .flat_map(|(p, c)| [f(p[0]), f(p[1]), f(p[2]), *c])
        .collect()
}

/// Vertices of (position, normal, D3DCOLOR).
fn xyz_normal_diffuse(v: &[([f32; 3], [f32; 3], u32)]) -> Vec<u32> {
    v.iter()
        .flat_map(|(p, n, c)| [f(p[0]), f(p[1]), f(p[2]), f(n[0]), f(n[1]), f(n[2]), *c])
        .collect()
}

fn lighting_scene() -> Scene {
    let mut s = Scene::new();
    s.transform("WORLD", IDENTITY)
        .transform("VIEW", IDENTITY)
        .transform("PROJECTION", IDENTITY)
        .clear(0xffffffff);
    s
}

pub fn lighting_test_quads_with_and_without_normals() {
    let mut s = lighting_scene();
    s.fvf(&["XYZ", "DIFFUSE"]).rs("LIGHTING", json!(false));
    let unlit = [
        ([-1.0, -1.0, 0.1], 0xffff0000),
        ([-1.0, 0.0, 0.1], 0xffff0000),
        ([0.0, 0.0, 0.1], 0xffff0000),
        ([0.0, -1.0, 0.1], 0xffff0000),
    ];
    s.draw_indexed(&QUAD_INDICES, &xyz_diffuse(&unlit), 16);
    s.rs("LIGHTING", json!(true));
    let lit = [
        ([-1.0, 0.0, 0.1], 0xff00ff00),
        ([-1.0, 1.0, 0.1], 0xff00ff00),
        ([0.0, 1.0, 0.1], 0xff00ff00),
        ([0.0, 0.0, 0.1], 0xff00ff00),
    ];
    s.draw_indexed(&QUAD_INDICES, &xyz_diffuse(&lit), 16);
    s.fvf(&["XYZ", "NORMAL", "DIFFUSE"])
        .rs("LIGHTING", json!(false));
    let n = [1.0, 1.0, 1.0];
    let unlitn = [
        ([0.0, -1.0, 0.1], n, 0xff0000ff),
        ([0.0, 0.0, 0.1], n, 0xff0000ff),
        ([1.0, 0.0, 0.1], n, 0xff0000ff),
        ([1.0, -1.0, 0.1], n, 0xff0000ff),
    ];
    s.draw_indexed(&QUAD_INDICES, &xyz_normal_diffuse(&unlitn), 28);
    s.rs("LIGHTING", json!(true));
    let litn = [
        ([0.0, 0.0, 0.1], n, 0xffffff00),
        ([0.0, 1.0, 0.1], n, 0xffffff00),
        ([1.0, 1.0, 0.1], n, 0xffffff00),
        ([1.0, 0.0, 0.1], n, 0xffffff00),
    ];
    s.draw_indexed(&QUAD_INDICES, &xyz_normal_diffuse(&litn), 28);
    assert_probes(
        &s.render(),
        &[
            ("Unlit quad without normals", 160, 360, 0x00ff0000, 0),
            ("Lit quad without normals", 160, 120, 0x00000000, 0),
            ("Unlit quad with normals", 480, 360, 0x000000ff, 0),
            ("Lit quad with normals", 480, 120, 0x00000000, 0),
        ],
    );
}

fn lighting_test_case(
    world: [f32; 16],
    quad: [[f32; 3]; 4],
    normal: [f32; 3],
    expected: u32,
    name: &str,
) {
    let mut s = lighting_scene();
    s.fvf(&["XYZ", "NORMAL", "DIFFUSE"])
        .light_enable(0, true)
        .transform("WORLD", world)
        .clear(0xffffffff);
    let v: Vec<_> = quad.iter().map(|p| (*p, normal, 0xff0000ffu32)).collect();
    s.draw_indexed(&QUAD_INDICES, &xyz_normal_diffuse(&v), 28);
    assert_probes(&s.render(), &[(name, 320, 240, expected, 0)]);
}

pub fn lighting_test_lit_quad_with_light() {
    let nquad = [
        [-1.0, -1.0, 0.0],
        [-1.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, -1.0, 0.0],
    ];
    lighting_test_case(
        IDENTITY,
        nquad,
        [0.0, 0.0, -1.0],
        0x000000ff,
        "Lit quad with light",
    );
}

pub fn lighting_test_lit_quad_with_singular_world_matrix() {
    let nquad = [
        [-1.0, -1.0, 0.0],
        [-1.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, -1.0, 0.0],
    ];
    let singular = [
        1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 1.0,
    ];
    lighting_test_case(
        singular,
        nquad,
        [0.0, 0.0, -1.0],
        0x000000ff,
        "Lit quad with singular world matrix",
    );
}

pub fn lighting_test_lit_quad_with_transformation_matrix() {
    let rotated = [
        [-10.0, -11.0, 11.0],
        [-10.0, -9.0, 11.0],
        [-10.0, -9.0, 9.0],
        [-10.0, -11.0, 9.0],
    ];
    let transf = [
        0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 10.0, 10.0, 10.0, 1.0,
    ];
    lighting_test_case(
        transf,
        rotated,
        [-1.0, 0.0, 0.0],
        0x000000ff,
        "Lit quad with transformation matrix",
    );
}

pub fn lighting_test_lit_vertex_alpha() {
    let mut s = lighting_scene();
    s.material(json!({"diffuse": [0.0, 0.0, 0.0, 1.0]}))
        .rs("DIFFUSEMATERIALSOURCE", json!("MATERIAL"))
        .rs("SPECULARMATERIALSOURCE", json!("MATERIAL"))
        .tss(0, "COLOROP", json!("SELECTARG1"))
        .tss(0, "COLORARG1", json!(0x20))
        .fvf(&["XYZ", "DIFFUSE"]);
    let strip = [
        ([-1.0, -1.0, 0.1], 0x8000ff00),
        ([1.0, -1.0, 0.1], 0x80000000),
        ([-1.0, 1.0, 0.1], 0x8000ff00),
        ([1.0, 1.0, 0.1], 0x80000000),
    ];
    s.draw(5, 2, &xyz_diffuse(&strip), 16);
    assert_probes(
        &s.render(),
        &[("Lit vertex alpha test", 320, 240, 0x00ffffff, 0)],
    );
}

/// `test_specular_lighting`: a 5 x 5 grid at z = 1 facing the camera, white specular
/// material, one light, probes on a 3 x 3 grid (Wine allows a difference of 1).
fn specular_case(
    light: serde_json::Value,
    local_viewer: bool,
    power: f32,
    expected: [u32; 9],
    case: &str,
) {
    let mut s = Scene::new();
    s.transform("WORLD", IDENTITY)
        .transform("VIEW", IDENTITY)
        .transform("PROJECTION", IDENTITY)
        .fvf(&["XYZ", "NORMAL"])
        .light_enable(0, true)
        .rs("SPECULARENABLE", json!(true))
        .light(0, light)
        .rs("LOCALVIEWER", json!(local_viewer))
        .material(json!({"specular": [1.0, 1.0, 1.0, 1.0], "power": power}))
        .clear(0xff00ff00);
    let side = 5u16;
    let mut data = Vec::new();
    for y in 0..side {
        for x in 0..side {
            let px = x as f32 * 2.0 / (side - 1) as f32 - 1.0;
            let py = y as f32 * 2.0 / (side - 1) as f32 - 1.0;
            data.extend([f(px), f(py), f(1.0), f(0.0), f(0.0), f(-1.0)]);
        }
    }
    let mut indices = Vec::new();
    for y in 0..side - 1 {
        for x in 0..side - 1 {
            indices.extend([
                y * side + x + 1,
                y * side + x,
                (y + 1) * side + x,
                y * side + x + 1,
                (y + 1) * side + x,
                (y + 1) * side + x + 1,
            ]);
        }
    }
    s.draw_indexed(&indices, &data, 24);
    let img = s.render();
    let at = [
        (160, 120),
        (320, 120),
        (480, 120),
        (160, 240),
        (320, 240),
        (480, 240),
        (160, 360),
        (320, 360),
        (480, 360),
    ];
    let labels: Vec<String> = at
        .iter()
        .map(|(x, y)| format!("{case} ({x}, {y})"))
        .collect();
    let checks: Vec<(&str, u32, u32, u32, u32)> = at
        .iter()
        .zip(&expected)
        .zip(&labels)
        .map(|((&(x, y), &c), l)| (l.as_str(), x, y, c, 1))
        .collect();
    assert_probes(&img, &checks);
}

fn directional() -> serde_json::Value {
    json!({"type": "DIRECTIONAL", "specular": [1.0, 1.0, 1.0, 0.0], "direction": [0.0, 0.0, 1.0]})
}

fn point() -> serde_json::Value {
    json!({"type": "POINT", "specular": [1.0, 1.0, 1.0, 0.0], "range": 100.0, "attenuation2": 1.0})
}

fn spot() -> serde_json::Value {
    json!({"type": "SPOT", "specular": [1.0, 1.0, 1.0, 0.0], "direction": [0.0, 0.0, 1.0],
        "range": 100.0, "falloff": 1.0, "attenuation2": 1.0,
        "theta": std::f32::consts::PI / 12.0, "phi": std::f32::consts::PI / 3.0})
}

fn ring(corner: u32, edge: u32, centre: u32) -> [u32; 9] {
    [
        corner, edge, corner, edge, centre, edge, corner, edge, corner,
    ]
}

pub fn test_specular_lighting_directional() {
    specular_case(directional(), false, 30.0, [0x00ffffff; 9], "directional");
}

pub fn test_specular_lighting_directional_local() {
    specular_case(
        directional(),
        true,
        30.0,
        ring(0x003c3c3c, 0x00717171, 0x00ffffff),
        "directional local",
    );
}

pub fn test_specular_lighting_point() {
    specular_case(
        point(),
        false,
        30.0,
        ring(0x00282828, 0x005a5a5a, 0x00ffffff),
        "point",
    );
}

pub fn test_specular_lighting_point_local() {
    specular_case(
        point(),
        true,
        30.0,
        ring(0x00000000, 0x00070707, 0x00ffffff),
        "point local",
    );
}

pub fn test_specular_lighting_spot() {
    specular_case(
        spot(),
        false,
        30.0,
        ring(0x00000000, 0x00141414, 0x00ffffff),
        "spot",
    );
}

pub fn test_specular_lighting_spot_local() {
    specular_case(
        spot(),
        true,
        30.0,
        ring(0x00000000, 0x00020202, 0x00ffffff),
        "spot local",
    );
}

pub fn test_specular_lighting_point_range() {
    let light = json!({"type": "POINT", "specular": [1.0, 1.0, 1.0, 0.0], "range": 1.2, "attenuation2": 1.0});
    specular_case(
        light,
        false,
        30.0,
        ring(0x00000000, 0x005a5a5a, 0x00ffffff),
        "point range",
    );
}

pub fn test_specular_lighting_point_side() {
    let light = json!({"type": "POINT", "specular": [1.0, 1.0, 1.0, 0.0], "position": [-1.1, 0.0, 1.1],
        "range": 100.0, "attenuation2": 1.0});
    specular_case(light, true, 0.0, [0; 9], "point side");
}

/// Vertices of (position, diffuse, specular).
fn xyz_diffuse_specular(v: &[([f32; 3], u32, u32)]) -> Vec<u32> {
    v.iter()
        .flat_map(|(p, d, s)| [f(p[0]), f(p[1]), f(p[2]), *d, *s])
        .collect()
}

/// Pre-transformed vertices of (Wine's x, y, z, rhw, diffuse, specular), x and y scaled to the
/// target.
fn xyzrhw_diffuse_specular(v: &[([f32; 4], u32, u32)]) -> Vec<u32> {
    v.iter()
        .flat_map(|(p, d, s)| {
            [
                f(p[0] / wine::SCALE),
                f(p[1] / wine::SCALE),
                f(p[2]),
                f(p[3]),
                *d,
                *s,
            ]
        })
        .collect()
}

fn fog_quad(x0: f32, y0: f32, z: f32) -> [([f32; 3], u32, u32); 4] {
    let (d, s) = (0xffff0000, 0xff000000);
    [
        ([x0, y0, z], d, s),
        ([x0, y0 + 1.0, z], d, s),
        ([x0 + 1.0, y0 + 1.0, z], d, s),
        ([x0 + 1.0, y0, z], d, s),
    ]
}

fn transformed_quad(x0: f32, y0: f32) -> [([f32; 4], u32, u32); 4] {
    let (d, s) = (0xffffff00, 0xff000000);
    [
        ([x0, y0, 1.0, 1.0], d, s),
        ([x0 + 320.0, y0, 1.0, 1.0], d, s),
        ([x0 + 320.0, y0 + 240.0, 1.0, 1.0], d, s),
        ([x0, y0 + 240.0, 1.0, 1.0], d, s),
    ]
}

/// `fog_test`'s setup: no lighting, fog on and green, identity projection, start 0, end 1.
fn fog_scene(clear: u32) -> Scene {
    let mut s = Scene::new();
    s.clear(clear)
        .rs("LIGHTING", json!(false))
        .rs("FOGENABLE", json!(true))
        .rs("FOGCOLOR", json!(0xff00ff00u32))
        .transform("PROJECTION", IDENTITY)
        .rs("FOGTABLEMODE", json!("NONE"))
        .rs("FOGVERTEXMODE", json!("NONE"))
        .rsf("FOGSTART", 0.0)
        .rsf("FOGEND", 1.0);
    s
}

const XYZ_DS: [&str; 3] = ["XYZ", "DIFFUSE", "SPECULAR"];
const XYZRHW_DS: [&str; 3] = ["XYZRHW", "DIFFUSE", "SPECULAR"];

pub fn fog_test_modes() {
    let mut s = fog_scene(0xffff00ff);
    s.fvf(&XYZ_DS)
        .draw_indexed(
            &QUAD_INDICES,
            &xyz_diffuse_specular(&fog_quad(-1.0, -1.0, 0.1)),
            20,
        )
        .rs("FOGVERTEXMODE", json!("LINEAR"))
        .draw_indexed(
            &QUAD_INDICES,
            &xyz_diffuse_specular(&fog_quad(-1.0, 0.0, 1.0)),
            20,
        )
        .fvf(&XYZRHW_DS)
        .draw_indexed(
            &QUAD_INDICES,
            &xyzrhw_diffuse_specular(&transformed_quad(320.0, 0.0)),
            24,
        )
        .rs("FOGTABLEMODE", json!("LINEAR"))
        .draw_indexed(
            &QUAD_INDICES,
            &xyzrhw_diffuse_specular(&transformed_quad(320.0, 240.0)),
            24,
        );
    assert_probes(
        &s.render(),
        &[
            (
                "Untransformed vertex with no table or vertex fog",
                160,
                360,
                0x00ff0000,
                0,
            ),
            (
                "Untransformed vertex with linear vertex fog",
                160,
                120,
                0x0000ff00,
                1,
            ),
            (
                "Transformed vertex with linear vertex fog",
                480,
                120,
                0x00ffff00,
                0,
            ),
            (
                "Transformed vertex with linear table fog",
                480,
                360,
                0x0000ff00,
                1,
            ),
        ],
    );
}

pub fn fog_test_start_equals_end() {
    let mut s = fog_scene(0xff0000ff);
    s.rsf("FOGSTART", 512.0)
        .rsf("FOGEND", 512.0)
        .fvf(&XYZ_DS)
        .rs("FOGVERTEXMODE", json!("LINEAR"))
        .rs("FOGTABLEMODE", json!("NONE"))
        .draw_indexed(
            &QUAD_INDICES,
            &xyz_diffuse_specular(&fog_quad(-1.0, -1.0, 0.1)),
            20,
        )
        .draw_indexed(
            &QUAD_INDICES,
            &xyz_diffuse_specular(&fog_quad(-1.0, 0.0, 1.0)),
            20,
        )
        .fvf(&XYZRHW_DS)
        .draw_indexed(
            &QUAD_INDICES,
            &xyzrhw_diffuse_specular(&transformed_quad(320.0, 0.0)),
            24,
        );
    assert_probes(
        &s.render(),
        &[
            (
                "Untransformed vertex with vertex fog and z = 0.1",
                160,
                360,
                0x0000ff00,
                1,
            ),
            (
                "Untransformed vertex with vertex fog and z = 1.0",
                160,
                120,
                0x0000ff00,
                1,
            ),
            (
                "Transformed vertex with linear vertex fog",
                480,
                120,
                0x00ffff00,
                0,
            ),
        ],
    );
}

pub fn fog_test_reversed_vertex_fog() {
    let mut s = fog_scene(0xffff0000);
    s.rsf("FOGSTART", 0.8)
        .rsf("FOGEND", 0.2)
        .fvf(&["XYZ", "DIFFUSE"])
        .rs("FOGVERTEXMODE", json!("LINEAR"))
        .rs("FOGTABLEMODE", json!("NONE"));
    let mut v = Vec::new();
    let mut indices = Vec::new();
    for (k, (x0, y0, z)) in [
        (-1.0, -1.0, 0.1),
        (0.0, -1.0, 0.9),
        (0.0, 0.0, 0.4),
        (-1.0, 0.0, 0.7),
    ]
    .into_iter()
    .enumerate()
    {
        for (x, y) in [
            (x0, y0),
            (x0, y0 + 1.0),
            (x0 + 1.0, y0 + 1.0),
            (x0 + 1.0, y0),
        ] {
            v.push(([x, y, z], 0x000000ffu32));
        }
        let b = 4 * k as u16;
        indices.extend([b, b + 1, b + 2, b + 2, b + 3, b]);
    }
    s.draw_indexed(&indices, &xyz_diffuse(&v), 16);
    assert_probes(
        &s.render(),
        &[
            ("Reversed vertex fog: z=0.1", 160, 360, 0x0000ff00, 1),
            ("Reversed vertex fog: z=0.7", 160, 120, 0x00002bd4, 2),
            ("Reversed vertex fog: z=0.4", 480, 120, 0x0000aa55, 2),
            ("Reversed vertex fog: z=0.9", 480, 360, 0x000000ff, 0),
        ],
    );
}

pub fn fog_test_table_fog_with_world_matrix() {
    let mut world = IDENTITY;
    world[14] = -0.5;
    let mut s = fog_scene(0xffff00ff);
    s.transform("WORLDMATRIX(0)", world)
        .rs("FOGTABLEMODE", json!("LINEAR"))
        .rs("FOGVERTEXMODE", json!("NONE"))
        .fvf(&XYZ_DS)
        .draw_indexed(
            &QUAD_INDICES,
            &xyz_diffuse_specular(&fog_quad(-1.0, -1.0, 0.5)),
            20,
        )
        .draw_indexed(
            &QUAD_INDICES,
            &xyz_diffuse_specular(&fog_quad(-1.0, 0.0, 1.5)),
            20,
        );
    assert_probes(
        &s.render(),
        &[
            ("Unfogged quad", 160, 360, 0x00ff0000, 4),
            ("Fogged out quad", 160, 120, 0x0000ff00, 1),
        ],
    );
}

pub fn fog_test_orthogonal_projection() {
    let mut world = IDENTITY;
    world[14] = 1.0;
    let mut proj = IDENTITY;
    proj[14] = -1.0;
    let mut s = fog_scene(0xffff00ff);
    s.transform("WORLDMATRIX(0)", world)
        .transform("PROJECTION", proj)
        .rs("FOGTABLEMODE", json!("LINEAR"))
        .rs("FOGVERTEXMODE", json!("NONE"))
        .fvf(&XYZ_DS)
        .draw_indexed(
            &QUAD_INDICES,
            &xyz_diffuse_specular(&fog_quad(-1.0, -1.0, 0.1)),
            20,
        )
        .draw_indexed(
            &QUAD_INDICES,
            &xyz_diffuse_specular(&fog_quad(-1.0, 0.0, 1.0)),
            20,
        );
    assert_probes(
        &s.render(),
        &[
            ("Partially fogged quad", 160, 360, 0x00e51900, 4),
            ("Fogged out quad", 160, 120, 0x0000ff00, 1),
        ],
    );
}

fn range_fog_scene(table: bool) -> Scene {
    let mut s = fog_scene(0xffff00ff);
    s.fvf(&XYZ_DS)
        .rs("RANGEFOGENABLE", json!(true))
        .rsf("FOGSTART", 0.75)
        .rsf("FOGEND", 0.75001);
    if table {
        s.rs("FOGTABLEMODE", json!("LINEAR"));
    } else {
        s.rs("FOGTABLEMODE", json!("NONE"))
            .rs("FOGVERTEXMODE", json!("LINEAR"));
    }
    let (d, sp) = (0xffff0000, 0xff000000);
    let strip = [
        ([-1.0, -1.0, 0.5], d, sp),
        ([-1.0, 1.0, 0.5], d, sp),
        ([1.0, -1.0, 0.5], d, sp),
        ([1.0, 1.0, 0.5], d, sp),
    ];
    s.draw(5, 2, &xyz_diffuse_specular(&strip), 20);
    s
}

pub fn fog_test_rangefog_with_table_fog() {
    let img = range_fog_scene(true).render();
    let c = 0x00ff0000;
    assert_probes(
        &img,
        &[
            ("Rangefog with table fog", 10, 10, c, 0),
            ("Rangefog with table fog", 630, 10, c, 0),
            ("Rangefog with table fog", 10, 470, c, 0),
            ("Rangefog with table fog", 630, 470, c, 0),
        ],
    );
}

pub fn fog_test_rangefog_with_vertex_fog() {
    let img = range_fog_scene(false).render();
    let c = 0x0000ff00;
    assert_probes(
        &img,
        &[
            ("Rangefog with vertex fog", 10, 10, c, 1),
            ("Rangefog with vertex fog", 630, 10, c, 1),
            ("Rangefog with vertex fog", 10, 470, c, 1),
            ("Rangefog with vertex fog", 630, 470, c, 1),
        ],
    );
}

/// A quad over NDC `x0..x1`, `y0..y1` (position only: vertices BL, BR, TL, TR) drawn as two
/// indexed triangles: {0, 1, 3}, counter-clockwise on screen (the lower-right half), then
/// {0, 2, 3}, clockwise on screen (the upper-left half).
fn stencil_quad(s: &mut Scene, x0: f32, y0: f32, x1: f32, y1: f32) {
    let v: Vec<u32> = [[x0, y0], [x1, y0], [x0, y1], [x1, y1]]
        .iter()
        .flat_map(|p| [f(p[0]), f(p[1]), f(0.1)])
        .collect();
    s.draw_indexed(&[0, 1, 3], &v, 12);
    s.draw_indexed(&[0, 2, 3], &v, 12);
}

/// Wine's `stencil_cull_test`: the stencil buffer cleared to 8; clockwise triangles REPLACE it
/// with 3 (STENCILPASS) and, in two-sided mode, counter-clockwise ones INCR it to 9
/// (CCW_STENCILPASS); without two-sided mode both windings take the clockwise ops. Both
/// stencil functions keep their ALWAYS default and the depth test is off, so only the pass ops
/// can apply. A second pass paints blue = 16 * stencil where STENCILFUNC EQUAL matches.
pub fn stencil_cull_test() {
    let mut s = Scene::new();
    s.op(
        json!({"op": "CLEAR", "flags": ["TARGET", "STENCIL"], "color": 0x00ff0000,
        "depth": 0.0, "stencil": 0x8}),
    )
    .fvf(&["XYZ"])
    .rs("ZENABLE", json!(false))
    .rs("LIGHTING", json!(false))
    // Clockwise ops: FAIL and ZFAIL are never taken here (ALWAYS, no depth test).
    .rs("STENCILFAIL", json!("INCR"))
    .rs("STENCILZFAIL", json!("DECR"))
    .rs("STENCILPASS", json!("REPLACE"))
    .rs("STENCILREF", json!(3))
    .rs("CCW_STENCILFAIL", json!("REPLACE"))
    .rs("CCW_STENCILZFAIL", json!("DECR"))
    .rs("CCW_STENCILPASS", json!("INCR"))
    .rs("STENCILENABLE", json!(true))
    .rs("TWOSIDEDSTENCILMODE", json!(false));
    // Lower left: one-sided, clockwise culled.
    s.rs("CULLMODE", json!("CW"));
    stencil_quad(&mut s, -1.0, -1.0, 0.0, 0.0);
    // Lower right: two-sided, nothing culled.
    s.rs("TWOSIDEDSTENCILMODE", json!(true))
        .rs("CULLMODE", json!("NONE"));
    stencil_quad(&mut s, 0.0, -1.0, 1.0, 0.0);
    // Upper right: two-sided, clockwise culled.
    s.rs("CULLMODE", json!("CW"));
    stencil_quad(&mut s, 0.0, 0.0, 1.0, 1.0);
    // Upper left: two-sided, counter-clockwise culled.
    s.rs("CULLMODE", json!("CCW"));
    stencil_quad(&mut s, -1.0, 0.0, 0.0, 1.0);
    // Make the stencil values visible: blue = 16 * stencil (alpha 0, as in Wine).
    s.rs("STENCILZFAIL", json!("KEEP"))
        .rs("STENCILPASS", json!("KEEP"))
        .rs("STENCILFAIL", json!("KEEP"))
        .rs("TWOSIDEDSTENCILMODE", json!(false))
        .rs("CULLMODE", json!("NONE"))
        .rs("STENCILFUNC", json!("EQUAL"))
        .fvf(&["XYZ", "DIFFUSE"]);
    for i in 0..16u32 {
        let c = i * 16;
        let painter = xyz_diffuse(&[
            ([-1.0, -1.0, 0.0], c),
            ([1.0, -1.0, 0.0], c),
            ([-1.0, 1.0, 0.0], c),
            ([1.0, 1.0, 0.0], c),
        ]);
        s.rs("STENCILREF", json!(i));
        s.draw(5, 2, &painter, 16);
    }
    s.rs("STENCILENABLE", json!(false));
    // Wine compares these exactly.
    assert_probes(
        &s.render(),
        &[
            (
                "CCW triangle, twoside FALSE, cull cw, replace",
                160,
                420,
                0x00000030,
                0,
            ),
            (
                "CW triangle, twoside FALSE, cull cw, culled",
                160,
                300,
                0x00000080,
                0,
            ),
            (
                "CCW triangle, twoside TRUE, cull off, incr",
                480,
                420,
                0x00000090,
                0,
            ),
            (
                "CW triangle, twoside TRUE, cull off, replace",
                480,
                300,
                0x00000030,
                0,
            ),
            (
                "CCW triangle, twoside TRUE, cull ccw, culled",
                160,
                180,
                0x00000080,
                0,
            ),
            (
                "CW triangle, twoside TRUE, cull ccw, replace",
                160,
                60,
                0x00000030,
                0,
            ),
            (
                "CCW triangle, twoside TRUE, cull cw, incr",
                480,
                180,
                0x00000090,
                0,
            ),
            (
                "CW triangle, twoside TRUE, cull cw, culled",
                480,
                60,
                0x00000080,
                0,
            ),
        ],
    );
}

/// Wine's `test_table_fog_zw`: linear table fog of pre-transformed vertices reads their z,
/// whatever their rhw (0 included) and whether the depth test is on. FOGSTART and FOGEND keep
/// their defaults (0 and 1), so the fog factor is 1 - z; one full-target quad per case, probed
/// at the centre with Wine's tolerance of 2.
pub fn test_table_fog_zw() {
    let cases: [(f32, f32, bool, u32); 8] = [
        (0.7, 0.0, true, 0x004cb200),
        (0.7, 0.0, false, 0x004cb200),
        (0.7, 0.3, true, 0x004cb200),
        (0.7, 0.3, false, 0x004cb200),
        (0.7, 3.0, true, 0x004cb200),
        (0.7, 3.0, false, 0x004cb200),
        (0.3, 0.0, true, 0x00b24c00),
        (0.3, 0.0, false, 0x00b24c00),
    ];
    for (i, &(z, w, z_test, want)) in cases.iter().enumerate() {
        let mut s = Scene::new();
        s.rs("LIGHTING", json!(false))
            .rs("FOGENABLE", json!(true))
            .rs("FOGCOLOR", json!(0x0000ff00))
            .rs("CLIPPING", json!(false))
            .transform("PROJECTION", IDENTITY)
            .rs("FOGTABLEMODE", json!("LINEAR"))
            .fvf(&["XYZRHW", "DIFFUSE"])
            .op(
                json!({"op": "CLEAR", "flags": ["TARGET", "ZBUFFER"], "color": 0x000000ff,
                "depth": 1.0}),
            )
            .rs("ZENABLE", json!(z_test));
        // Wine's 640 x 480 quad, in this target's quarter-size pixels.
        let v: Vec<u32> = [(0.0, 0.0), (160.0, 0.0), (0.0, 120.0), (160.0, 120.0)]
            .iter()
            .flat_map(|&(x, y)| [f(x), f(y), f(z), f(w), 0xffff0000])
            .collect();
        s.draw(5, 2, &v, 20);
        let label = format!("case {i}");
        assert_probes(&s.render(), &[(&label, 320, 240, want, 2)]);
    }
}

/// Wine's `z_range_test` quads: z from 1.1 at the left to -1.1 at the right (the top half), and
/// the pre-transformed pair over the bottom half the other way round.
fn z_range_scene() -> Scene {
    let mut s = Scene::new();
    s.op(
        json!({"op": "CLEAR", "flags": ["TARGET", "ZBUFFER"], "color": 0xffffffffu32,
        "depth": 0.75}),
    )
    .rs("LIGHTING", json!(false))
    .rs("CLIPPING", json!(true))
    .rs("ZENABLE", json!(true))
    .rs("ZWRITEENABLE", json!(false))
    .rs("ZFUNC", json!("GREATER"));
    s
}

fn z_range_quad(color: u32) -> Vec<u32> {
    xyz_diffuse(&[
        ([-1.0, 0.0, 1.1], color),
        ([-1.0, 1.0, 1.1], color),
        ([1.0, 0.0, -1.1], color),
        ([1.0, 1.0, -1.1], color),
    ])
}

pub fn z_range_test_fixed_function() {
    let mut s = z_range_scene();
    s.fvf(&["XYZ", "DIFFUSE"])
        .draw(5, 2, &z_range_quad(0xffff0000), 16)
        .rs("ZFUNC", json!("LESS"))
        .draw(5, 2, &z_range_quad(0xff0000ff), 16);
    let rhw = |color: u32| -> Vec<u32> {
        [
            (640.0, 240.0, -1.1),
            (640.0, 480.0, -1.1),
            (0.0, 240.0, 1.1),
            (0.0, 480.0, 1.1),
        ]
        .iter()
        .flat_map(|&(x, y, z)| [f(x), f(y), f(z), f(1.0), color])
        .collect()
    };
    s.fvf(&["XYZRHW", "DIFFUSE"])
        .draw(5, 2, &rhw(0xff00ff00), 20)
        .rs("ZFUNC", json!("GREATER"))
        .draw(5, 2, &rhw(0xffffff00), 20);
    // Pre-transformed vertices are clipped to 0..1 here too (D3DPMISCCAPS_CLIPTLVERTS).
    let white = 0x00ffffff;
    assert_probes_full(
        &s.render_full(),
        &[
            ("Clipped because z > 1.0", 28, 238, white, 0),
            ("Clipped because z > 1.0 (transformed)", 28, 241, white, 0),
            (
                "Not clipped, > z buffer clear value",
                31,
                238,
                0x00ff0000,
                0,
            ),
            (
                "Not clipped, > z buffer clear value (transformed)",
                31,
                241,
                0x00ffff00,
                0,
            ),
            (
                "Not clipped, > z buffer clear value",
                100,
                238,
                0x00ff0000,
                0,
            ),
            (
                "Not clipped, > z buffer clear value (transformed)",
                100,
                241,
                0x00ffff00,
                0,
            ),
            (
                "Not clipped, < z buffer clear value",
                104,
                238,
                0x000000ff,
                0,
            ),
            (
                "Not clipped, < z buffer clear value (transformed)",
                104,
                241,
                0x0000ff00,
                0,
            ),
            (
                "Not clipped, < z buffer clear value",
                318,
                238,
                0x000000ff,
                0,
            ),
            (
                "Not clipped, < z buffer clear value (transformed)",
                318,
                241,
                0x0000ff00,
                0,
            ),
            ("Clipped because z < 0.0", 321, 238, white, 0),
            ("Clipped because z < 0.0 (transformed)", 321, 241, white, 0),
        ],
    );
}

/// The shader path of Wine's `z_range_test`: a vs_1_1 (`mov oPos, v0`, `mov oD0, c0`) with the
/// fixed-function pixel pipeline.
pub fn z_range_test_vertex_shader() {
    let vs: [u32; 11] = [
        0xfffe0101, 0x0000001f, 0x80000000, 0x900f0000, 0x00000001, 0xc00f0000, 0x90e40000,
        0x00000001, 0xd00f0000, 0xa0e40000, 0x0000ffff,
    ];
    let mut s = z_range_scene();
    s.fvf(&["XYZ"])
        .op(json!({"op": "CREATEVERTEXSHADERFUNC", "handle": 1, "tokens": vs}))
        .op(json!({"op": "SETVERTEXSHADERFUNC", "handle": 1}))
        .op(json!({"op": "SETVERTEXSHADERCONST", "register": 0, "values": [[1.0, 0.0, 0.0, 1.0]]}));
    let positions = |_: u32| -> Vec<u32> {
        [
            (-1.0, 0.0, 1.1),
            (-1.0, 1.0, 1.1),
            (1.0, 0.0, -1.1),
            (1.0, 1.0, -1.1),
        ]
        .iter()
        .flat_map(|&(x, y, z): &(f32, f32, f32)| [f(x), f(y), f(z)])
        .collect()
    };
    s.draw(5, 2, &positions(0), 12)
        .rs("ZFUNC", json!("LESS"))
        .op(json!({"op": "SETVERTEXSHADERCONST", "register": 0, "values": [[0.0, 0.0, 1.0, 1.0]]}))
        .draw(5, 2, &positions(0), 12);
    let white = 0x00ffffff;
    assert_probes_full(
        &s.render_full(),
        &[
            ("Z < 1.0", 28, 238, white, 0),
            ("1.0 < z < 0.75", 31, 238, 0x00ff0000, 0),
            ("1.0 < z < 0.75", 100, 238, 0x00ff0000, 0),
            ("0.75 < z < 0.0", 104, 238, 0x000000ff, 0),
            ("0.75 < z < 0.0", 318, 238, 0x000000ff, 0),
            ("0.0 < z", 321, 238, white, 0),
        ],
    );
}

// The tests: plain functions, so that another crate including this file without the test
// harness (dxso-gpu's differential test of the scenes' shaders) can run them all from `TESTS`.
wine::scene_tests!(
    lighting_test_quads_with_and_without_normals,
    lighting_test_lit_quad_with_light,
    lighting_test_lit_quad_with_singular_world_matrix,
    lighting_test_lit_quad_with_transformation_matrix,
    lighting_test_lit_vertex_alpha,
    test_specular_lighting_directional,
    test_specular_lighting_directional_local,
    test_specular_lighting_point,
    test_specular_lighting_point_local,
    test_specular_lighting_spot,
    test_specular_lighting_spot_local,
    test_specular_lighting_point_range,
    test_specular_lighting_point_side,
    fog_test_modes,
    fog_test_start_equals_end,
    fog_test_reversed_vertex_fog,
    fog_test_table_fog_with_world_matrix,
    fog_test_orthogonal_projection,
    fog_test_rangefog_with_table_fog,
    fog_test_rangefog_with_vertex_fog,
    stencil_cull_test,
    test_table_fog_zw,
    z_range_test_fixed_function,
    z_range_test_vertex_shader,
    every_test_is_listed,
);

/// Every `pub fn` of this file is a test in `TESTS`.
pub fn every_test_is_listed() {
    wine::check_listed(include_str!("ffp_wine.rs"), TESTS);
}
