//! State assignments and the D3DX state table: operation numbers 0..=178 shared by passes and
//! `sampler_state` blocks, each naming a render, texture-stage, sampler, transform, light,
//! material, shader or shader-constant state.

pub use crate::value::State;

impl State {
    /// The table entry of the operation (parsing guarantees it exists).
    pub fn info(&self) -> &'static StateInfo {
        state_info(self.operation).unwrap_or(&UNKNOWN)
    }
}

/// What part of the device a state sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateClass {
    /// `SetRenderState(code, value)`.
    Render,
    /// `SetTextureStageState(index, code, value)`.
    TextureStage,
    /// `SetNPatchMode(value)`.
    NPatchMode,
    /// `SetFVF(value)`.
    Fvf,
    /// `SetTransform(code + index, matrix)`.
    Transform,
    /// A `D3DMATERIAL9` field (code: diffuse, ambient, specular, emissive, power).
    Material,
    /// A `D3DLIGHT9` field of light `index` (code: type, diffuse, specular, ambient, position,
    /// direction, range, falloff, attenuation 0-2, theta, phi).
    Light,
    /// `LightEnable(index, value)`.
    LightEnable,
    /// `SetVertexShader`.
    VertexShader,
    /// `SetPixelShader`.
    PixelShader,
    /// `Set{Vertex,Pixel}ShaderConstant{F,B,I}(index, ...)` (code: see [`ShaderConstantKind`]).
    ShaderConstant,
    /// `SetTexture(sampler, texture)`.
    Texture,
    /// `SetSamplerState(sampler, code, value)`.
    Sampler,
    /// `Sampler[index] = s`: applies a sampler's state block to sampler `index`.
    SetSampler,
}

/// The register file a shader-constant state writes (the `code` of [`StateClass::ShaderConstant`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderConstantKind {
    /// Vertex shader float registers.
    VertexFloat,
    /// Vertex shader bool registers.
    VertexBool,
    /// Vertex shader int registers.
    VertexInt,
    /// Pixel shader float registers.
    PixelFloat,
    /// Pixel shader bool registers.
    PixelBool,
    /// Pixel shader int registers.
    PixelInt,
}

impl ShaderConstantKind {
    /// From the table code.
    pub fn from_code(code: u32) -> Option<Self> {
        use ShaderConstantKind::*;
        Some(match code {
            0 => VertexFloat,
            1 => VertexBool,
            2 => VertexInt,
            3 => PixelFloat,
            4 => PixelBool,
            5 => PixelInt,
            _ => return None,
        })
    }
}

/// One entry of the state table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    /// The name effect files use (`AlphaBlendEnable`, `MinFilter`, `WorldTransform`).
    pub name: &'static str,
    /// What it sets.
    pub class: StateClass,
    /// The device code: `D3DRS_*`, `D3DTSS_*`, `D3DTS_*`, `D3DSAMP_*`, or the field or register
    /// file for lights, materials and shader constants.
    pub code: u32,
}

/// What the device call of a state takes as its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceValue {
    /// A `DWORD`: enumerations, booleans, masks, colours (`D3DCOLOR`), counts. A float value
    /// converts by truncation (native d3dx9 sets `MagFilter = a + b` from a float
    /// expression as the integer).
    Dword,
    /// A float passed as its bit pattern (`FogStart`, `PointScale_A`, `MipMapLodBias`, ...).
    Float,
    /// Not a single `DWORD`: matrices, light and material fields, shaders, textures, shader
    /// constants, sampler blocks.
    Other,
}

impl StateInfo {
    /// `true` for states effect files write with an index (`LightEnable[3]`, `ColorOp[1]`,
    /// `Sampler[0]`); sampler states inside `sampler_state` blocks get theirs from the
    /// register the sampler is bound to.
    pub fn takes_index(&self) -> bool {
        match self.class {
            StateClass::TextureStage
            | StateClass::Light
            | StateClass::LightEnable
            | StateClass::ShaderConstant
            | StateClass::SetSampler => true,
            StateClass::Transform => matches!(self.name, "WorldTransform" | "TextureTransform"),
            _ => false,
        }
    }

