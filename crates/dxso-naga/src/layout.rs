//! Where a translated shader finds its inputs, outputs, constants and textures.
//!
//! # Bindings
//!
//! Every resource lives in one bind group ([`crate::Options::bind_group`]: by default 0 for
//! vertex shaders, 1 for pixel shaders):
//!
//! | binding | resource |
//! |---|---|
//! | 0 | the constant buffer (uniform, layout below) |
//! | `1 + 2n` | the texture of sampler `s<n>` (`texture_2d<f32>`, `texture_cube<f32>` or `texture_3d<f32>`) |
//! | `2 + 2n` | the sampler state of `s<n>` |
//! | 64 | `vertex_as_compute` / `pixel_inputs_from_buffer`: inputs, `array<vec4<f32>>` (read-only storage) |
//! | 65 | `vertex_as_compute`: outputs, `array<vec4<f32>>` (read-write storage) |
//!
//! # Per target
//!
//! WGSL and SPIR-V use the group and binding above. The other targets have no bind groups;
//! each resource goes where [`Resource::msl`], [`Resource::hlsl`] and [`Resource::glsl`] say:
//!
//! | resource | MSL | HLSL (space = bind group) | GLSL 420+ / ES 310+ | older GLSL |
//! |---|---|---|---|---|
//! | constant buffer | `[[buffer(0)]]` | `register(b0)` | `binding = 0` (uniform block) | by block name |
//! | texture of `s<n>` | `[[texture(n)]]` | `register(t<n>)` | `binding = n` (combined sampler) | by uniform name |
//! | sampler state of `s<n>` | `[[sampler(n)]]` | entry `n` of the group's sampler index buffer | (combined) | (combined) |
//! | inputs | `[[buffer(1)]]` | `register(t16)` | `binding = 1` (storage block) | by block name |
//! | outputs | `[[buffer(2)]]` | `register(u0)` | `binding = 2` (storage block) | by block name |
//!
//! MSL also takes the sizes of runtime-sized buffers (the compute outputs) at
//! `[[buffer(3)]]`. naga's HLSL samples through a sampler heap: `SamplerState` at
//! `register(s0, space0)` indexed by the group's `StructuredBuffer<uint>` at
//! `register(t<group>, space255)`, whose entry `n` is the heap index of `s<n>`'s sampler.
//! GLSL before 4.20 (and GLSL ES 3.00) writes no binding: the host binds each resource by the
//! name [`crate::TargetBinding::name`] gives.
//!
//! Locations are written `@location(n)` (WGSL), `Location n` (SPIR-V), `[[attribute(n)]]`,
//! `[[user(locn)]]` and `[[color(n)]]` (MSL vertex inputs, varyings, pixel outputs), `LOCn` and
//! `SV_Targetn` (HLSL), and `location = n` in GLSL where the version has it: vertex inputs and
//! pixel outputs from 3.30 and ES 3.00, varyings from 4.20 and ES 3.10. Elsewhere GLSL links
//! and binds them by name (`_p2vs_location<n>`, `_vs2fs_location<n>`, `_fs2p_location<n>`;
//! [`crate::TargetVarying::name`]).
//!
//! # Constant buffer
//!
//! One uniform struct, every member 16-byte aligned (std140 and WGSL uniform rules hold):
//!
//! | offset | member | content |
//! |---|---|---|
//! | 0 | `c: array<vec4<f32>, F>` | float constants `c0..c<F-1>`; F = 256 (vertex) or 224 (pixel) |
//! | 16F | `i: array<vec4<i32>, 16>` | integer constants `i0..i15` |
//! | 16F + 256 | `b: array<vec4<u32>, 4>` | boolean constants: `b<n>` is `b[n / 4][n % 4]`, non-zero is true |
//! | 16F + 320 | `bumpenv: array<vec4<f32>, 8>` | per texture stage: `(M00, M01, M10, M11)` of the bump-environment matrix |
//! | 16F + 448 | `bumplum: array<vec4<f32>, 8>` | per texture stage: `(scale, offset, 0, 0)` of `texbeml` luminance |
//! | 16F + 576 | `viewport: vec4<f32>` | `(1/width, 1/height, 0, 0)`, read by [`crate::ClipSpace::half_pixel_offset`] |
//!
//! The buffer's size is the same for every shader of a stage ([`constant_buffer_size`]); a
//! buffer of that size binds to every shader. A shader declares the struct only up to the last
//! member it can read (`c` alone for most), at the same offsets: its writers and naga's
//! validator then have fewer types and names to handle. `def`, `defi` and `defb` values are
//! shader constants that take precedence over the buffer; a `def` holding NaN or an infinity
//! (naga has no such literals) is a `vec4<u32>` of its bits, reinterpreted where it is read.
//!
//! # Locations
//!
//! Vertex shader inputs: `v<n>` is at location `n` (the reflection names its usage).
//! Varyings (vertex outputs and pixel inputs) are placed by usage so that any vertex shader
//! links with any pixel shader; every varying is a `vec4<f32>` ([`varying_location`]):
//!
//! | usage | locations |
//! |---|---|
//! | color 0-1 | 0-1 |
//! | texcoord 0-7 | 2-9 |
//! | fog | 10 (`oFog` in x) |
//! | psize | 11 (`oPts` in x) |
//! | texcoord 8-15 | 12-19 |
//! | color 2-3 | 20-21 |
//! | normal 0-1 | 22-23 |
//! | tangent, binormal, blendweight, blendindices | 24, 25, 26, 27 |
//! | position 1-2 (position 0 is the built-in position) | 28-29 |
//! | depth, sample | 30, 31 |
//! | any other usage and index | `32 + 16 * usage + index` (past what most devices offer) |
//!
//! Vertex shaders before 3_0 write `oPos` (built-in position), `oD<n>` (color n), `oT<n>`
//! (texcoord n), `oFog` and `oPts`. Pixel shaders before 3_0 read `v<n>` as color n and
//! `t<n>` as texcoord n. Pixel outputs: `oC<n>` (ps_1_x: `r0`) at location n, `oDepth` as the
//! built-in fragment depth.
//!
//! # Buffer inputs and outputs
//!
//! With `vertex_as_compute`, invocation `i` (global id x) reads `v<n>` from `inputs[16 i + n]`
//! and writes its k-th output ([`crate::Reflection::outputs`] order) to `outputs[S i + k]`, S
//! being the number of outputs; invocations with `S i >= arrayLength(outputs)` do nothing.
//! The workgroup size is [`COMPUTE_WORKGROUP_SIZE`].
//!
//! With `pixel_inputs_from_buffer`, the pixel at integer position (x, y) of a render target
//! [`PIXEL_BUFFER_WIDTH`] pixels wide reads its k-th input ([`crate::Reflection::inputs`]
//! order, `vPos` and `vFace` included, each a `vec4`) from
//! `inputs[K (y * PIXEL_BUFFER_WIDTH + x) + k]`, K being the number of inputs.

