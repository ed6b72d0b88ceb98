//! The fixed-function state of a draw: transforms, material, lights, the render states and
//! texture-stage states the pipeline reads, and the FVF code, with Direct3D 9's numbers and
//! defaults. Setters take the raw state numbers a DP2 stream carries.

use crate::d3d::{rs, ta, top, ts, tss};
use std::collections::BTreeMap;

/// A 4x4 row-major matrix (`D3DMATRIX`: `_11` first), applied to row vectors (`v * M`).
pub type Matrix = [f32; 16];

/// The identity matrix.
pub const IDENTITY: Matrix = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// The most texture stages the cascade has.
pub const MAX_STAGES: usize = 8;
/// The most lights enabled at once (`MaxActiveLights`).
pub const MAX_ACTIVE_LIGHTS: usize = 8;
/// The most user clip planes.
pub const MAX_CLIP_PLANES: usize = 6;
/// The largest matrix index indexed vertex blending reads (`MaxVertexBlendMatrixIndex`).
pub const MAX_BLEND_INDEX: u32 = 15;

/// `D3DMATERIAL9`: colours as RGBA floats, then the specular power.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Material {
    /// Diffuse reflectance.
    pub diffuse: [f32; 4],
    /// Ambient reflectance.
    pub ambient: [f32; 4],
    /// Specular reflectance.
    pub specular: [f32; 4],
    /// Emitted colour.
    pub emissive: [f32; 4],
    /// Specular exponent.
    pub power: f32,
}

/// `D3DLIGHT9`, every field in the structure's order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// `D3DLIGHTTYPE`: 1 point, 2 spot, 3 directional.
    pub ty: u32,
    /// Diffuse colour.
    pub diffuse: [f32; 4],
    /// Specular colour.
    pub specular: [f32; 4],
    /// Ambient colour.
    pub ambient: [f32; 4],
    /// Position in world space (point and spot).
    pub position: [f32; 3],
    /// Direction in world space (spot and directional).
    pub direction: [f32; 3],
    /// Distance beyond which the light has no effect (point and spot).
    pub range: f32,
    /// Spot falloff between the inner and outer cone.
    pub falloff: f32,
    /// Constant attenuation.
    pub attenuation0: f32,
    /// Linear attenuation.
    pub attenuation1: f32,
    /// Quadratic attenuation.
    pub attenuation2: f32,
    /// Inner cone angle in radians.
    pub theta: f32,
    /// Outer cone angle in radians.
    pub phi: f32,
}

impl Default for Light {
    /// Direct3D 9's default light (what `LightEnable` creates for an index never set): a white
    /// directional light along +z.
    fn default() -> Self {
        Light {
            ty: crate::d3d::light::DIRECTIONAL,
            diffuse: [1.0, 1.0, 1.0, 0.0],
            specular: [0.0; 4],
            ambient: [0.0; 4],
            position: [0.0; 3],
            direction: [0.0, 0.0, 1.0],
            range: 0.0,
            falloff: 0.0,
            attenuation0: 0.0,
            attenuation1: 0.0,
            attenuation2: 0.0,
            theta: 0.0,
            phi: 0.0,
        }
    }
}

/// The texture type a stage samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureKind {
    /// A 2D texture.
    Flat,
    /// A cube map.
    Cube,
    /// A volume texture.
    Volume,
}

/// One texture stage's states.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stage {
    /// `D3DTSS_COLOROP`.
    pub color_op: u32,
    /// `D3DTSS_COLORARG0`, `COLORARG1`, `COLORARG2`.
    pub color_args: [u32; 3],
    /// `D3DTSS_ALPHAOP`.
    pub alpha_op: u32,
    /// `D3DTSS_ALPHAARG0`, `ALPHAARG1`, `ALPHAARG2`.
    pub alpha_args: [u32; 3],
    /// `D3DTSS_RESULTARG`: `D3DTA_CURRENT` or `D3DTA_TEMP`.
    pub result_arg: u32,
    /// `D3DTSS_CONSTANT` (a D3DCOLOR).
    pub constant: u32,
    /// `D3DTSS_BUMPENVMAT00`, `01`, `10`, `11`.
    pub bump_matrix: [f32; 4],
    /// `D3DTSS_BUMPENVLSCALE`.
    pub bump_lscale: f32,
    /// `D3DTSS_BUMPENVLOFFSET`.
    pub bump_loffset: f32,
    /// `D3DTSS_TEXCOORDINDEX`: the coordinate set (low word) and `D3DTSS_TCI_*` (high word).
    pub tex_coord_index: u32,
    /// `D3DTSS_TEXTURETRANSFORMFLAGS`: `D3DTTFF_COUNTn`, `PROJECTED`.
    pub transform_flags: u32,
    /// The texture bound to the stage, if any.
    pub texture: Option<TextureKind>,
}