    /// What the device call takes.
    pub fn device_value(&self) -> DeviceValue {
        match self.class {
            StateClass::Render => match self.code {
                // FOGSTART, FOGEND, FOGDENSITY, POINTSIZE, POINTSIZE_MIN, POINTSCALE_A..C,
                // POINTSIZE_MAX, TWEENFACTOR, SLOPESCALEDEPTHBIAS, MIN/MAXTESSELLATIONLEVEL,
                // ADAPTIVETESS_X..W, DEPTHBIAS.
                36..=38 | 154 | 155 | 158..=160 | 166 | 170 | 175 | 178..=183 | 195 => {
                    DeviceValue::Float
                }
                _ => DeviceValue::Dword,
            },
            // BUMPENVMAT00..11, BUMPENVLSCALE, BUMPENVLOFFSET.
            StateClass::TextureStage => match self.code {
                7..=10 | 22 | 23 => DeviceValue::Float,
                _ => DeviceValue::Dword,
            },
            // MIPMAPLODBIAS.
            StateClass::Sampler if self.code == 8 => DeviceValue::Float,
            StateClass::Sampler | StateClass::Fvf | StateClass::LightEnable => DeviceValue::Dword,
            StateClass::NPatchMode => DeviceValue::Float,
            _ => DeviceValue::Other,
        }
    }
}

const UNKNOWN: StateInfo = StateInfo {
    name: "Unknown",
    class: StateClass::Render,
    code: 0,
};

/// The operation `op`'s entry, if it has one.
pub fn state_info(op: u32) -> Option<&'static StateInfo> {
    STATE_TABLE.get(op as usize)
}

/// The operation whose effect-file name is `name` (case-insensitive).
pub fn state_by_name(name: &str) -> Option<u32> {
    STATE_TABLE
        .iter()
        .position(|s| s.name.eq_ignore_ascii_case(name))
        .map(|i| i as u32)
}

/// Operation of `VertexShader`.
pub const OP_VERTEX_SHADER: u32 = 146;
/// Operation of `PixelShader`.
pub const OP_PIXEL_SHADER: u32 = 147;
/// Operation of `Texture` (inside sampler blocks).
pub const OP_TEXTURE: u32 = 164;
/// Operation of `Sampler[n]`.
pub const OP_SET_SAMPLER: u32 = 178;

macro_rules! states {
    ($($class:ident $code:literal $name:literal),* $(,)?) => {
        /// The D3DX state table, indexed by operation.
        pub const STATE_TABLE: &[StateInfo] = &[
            $(StateInfo { name: $name, class: StateClass::$class, code: $code }),*
        ];
    };
}

