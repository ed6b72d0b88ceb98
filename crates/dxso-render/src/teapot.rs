//! The demo scene: the Utah teapot stream of `dxso_dp2::teapot` with a camera, a light, two
//! shaders written in assembly ([`VERTEX_SHADER`], [`PIXEL_SHADER`]) and the states to draw it.
//!
//! The stream creates the 32 patches under their handles with colour writes off (a depth
//! pre-pass), then draws them again from the patch cache with colour on: the second pass
//! shades only the pixels that end up visible. Culling is off; the pixel shader lights back
//! faces (the inside of the spout) through vFace. [`Scene::capture_fixed_function`] draws the
//! same patches without shaders, through the fixed-function pipeline.

use dxso_dp2::command::{Clear, Op};
use dxso_dp2::device::rs;
use dxso_dp2::{teapot, Capture, CaptureBuilder};

use crate::{ExecEngine, Image, RenderError, RenderLimits, Renderer, Stats};

/// The vertex shader (vs_3_0 assembly).
pub const VERTEX_SHADER: &str = include_str!("../shaders/teapot.vs.asm");
/// The pixel shader (ps_3_0 assembly).
pub const PIXEL_SHADER: &str = include_str!("../shaders/teapot.ps.asm");

/// Shader handles the stream creates.
pub const VS_HANDLE: u32 = 1;
/// See [`VS_HANDLE`].
pub const PS_HANDLE: u32 = 2;

/// How to frame the teapot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scene {
    /// Target width and height in pixels.
    pub size: [u32; 2],
    /// Segments per patch edge.
    pub segments: f32,
    /// Turn of the teapot about its vertical axis, in radians.
    pub angle: f32,
}

impl Default for Scene {
    fn default() -> Self {
        Scene {
            size: [1024, 1024],
            segments: 16.0,
            angle: 0.0,
        }
    }
}

type Mat = [[f32; 4]; 4];

fn mul(a: &Mat, b: &Mat) -> Mat {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..4).map(|k| a[i][k] * b[k][j]).sum()))
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(a: [f32; 3]) -> [f32; 3] {
    let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The centre of the teapot's bounding box (Newell's data, z up).
const CENTRE: [f32; 3] = [0.217, 0.0, 1.575];
/// Where the eye is and where the light comes from (towards the light), in world space.
const EYE: [f32; 3] = [-4.6, -8.4, 4.2];
const LIGHT: [f32; 3] = [-0.45, -0.55, 0.7];

impl Scene {
    /// World: turn by `angle` about z through the teapot's centre, centred at the origin.
    fn world(&self) -> Mat {
        let (s, c) = self.angle.sin_cos();
        let [x, y, z] = CENTRE;
        [
            [c, -s, 0.0, -(c * x - s * y)],
            [s, c, 0.0, -(s * x + c * y)],
            [0.0, 0.0, 1.0, -z],
            [0.0, 0.0, 0.0, 1.0],
        ]
    }

    /// View: the eye looking at the origin, z up.
    fn view(&self) -> Mat {
        let forward = unit(sub([0.0; 3], EYE));
        let right = unit(cross(forward, [0.0, 0.0, 1.0]));
        let up = cross(right, forward);
        let row = |a: [f32; 3]| [a[0], a[1], a[2], -dot(a, EYE)];
        [row(right), row(up), row(forward), [0.0, 0.0, 0.0, 1.0]]
    }

    /// Direct3D projection (depth 0 at the near plane, 1 at the far one).
    fn projection(&self) -> Mat {
        let (near, far) = (4.0, 16.0);
        let fov_y = 0.7f32;
        let f = 1.0 / (fov_y / 2.0).tan();
        let aspect = self.size[0] as f32 / self.size[1] as f32;
        [
            [f / aspect, 0.0, 0.0, 0.0],
            [0.0, f, 0.0, 0.0],
            [0.0, 0.0, far / (far - near), -near * far / (far - near)],
            [0.0, 0.0, 1.0, 0.0],
        ]
    }

    fn view_projection(&self) -> Mat {
        mul(&self.projection(), &self.view())
    }