impl Stage {
    /// Direct3D 9's defaults for stage `n`.
    pub fn default_for(n: usize) -> Stage {
        let first = n == 0;
        Stage {
            color_op: if first { top::MODULATE } else { top::DISABLE },
            color_args: [ta::CURRENT, ta::TEXTURE, ta::CURRENT],
            alpha_op: if first { top::SELECTARG1 } else { top::DISABLE },
            alpha_args: [ta::CURRENT, ta::TEXTURE, ta::CURRENT],
            result_arg: ta::CURRENT,
            constant: 0,
            bump_matrix: [0.0; 4],
            bump_lscale: 0.0,
            bump_loffset: 0.0,
            tex_coord_index: n as u32,
            transform_flags: 0,
            texture: None,
        }
    }
}

/// The fixed-function state of a draw.
#[derive(Clone, Debug, PartialEq)]
pub struct FfpState {
    /// The FVF code (`D3DFVF_*`) of the vertices.
    pub fvf: u32,
    /// Transforms by `D3DTRANSFORMSTATETYPE` (a transform never set is the identity).
    pub transforms: BTreeMap<u32, Matrix>,
    /// The material.
    pub material: Material,
    /// Lights set, by index.
    pub lights: BTreeMap<u32, Light>,
    /// Indices of the enabled lights, ascending.
    pub enabled_lights: Vec<u32>,
    /// User clip planes (world space for the fixed-function pipeline).
    pub clip_planes: [[f32; 4]; MAX_CLIP_PLANES],
    /// Render states the pipeline reads, by `D3DRENDERSTATETYPE` (the defaults in place).
    pub render_states: BTreeMap<u32, u32>,
    /// The texture stages.
    pub stages: [Stage; MAX_STAGES],
}

/// Direct3D 9's defaults of the render states the fixed-function pipeline reads.
pub const RENDER_STATE_DEFAULTS: &[(u32, u32)] = &[
    (rs::ALPHATESTENABLE, 0),
    (rs::ALPHAREF, 0),
    (rs::ALPHAFUNC, 8),
    (rs::FOGENABLE, 0),
    (rs::SPECULARENABLE, 0),
    (rs::FOGCOLOR, 0),
    (rs::FOGTABLEMODE, 0),
    (rs::FOGSTART, 0),
    (rs::FOGEND, 0x3F80_0000),
    (rs::FOGDENSITY, 0x3F80_0000),
    (rs::RANGEFOGENABLE, 0),
    (rs::TEXTUREFACTOR, 0xFFFF_FFFF),
    (rs::LIGHTING, 1),
    (rs::AMBIENT, 0),
    (rs::FOGVERTEXMODE, 0),
    (rs::COLORVERTEX, 1),
    (rs::LOCALVIEWER, 1),
    (rs::NORMALIZENORMALS, 0),
    (rs::DIFFUSEMATERIALSOURCE, 1),
    (rs::SPECULARMATERIALSOURCE, 2),
    (rs::AMBIENTMATERIALSOURCE, 0),
    (rs::EMISSIVEMATERIALSOURCE, 0),
    (rs::VERTEXBLEND, 0),
    (rs::CLIPPLANEENABLE, 0),
    (rs::POINTSIZE, 0x3F80_0000),
    (rs::POINTSIZE_MIN, 0x3F80_0000),
    (rs::POINTSCALEENABLE, 0),
    (rs::POINTSCALE_A, 0x3F80_0000),
    (rs::POINTSCALE_B, 0),
    (rs::POINTSCALE_C, 0),
    (rs::POINTSIZE_MAX, 0x4280_0000),
    (rs::INDEXEDVERTEXBLENDENABLE, 0),
    (rs::TWEENFACTOR, 0),
];

impl Default for FfpState {
    fn default() -> Self {
        FfpState {
            fvf: crate::d3d::fvf::XYZ | crate::d3d::fvf::DIFFUSE,
            transforms: BTreeMap::new(),
            material: Material::default(),
            lights: BTreeMap::new(),
            enabled_lights: Vec::new(),
            clip_planes: [[0.0; 4]; MAX_CLIP_PLANES],
            render_states: RENDER_STATE_DEFAULTS.iter().copied().collect(),
            stages: std::array::from_fn(Stage::default_for),
        }
    }
}