use dxso::DeclUsage;

/// The binding of the constant buffer.
pub const CONSTANT_BUFFER_BINDING: u32 = 0;
/// The binding of the storage buffer of inputs (`vertex_as_compute`, `pixel_inputs_from_buffer`).
pub const INPUT_BUFFER_BINDING: u32 = 64;
/// The binding of the storage buffer of outputs (`vertex_as_compute`).
pub const OUTPUT_BUFFER_BINDING: u32 = 65;
/// The workgroup size of a vertex shader emitted as compute.
pub const COMPUTE_WORKGROUP_SIZE: u32 = 64;
/// The row length of the pixel input buffer.
pub const PIXEL_BUFFER_WIDTH: u32 = 2;
/// Input registers per vertex in the compute input buffer.
pub const COMPUTE_INPUT_STRIDE: u32 = 16;

/// Integer constant registers (`i0..i15`).
pub const INT_CONSTANTS: u32 = 16;
/// Boolean constant registers (`b0..b15`).
pub const BOOL_CONSTANTS: u32 = 16;
/// Texture stages with bump-environment state.
pub const BUMP_STAGES: u32 = 8;

/// The binding of the texture of sampler `s<n>`.
pub const fn texture_binding(sampler: u32) -> u32 {
    1 + 2 * sampler
}

