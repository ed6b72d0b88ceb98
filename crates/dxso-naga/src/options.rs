//! What a caller can choose about a translation.

use dxso::TextureType;

/// Options of [`crate::translate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The entry point's name (`main`).
    pub entry_point: String,
    /// The bind group of every resource; `None` picks group 0 for vertex shaders and 1 for
    /// pixel shaders, so one pipeline can hold both stages' resources.
    pub bind_group: Option<u32>,
    /// Emit a vertex shader as a compute entry point that reads its inputs from and writes its
    /// outputs to storage buffers (see [`crate::layout`] for their layout). Ignored for pixel
    /// shaders.
    pub vertex_as_compute: bool,
    /// Read a pixel shader's inputs from a storage buffer indexed by pixel position instead of
    /// from interpolated varyings, so a runner can give each pixel of a quad exact values. For
    /// testing; see [`crate::layout`]. Ignored for vertex shaders.
    pub pixel_inputs_from_buffer: bool,
    /// Also write `(alive, oDepth, 0, 0)` to this color location of a pixel shader (`alive` 1,
    /// or 0 when `texkill` discarded the pixel; `oDepth` 0 when the shader writes none), and
    /// do not discard: a runner reads which pixels survived, every output of every pixel, and
    /// the depth before the device clamps it. For testing.
    pub pixel_status_location: Option<u32>,
    /// The texture type of each sampler stage in ps_1_x, where shaders do not declare them.
    pub ps1_texture_types: [TextureType; 8],
    /// ps_1_1-1_3 texture stages whose coordinates `tex` and `texbem` divide by a component
    /// first (`D3DTTFF_PROJECTED`): the component index (1, 2 or 3), or `None`.
    pub ps1_projection: [Option<u8>; 8],
    /// The range ps_1_x arithmetic results are clamped to (MaxPixelShaderValue,
    /// `docs/SEMANTICS.md` 4.2).
    pub ps1_range: Ps1Range,
    /// "0 * anything = 0" in every product of `mul`, `mad`, `lrp`, `dp2add`, `dp3`, `dp4`, the
    /// matrix macros, `crs`, `dst`, `nrm` and the ps_1_x bump, `texdp3*` and `texm3x*`
    /// instructions (`docs/SEMANTICS.md` 5.1; the executor's option of the same name). Costs a
    /// comparison and a select per product.
    pub zero_times_anything: bool,
    /// Clip-space conventions applied to the vertex position output.
    pub clip: ClipSpace,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            entry_point: "main".into(),
            bind_group: None,
            vertex_as_compute: false,
            pixel_inputs_from_buffer: false,
            pixel_status_location: None,
            ps1_texture_types: [TextureType::Texture2D; 8],
            ps1_projection: [None; 8],
            ps1_range: Ps1Range::Drivers,
            zero_times_anything: false,
            clip: ClipSpace::default(),
        }
    }
}

/// The range ps_1_x arithmetic results are clamped to: `D3DCAPS9.MaxPixelShaderValue`
/// (`docs/SEMANTICS.md` 4.2; the executor's option of the same name).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Ps1Range {
    /// What current drivers report and do: `FLT_MAX`, arithmetic in plain float with no clamp.
    #[default]
    Drivers,
    /// The fixed-point hardware of the ps_1_x era: [-1, 1] for ps_1_1-1_3, [-8, 8] for ps_1_4.
    EarlyHardware,
    /// A chosen MaxPixelShaderValue `M`: results are clamped to [-M, M] (NaN becomes 0); an
    /// infinite `M` is the same as [`Ps1Range::Drivers`].
    Limit(f32),
}

impl Ps1Range {
    /// The clamp this range gives a ps_1_x shader (`ps_1_4` selects the early hardware's 8),
    /// or `None` for no clamp.
    pub fn limit(self, ps_1_4: bool) -> Option<f32> {
        let m = match self {
            Ps1Range::Drivers => return None,
            Ps1Range::EarlyHardware if ps_1_4 => 8.0,
            Ps1Range::EarlyHardware => 1.0,
            Ps1Range::Limit(m) => m.abs(),
        };
        m.is_finite().then_some(m)
    }
}

/// How the vertex position D3D9 computes is adjusted for the target's conventions.
///
/// naga's own convention is WebGPU's, which is also Direct3D's (y up, depth 0..w), and its
/// writers adjust for Vulkan and OpenGL when asked ([`crate::WriteOptions::adjust_coordinate_space`]).
/// These options cover what they do not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClipSpace {
    /// Direct3D 9 puts pixel centres on integer coordinates; later APIs on half-integers.
    /// When set, the position moves by half a pixel (`x -= w / width`, `y += w / height`),
    /// reading `1/width, 1/height` from the constant buffer's `viewport` member.
    pub half_pixel_offset: bool,
    /// Negate y (for a target that does not flip it itself).
    pub flip_y: bool,
    /// The depth range the target expects.
    pub depth: DepthRange,
}

/// The clip-space depth range of the target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DepthRange {
    /// `0 <= z <= w`, as Direct3D, Vulkan, Metal and WebGPU.
    #[default]
    ZeroToOne,
    /// `-w <= z <= w`, as OpenGL without `glClipControl` (z becomes `2z - w`).
    MinusOneToOne,
}