impl FfpState {
    /// A render state's value (`0` for one the pipeline does not read).
    pub fn rs(&self, number: u32) -> u32 {
        self.render_states.get(&number).copied().unwrap_or(0)
    }

    /// A render state as a float.
    pub fn rs_f32(&self, number: u32) -> f32 {
        f32::from_bits(self.rs(number))
    }

    /// A render state as a boolean.
    pub fn rs_on(&self, number: u32) -> bool {
        self.rs(number) != 0
    }

    /// Records a render state; `false` (and nothing recorded) when the fixed-function
    /// pipeline does not read it.
    pub fn set_render_state(&mut self, number: u32, value: u32) -> bool {
        if RENDER_STATE_DEFAULTS.iter().any(|&(n, _)| n == number) {
            self.render_states.insert(number, value);
            true
        } else {
            false
        }
    }

    /// Records a texture-stage state of stage `stage`; `false` when the stage is not one of the
    /// cascade's or the state is not one it reads.
    pub fn set_texture_stage_state(&mut self, stage: u32, state: u32, value: u32) -> bool {
        let Some(s) = self.stages.get_mut(stage as usize) else {
            return false;
        };
        let f = f32::from_bits(value);
        match state {
            tss::COLOROP => s.color_op = value,
            tss::COLORARG0 => s.color_args[0] = value,
            tss::COLORARG1 => s.color_args[1] = value,
            tss::COLORARG2 => s.color_args[2] = value,
            tss::ALPHAOP => s.alpha_op = value,
            tss::ALPHAARG0 => s.alpha_args[0] = value,
            tss::ALPHAARG1 => s.alpha_args[1] = value,
            tss::ALPHAARG2 => s.alpha_args[2] = value,
            tss::RESULTARG => s.result_arg = value,
            tss::CONSTANT => s.constant = value,
            tss::BUMPENVMAT00 => s.bump_matrix[0] = f,
            tss::BUMPENVMAT01 => s.bump_matrix[1] = f,
            tss::BUMPENVMAT10 => s.bump_matrix[2] = f,
            tss::BUMPENVMAT11 => s.bump_matrix[3] = f,
            tss::BUMPENVLSCALE => s.bump_lscale = f,
            tss::BUMPENVLOFFSET => s.bump_loffset = f,
            tss::TEXCOORDINDEX => s.tex_coord_index = value,
            tss::TEXTURETRANSFORMFLAGS => s.transform_flags = value,
            _ => return false,
        }
        true
    }

    /// A transform (the identity when never set).
    pub fn transform(&self, ty: u32) -> Matrix {
        self.transforms.get(&ty).copied().unwrap_or(IDENTITY)
    }

    /// Records a transform; `false` when `ty` names no transform.
    pub fn set_transform(&mut self, ty: u32, m: Matrix) -> bool {
        let known = matches!(ty, ts::VIEW | ts::PROJECTION)
            || (ts::TEXTURE0..=ts::TEXTURE7).contains(&ty)
            || (ts::WORLD..=ts::WORLD255).contains(&ty);
        if known {
            self.transforms.insert(ty, m);
        }
        known
    }

    /// Sets light `index` (enabling it leaves it enabled).
    pub fn set_light(&mut self, index: u32, light: Light) {
        self.lights.insert(index, light);
    }

    /// Enables or disables light `index` (enabling a light never set creates the default
    /// light, as `LightEnable` does).
    pub fn enable_light(&mut self, index: u32, on: bool) {
        if on {
            self.lights.entry(index).or_default();
            if let Err(at) = self.enabled_lights.binary_search(&index) {
                self.enabled_lights.insert(at, index);
            }
        } else if let Ok(at) = self.enabled_lights.binary_search(&index) {
            self.enabled_lights.remove(at);
        }
    }

    /// The enabled lights in index order.
    pub fn active_lights(&self) -> impl Iterator<Item = &Light> + '_ {
        self.enabled_lights
            .iter()
            .filter_map(|i| self.lights.get(i))
    }
}

/// D3DCOLOR (ARGB bytes) as RGBA in 0..1.
pub fn d3dcolor(c: u32) -> [f32; 4] {
    let byte = |shift: u32| ((c >> shift) & 0xFF) as f32 / 255.0;
    [byte(16), byte(8), byte(0), byte(24)]
}