    /// The stream: clear, states, the two shaders (bytecode), constants, the depth-only
    /// created pass and the shaded cached pass.
    pub fn capture(&self, vertex_shader: &[u8], pixel_shader: &[u8]) -> Capture {
        let mut b = CaptureBuilder::new();
        b.viewport([0, 0, self.size[0], self.size[1]]);
        b.zrange(0.0, 1.0);
        b.clear(&Clear {
            flags: 3,
            color: 0xFF1D_232E,
            depth: 1.0,
            stencil: 0,
            rects: Vec::new(),
        })
        .expect("no rectangles");
        b.create_shader(Op::CreateVertexShaderFunc, VS_HANDLE, vertex_shader)
            .create_shader(Op::CreatePixelShader, PS_HANDLE, pixel_shader)
            .handle_op(Op::SetVertexShaderFunc, VS_HANDLE)
            .handle_op(Op::SetPixelShader, PS_HANDLE);
        let world = self.world();
        let wvp = mul(&self.view_projection(), &world);
        let rotation: Vec<[f32; 4]> = world[..3].iter().map(|r| [r[0], r[1], r[2], 0.0]).collect();
        b.float_constants(Op::SetVertexShaderConst, 0, &wvp)
            .float_constants(Op::SetVertexShaderConst, 4, &world[..3])
            .float_constants(Op::SetVertexShaderConst, 8, &rotation);
        let l = unit(LIGHT);
        b.float_constants(
            Op::SetPixelShaderConst,
            0,
            &[
                [EYE[0], EYE[1], EYE[2], 1.0],
                [l[0], l[1], l[2], 0.0],
                [0.95, 0.91, 0.82, 1.0],
                [0.13, 0.27, 0.62, 1.0],
                [0.12, 0.88, 0.55, 48.0],
                [0.30, 0.38, 0.52, 1.0],
            ],
        );
        b.render_state(rs::CULLMODE, 1);
        teapot::add_setup(&mut b, self.segments);
        b.render_state(rs::COLORWRITEENABLE, 0);
        teapot::add_created_pass(&mut b);
        b.render_state(rs::COLORWRITEENABLE, 0xF);
        teapot::add_cached_pass(&mut b);
        b.finish()
    }
}

/// Texture handle of the fixed-function scene's checker texture.
pub const CHECKER_HANDLE: u32 = 3;