/// The binding of the sampler state of `s<n>`.
pub const fn sampler_binding(sampler: u32) -> u32 {
    2 + 2 * sampler
}

/// A resource of a translated module, as its binding in the bind group names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resource {
    /// The constant buffer.
    Constants,
    /// The texture of sampler `s<n>`.
    Texture(u32),
    /// The sampler state of `s<n>`.
    Sampler(u32),
    /// The storage buffer of inputs.
    Inputs,
    /// The storage buffer of outputs.
    Outputs,
}

/// MSL buffer slot of the sizes of runtime-sized buffers.
pub const MSL_SIZES_BUFFER: u8 = 3;
/// HLSL register space of the sampler index buffers (naga's convention).
pub const HLSL_SAMPLER_INDEX_SPACE: u8 = 255;

impl Resource {
    /// The resource at `binding` of the bind group, if any.
    pub const fn at(binding: u32) -> Option<Resource> {
        match binding {
            CONSTANT_BUFFER_BINDING => Some(Resource::Constants),
            INPUT_BUFFER_BINDING => Some(Resource::Inputs),
            OUTPUT_BUFFER_BINDING => Some(Resource::Outputs),
            b if b % 2 == 1 && b < 1 + 2 * 16 => Some(Resource::Texture((b - 1) / 2)),
            b if b % 2 == 0 && b < 2 + 2 * 16 => Some(Resource::Sampler((b - 2) / 2)),
            _ => None,
        }
    }

    /// The binding of the resource in the bind group.
    pub const fn binding(self) -> u32 {
        match self {
            Resource::Constants => CONSTANT_BUFFER_BINDING,
            Resource::Inputs => INPUT_BUFFER_BINDING,
            Resource::Outputs => OUTPUT_BUFFER_BINDING,
            Resource::Texture(n) => texture_binding(n),
            Resource::Sampler(n) => sampler_binding(n),
        }
    }

    /// The MSL attribute: `buffer`, `texture` or `sampler`, and the slot.
    pub const fn msl(self) -> (&'static str, u8) {
        match self {
            Resource::Constants => ("buffer", 0),
            Resource::Inputs => ("buffer", 1),
            Resource::Outputs => ("buffer", 2),
            Resource::Texture(n) => ("texture", n as u8),
            Resource::Sampler(n) => ("sampler", n as u8),
        }
    }

    /// The HLSL register class (`b`, `t`, `u`) and number, in the bind group's space; for a
    /// sampler, `s` and its entry in the group's sampler index buffer.
    pub const fn hlsl(self) -> (char, u32) {
        match self {
            Resource::Constants => ('b', 0),
            Resource::Inputs => ('t', 16),
            Resource::Outputs => ('u', 0),
            Resource::Texture(n) => ('t', n),
            Resource::Sampler(n) => ('s', n),
        }
    }

    /// The GLSL binding (written from GLSL 4.20 and GLSL ES 3.10); a texture and its sampler
    /// state share one combined sampler.
    pub const fn glsl(self) -> u8 {
        match self {
            Resource::Constants => 0,
            Resource::Inputs => 1,
            Resource::Outputs => 2,
            Resource::Texture(n) | Resource::Sampler(n) => n as u8,
        }
    }
}

/// Float constant registers of a stage: 256 for vertex shaders, 224 for pixel shaders.
pub const fn float_constants(vertex: bool) -> u32 {
    if vertex {
        256
    } else {
        224
    }
}

/// Byte offsets of the constant buffer's members (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstantBufferLayout {
    /// Float constants `c#` (vec4 each).
    pub floats: u32,
    /// How many float constants.
    pub float_count: u32,
    /// Integer constants `i#` (ivec4 each).
    pub ints: u32,
    /// Boolean constants, four per uvec4.
    pub bools: u32,
    /// Bump-environment matrices, one vec4 per stage.
    pub bumpenv: u32,
    /// Bump luminance scale and offset, one vec4 per stage.
    pub bumplum: u32,
    /// `(1/width, 1/height, 0, 0)`.
    pub viewport: u32,
    /// Total size in bytes.
    pub size: u32,
}