states! {
    // Render states, 0..=102.
    Render 7 "ZEnable", Render 8 "FillMode", Render 9 "ShadeMode", Render 14 "ZWriteEnable",
    Render 15 "AlphaTestEnable", Render 16 "LastPixel", Render 19 "SrcBlend", Render 20 "DestBlend",
    Render 22 "CullMode", Render 23 "ZFunc", Render 24 "AlphaRef", Render 25 "AlphaFunc",
    Render 26 "DitherEnable", Render 27 "AlphaBlendEnable", Render 28 "FogEnable",
    Render 29 "SpecularEnable", Render 34 "FogColor", Render 35 "FogTableMode", Render 36 "FogStart",
    Render 37 "FogEnd", Render 38 "FogDensity", Render 48 "RangeFogEnable", Render 52 "StencilEnable",
    Render 53 "StencilFail", Render 54 "StencilZFail", Render 55 "StencilPass", Render 56 "StencilFunc",
    Render 57 "StencilRef", Render 58 "StencilMask", Render 59 "StencilWriteMask",
    Render 60 "TextureFactor", Render 128 "Wrap0", Render 129 "Wrap1", Render 130 "Wrap2",
    Render 131 "Wrap3", Render 132 "Wrap4", Render 133 "Wrap5", Render 134 "Wrap6", Render 135 "Wrap7",
    Render 198 "Wrap8", Render 199 "Wrap9", Render 200 "Wrap10", Render 201 "Wrap11",
    Render 202 "Wrap12", Render 203 "Wrap13", Render 204 "Wrap14", Render 205 "Wrap15",
    Render 136 "Clipping", Render 137 "Lighting", Render 139 "Ambient", Render 140 "FogVertexMode",
    Render 141 "ColorVertex", Render 142 "LocalViewer", Render 143 "NormalizeNormals",
    Render 145 "DiffuseMaterialSource", Render 146 "SpecularMaterialSource",
    Render 147 "AmbientMaterialSource", Render 148 "EmissiveMaterialSource", Render 151 "VertexBlend",
    Render 152 "ClipPlaneEnable", Render 154 "PointSize", Render 155 "PointSize_Min",
    Render 166 "PointSize_Max", Render 156 "PointSpriteEnable", Render 157 "PointScaleEnable",
    Render 158 "PointScale_A", Render 159 "PointScale_B", Render 160 "PointScale_C",
    Render 161 "MultiSampleAntialias", Render 162 "MultiSampleMask", Render 163 "PatchEdgeStyle",
    Render 165 "DebugMonitorToken", Render 167 "IndexedVertexBlendEnable",
    Render 168 "ColorWriteEnable", Render 170 "TweenFactor", Render 171 "BlendOp",
    Render 172 "PositionDegree", Render 173 "NormalDegree", Render 174 "ScissorTestEnable",
    Render 175 "SlopeScaleDepthBias", Render 176 "AntialiasedLineEnable",
    Render 178 "MinTessellationLevel", Render 179 "MaxTessellationLevel",
    Render 180 "AdaptiveTess_X", Render 181 "AdaptiveTess_Y", Render 182 "AdaptiveTess_Z",
    Render 183 "AdaptiveTess_W", Render 184 "EnableAdaptiveTessellation",
    Render 185 "TwoSidedStencilMode", Render 186 "CCW_StencilFail", Render 187 "CCW_StencilZFail",
    Render 188 "CCW_StencilPass", Render 189 "CCW_StencilFunc", Render 190 "ColorWriteEnable1",
    Render 191 "ColorWriteEnable2", Render 192 "ColorWriteEnable3", Render 193 "BlendFactor",
    Render 194 "SRGBWriteEnable", Render 195 "DepthBias", Render 206 "SeparateAlphaBlendEnable",
    Render 207 "SrcBlendAlpha", Render 208 "DestBlendAlpha", Render 209 "BlendOpAlpha",
    // Texture stage states, 103..=120.
    TextureStage 1 "ColorOp", TextureStage 26 "ColorArg0", TextureStage 2 "ColorArg1",
    TextureStage 3 "ColorArg2", TextureStage 4 "AlphaOp", TextureStage 27 "AlphaArg0",
    TextureStage 5 "AlphaArg1", TextureStage 6 "AlphaArg2", TextureStage 28 "ResultArg",
    TextureStage 7 "BumpEnvMat00", TextureStage 8 "BumpEnvMat01", TextureStage 9 "BumpEnvMat10",
    TextureStage 10 "BumpEnvMat11", TextureStage 11 "TexCoordIndex", TextureStage 22 "BumpEnvLScale",
    TextureStage 23 "BumpEnvLOffset", TextureStage 24 "TextureTransformFlags",
    TextureStage 32 "Constant",
    // 121..=126.
    NPatchMode 0 "NPatchMode", Fvf 0 "FVF", Transform 3 "ProjectionTransform",
    Transform 2 "ViewTransform", Transform 256 "WorldTransform", Transform 16 "TextureTransform",
    // Material, 127..=131.
    Material 0 "MaterialDiffuse", Material 1 "MaterialAmbient", Material 2 "MaterialSpecular",
    Material 3 "MaterialEmissive", Material 4 "MaterialPower",
    // Light, 132..=144.
    Light 0 "LightType", Light 1 "LightDiffuse", Light 2 "LightSpecular", Light 3 "LightAmbient",
    Light 4 "LightPosition", Light 5 "LightDirection", Light 6 "LightRange", Light 7 "LightFalloff",
    Light 8 "LightAttenuation0", Light 9 "LightAttenuation1", Light 10 "LightAttenuation2",
    Light 11 "LightTheta", Light 12 "LightPhi",
    // 145..=147.
    LightEnable 0 "LightEnable", VertexShader 0 "VertexShader", PixelShader 0 "PixelShader",
    // Shader constants, 148..=163.
    ShaderConstant 0 "VertexShaderConstantF", ShaderConstant 1 "VertexShaderConstantB",
    ShaderConstant 2 "VertexShaderConstantI", ShaderConstant 0 "VertexShaderConstant",
    ShaderConstant 0 "VertexShaderConstant1", ShaderConstant 0 "VertexShaderConstant2",
    ShaderConstant 0 "VertexShaderConstant3", ShaderConstant 0 "VertexShaderConstant4",
    ShaderConstant 3 "PixelShaderConstantF", ShaderConstant 4 "PixelShaderConstantB",
    ShaderConstant 5 "PixelShaderConstantI", ShaderConstant 3 "PixelShaderConstant",
    ShaderConstant 3 "PixelShaderConstant1", ShaderConstant 3 "PixelShaderConstant2",
    ShaderConstant 3 "PixelShaderConstant3", ShaderConstant 3 "PixelShaderConstant4",
    // Texture and sampler states, 164..=177.
    Texture 0 "Texture", Sampler 1 "AddressU", Sampler 2 "AddressV", Sampler 3 "AddressW",
    Sampler 4 "BorderColor", Sampler 5 "MagFilter", Sampler 6 "MinFilter", Sampler 7 "MipFilter",
    Sampler 8 "MipMapLodBias", Sampler 9 "MaxMipLevel", Sampler 10 "MaxAnisotropy",
    Sampler 11 "SRGBTexture", Sampler 12 "ElementIndex", Sampler 13 "DMAPOffset",
    // 178.
    SetSampler 0 "Sampler",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_positions_match_the_known_operations() {
        // Operations checked against the corpus (README of the effects folder) and Wine's
        // table comments (every 16th entry).
        assert_eq!(STATE_TABLE.len(), 179);
        let at = |op: u32| state_info(op).unwrap().name;
        assert_eq!(at(0x10), "FogColor");
        assert_eq!(at(0x20), "Wrap1");
        assert_eq!(at(0x30), "Lighting");
        assert_eq!(at(0x40), "PointScaleEnable");
        assert_eq!(at(0x50), "AntialiasedLineEnable");
        assert_eq!(at(0x60), "BlendFactor");
        assert_eq!(at(0x70), "BumpEnvMat00");
        assert_eq!(at(0x80), "MaterialAmbient");
        assert_eq!(at(0x90), "LightPhi");
        assert_eq!(at(0xa0), "PixelShaderConstant1");
        assert_eq!(at(0xb0), "ElementIndex");
        assert_eq!(at(125), "WorldTransform");
        assert_eq!(at(132), "LightType");
        assert_eq!(at(145), "LightEnable");
        assert_eq!(at(155), "VertexShaderConstant4");
        assert_eq!(at(OP_VERTEX_SHADER), "VertexShader");
        assert_eq!(at(OP_PIXEL_SHADER), "PixelShader");
        assert_eq!(at(OP_TEXTURE), "Texture");
        assert_eq!(at(165), "AddressU");
        assert_eq!(at(166), "AddressV");
        assert_eq!(at(169), "MagFilter");
        assert_eq!(at(170), "MinFilter");
        assert_eq!(at(171), "MipFilter");
        assert_eq!(at(OP_SET_SAMPLER), "Sampler");
        assert!(state_info(179).is_none());
        assert_eq!(state_by_name("minfilter"), Some(170));
        // Names are unique, so names identify operations.
        let mut names: Vec<_> = STATE_TABLE.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), STATE_TABLE.len());
    }
}