/// A matrix as SETTRANSFORM's record after the transform type: Direct3D's row-vector
/// convention is the transpose of this module's.
fn transform_record(ty: u32, m: &Mat) -> Vec<u8> {
    let mut out = ty.to_le_bytes().to_vec();
    for c in 0..4 {
        for row in m {
            out.extend(row[c].to_le_bytes());
        }
    }
    out
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// A SETLIGHT DATA record (index, data type 2, then a D3DLIGHT7).
#[allow(clippy::too_many_arguments)]
fn light_record(
    index: u32,
    ty: u32,
    diffuse: [f32; 4],
    specular: [f32; 4],
    position: [f32; 3],
    direction: [f32; 3],
    range: f32,
    attenuation: [f32; 3],
) -> Vec<u8> {
    let mut out = [index, 2, ty]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect::<Vec<u8>>();
    out.extend(floats(&diffuse));
    out.extend(floats(&specular));
    out.extend(floats(&[0.0; 4]));
    out.extend(floats(&position));
    out.extend(floats(&direction));
    out.extend(floats(&[range, 1.0]));
    out.extend(floats(&attenuation));
    out.extend(floats(&[0.0, 0.0]));
    out
}

impl Scene {
    /// The same teapot drawn without shaders: the fixed-function pipeline's generated shaders
    /// light it with a directional key light and a blue point fill light (material colours,
    /// specular with a local viewer), a two-stage texture cascade (a checker texture modulating
    /// the lit colour, then a blend towards TEXTUREFACTOR by its alpha), the specular add and
    /// linear vertex fog into the clear colour.
    pub fn capture_fixed_function(&self) -> Capture {
        use dxso_dp2::device::tss;
        let mut b = CaptureBuilder::new();
        b.viewport([0, 0, self.size[0], self.size[1]]);
        b.zrange(0.0, 1.0);
        b.clear(&Clear {
            flags: 3,
            color: 0xFF1D_232E,
            depth: 1.0,
            stencil: 0,
            rects: Vec::new(),
        })
        .expect("no rectangles");
        b.command(Op::SetTransform, 1, &transform_record(256, &self.world()))
            .command(Op::SetTransform, 1, &transform_record(2, &self.view()))
            .command(
                Op::SetTransform,
                1,
                &transform_record(3, &self.projection()),
            );
        b.command(
            Op::SetMaterial,
            1,
            &floats(&[
                0.9, 0.62, 0.32, 1.0, // diffuse
                0.35, 0.33, 0.38, 1.0, // ambient
                0.9, 0.9, 0.85, 1.0, // specular
                0.0, 0.0, 0.0, 0.0,  // emissive
                40.0, // power
            ]),
        );
        let l = unit(LIGHT);
        b.command(
            Op::SetLight,
            1,
            &light_record(
                0,
                3,
                [1.0, 0.95, 0.85, 1.0],
                [1.0, 1.0, 1.0, 1.0],
                [0.0; 3],
                [-l[0], -l[1], -l[2]],
                100.0,
                [1.0, 0.0, 0.0],
            ),
        )
        .command(
            Op::SetLight,
            1,
            &light_record(
                1,
                1,
                [0.25, 0.4, 0.9, 1.0],
                [0.3, 0.4, 0.8, 1.0],
                [5.0, -3.0, 2.0],
                [0.0; 3],
                40.0,
                [0.6, 0.05, 0.0],
            ),
        );
        for i in 0..2u32 {
            let mut enable = i.to_le_bytes().to_vec();
            enable.extend(0u32.to_le_bytes());
            b.command(Op::SetLight, 1, &enable);
        }
        b.render_state(rs::AMBIENT, 0xFF30_3440)
            .render_state(rs::SPECULARENABLE, 1)
            .render_state(rs::NORMALIZENORMALS, 1)
            .render_state(rs::TEXTUREFACTOR, 0x40FF_D890)
            .render_state(rs::FOGENABLE, 1)
            .render_state(rs::FOGCOLOR, 0xFF1D_232E)
            .render_state(rs::FOGVERTEXMODE, 3)
            .render_state_f32(rs::FOGSTART, 9.0)
            .render_state_f32(rs::FOGEND, 16.0);
        let texels: Vec<u8> = (0..64u32)
            .flat_map(|i| {
                let c: u32 = if (i % 8 + i / 8) % 2 == 0 {
                    0xFFFF_FFFF
                } else {
                    0xFFB0_A8A0
                };
                c.to_le_bytes()
            })
            .collect();
        b.texture(
            CHECKER_HANDLE,
            dxso_dp2::texture::TextureFormat::A8R8G8B8,
            [8, 8],
            1,
            &texels,
        );
        let stage = |b: &mut CaptureBuilder, n: u16, state: u32, value: u32| {
            b.texture_stage_state(n, state as u16, value);
        };
        stage(&mut b, 0, tss::TEXTUREMAP, CHECKER_HANDLE);
        stage(&mut b, 0, tss::MAGFILTER, 2);
        stage(&mut b, 0, tss::MINFILTER, 2);
        // Stage 0: TEXTURE x DIFFUSE; stage 1: TFACTOR blended over CURRENT by its alpha.
        stage(&mut b, 0, tss::COLOROP, 4);
        stage(&mut b, 0, tss::COLORARG1, 2);
        stage(&mut b, 0, tss::COLORARG2, 0);
        stage(&mut b, 1, tss::COLOROP, 14);
        stage(&mut b, 1, tss::COLORARG1, 3);
        stage(&mut b, 1, tss::COLORARG2, 1);
        b.render_state(rs::CULLMODE, 1);
        teapot::add_setup(&mut b, self.segments);
        b.render_state(rs::COLORWRITEENABLE, 0);
        teapot::add_created_pass(&mut b);
        b.render_state(rs::COLORWRITEENABLE, 0xF);
        teapot::add_cached_pass(&mut b);
        b.finish()
    }
}

/// Renders one frame of the fixed-function version of `scene` ([`Scene::capture_fixed_function`])
/// with dxso-exec's `engine`: the frame and the pipeline's counters.
pub fn render_fixed_function(
    scene: &Scene,
    engine: dxso_exec::Engine,
) -> Result<(Image, Stats), RenderError> {
    let engine = ExecEngine::with_engine(engine);
    let [w, h] = scene.size;
    let mut renderer = Renderer::new(w, h, Some(&engine), RenderLimits::default())?;
    renderer.render_capture(&scene.capture_fixed_function())?;
    Ok((renderer.image(), renderer.stats()))
}

/// Renders one frame of `scene` with the shaders' bytecode `vs` and `ps`, run by dxso-exec's
/// `engine`: the frame and the pipeline's counters.
pub fn render(
    scene: &Scene,
    vs: &[u8],
    ps: &[u8],
    engine: dxso_exec::Engine,
) -> Result<(Image, Stats), RenderError> {
    render_with(scene, vs, ps, &ExecEngine::with_engine(engine))
}

/// Renders one frame of `scene` with the shaders' bytecode `vs` and `ps` on `engine` (one
/// set up by the caller, e.g. [`ExecEngine::waiting_for_compiles`]): the frame and the
/// pipeline's counters.
pub fn render_with(
    scene: &Scene,
    vs: &[u8],
    ps: &[u8],
    engine: &ExecEngine,
) -> Result<(Image, Stats), RenderError> {
    let [w, h] = scene.size;
    let mut renderer = Renderer::new(w, h, Some(engine), RenderLimits::default())?;
    renderer.render_capture(&scene.capture(vs, ps))?;
    Ok((renderer.image(), renderer.stats()))
}