/// The constant buffer layout of a stage.
pub const fn constant_buffer_layout(vertex: bool) -> ConstantBufferLayout {
    let float_count = float_constants(vertex);
    let ints = 16 * float_count;
    let bools = ints + 16 * INT_CONSTANTS;
    let bumpenv = bools + 4 * BOOL_CONSTANTS;
    let bumplum = bumpenv + 16 * BUMP_STAGES;
    let viewport = bumplum + 16 * BUMP_STAGES;
    ConstantBufferLayout {
        floats: 0,
        float_count,
        ints,
        bools,
        bumpenv,
        bumplum,
        viewport,
        size: viewport + 16,
    }
}

/// The constant buffer size of a stage in bytes.
pub const fn constant_buffer_size(vertex: bool) -> u32 {
    constant_buffer_layout(vertex).size
}

/// The location of a varying of `usage` and `index` (vertex outputs and pixel inputs), as
/// the table in the module documentation places it.
pub const fn varying_location(usage: DeclUsage, index: u8) -> u32 {
    let i = index as u32;
    match (usage, index) {
        (DeclUsage::Color, 0..=1) => i,
        (DeclUsage::TexCoord, 0..=7) => 2 + i,
        (DeclUsage::Fog, 0) => 10,
        (DeclUsage::PSize, 0) => 11,
        (DeclUsage::TexCoord, 8..=15) => 4 + i,
        (DeclUsage::Color, 2..=3) => 18 + i,
        (DeclUsage::Normal, 0..=1) => 22 + i,
        (DeclUsage::Tangent, 0) => 24,
        (DeclUsage::Binormal, 0) => 25,
        (DeclUsage::BlendWeight, 0) => 26,
        (DeclUsage::BlendIndices, 0) => 27,
        (DeclUsage::Position, 1..=2) => 27 + i,
        (DeclUsage::Depth, 0) => 30,
        (DeclUsage::Sample, 0) => 31,
        _ => 32 + 16 * usage as u32 + (i & 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn varying_locations_are_distinct_and_fill_the_first_32() {
        let mut seen = HashSet::new();
        for usage in DeclUsage::ALL {
            for index in 0..16 {
                let loc = varying_location(usage, index);
                assert!(seen.insert(loc), "{usage:?}{index} reuses {loc}");
            }
        }
        assert_eq!(seen.iter().filter(|&&l| l < 32).count(), 32);
    }

    #[test]
    fn common_varyings_fit_webgpu_sixteen_locations() {
        for (usage, index) in [
            (DeclUsage::Color, 0),
            (DeclUsage::Color, 1),
            (DeclUsage::TexCoord, 7),
            (DeclUsage::Fog, 0),
            (DeclUsage::PSize, 0),
        ] {
            assert!(varying_location(usage, index) < 16);
        }
    }

    #[test]
    fn every_resource_is_found_at_its_binding_and_has_distinct_slots() {
        let mut all = vec![Resource::Constants, Resource::Inputs, Resource::Outputs];
        for n in 0..16 {
            all.extend([Resource::Texture(n), Resource::Sampler(n)]);
        }
        let (mut msl, mut hlsl) = (HashSet::new(), HashSet::new());
        for r in all {
            assert_eq!(Resource::at(r.binding()), Some(r));
            assert!(msl.insert(r.msl()), "{r:?}");
            assert!(hlsl.insert(r.hlsl()), "{r:?}");
        }
        assert_eq!(Resource::at(1 + 2 * 16), None);
    }

    #[test]
    fn constant_buffer_members_are_aligned() {
        for vertex in [true, false] {
            let l = constant_buffer_layout(vertex);
            for off in [
                l.floats, l.ints, l.bools, l.bumpenv, l.bumplum, l.viewport, l.size,
            ] {
                assert_eq!(off % 16, 0);
            }
        }
        assert_eq!(constant_buffer_layout(true).ints, 4096);
        assert_eq!(constant_buffer_layout(false).ints, 3584);
    }
}
