//! The demo scene: the Utah teapot stream of `dxso_dp2::teapot` with a camera, a light, two
//! shaders written in assembly ([`VERTEX_SHADER`], [`PIXEL_SHADER`]) and the states to draw it.
//!
//! The stream creates the 32 patches under their handles with colour writes off (a depth
//! pre-pass), then draws them again from the patch cache with colour on: the second pass
//! shades only the pixels that end up visible. Culling is off; the pixel shader lights back
//! faces (the inside of the spout) through vFace.

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

    /// View and Direct3D projection (depth 0 at the near plane, 1 at the far one).
    fn view_projection(&self) -> Mat {
        let forward = unit(sub([0.0; 3], EYE));
        let right = unit(cross(forward, [0.0, 0.0, 1.0]));
        let up = cross(right, forward);
        let row = |a: [f32; 3]| [a[0], a[1], a[2], -dot(a, EYE)];
        let view = [row(right), row(up), row(forward), [0.0, 0.0, 0.0, 1.0]];
        let (near, far) = (4.0, 16.0);
        let fov_y = 0.7f32;
        let f = 1.0 / (fov_y / 2.0).tan();
        let aspect = self.size[0] as f32 / self.size[1] as f32;
        let projection = [
            [f / aspect, 0.0, 0.0, 0.0],
            [0.0, f, 0.0, 0.0],
            [0.0, 0.0, far / (far - near), -near * far / (far - near)],
            [0.0, 0.0, 1.0, 0.0],
        ];
        mul(&projection, &view)
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

/// Renders one frame of `scene` with the shaders' bytecode `vs` and `ps`, run by dxso-exec's
/// `engine`: the frame and the pipeline's counters.
pub fn render(
    scene: &Scene,
    vs: &[u8],
    ps: &[u8],
    engine: dxso_exec::Engine,
) -> Result<(Image, Stats), RenderError> {
    let engine = ExecEngine::with_engine(engine);
    let [w, h] = scene.size;
    let mut renderer = Renderer::new(w, h, Some(&engine), RenderLimits::default())?;
    renderer.render_capture(&scene.capture(vs, ps))?;
    Ok((renderer.image(), renderer.stats()))
}
