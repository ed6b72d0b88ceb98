//! The value names effect files write for enumerated states (`SrcBlend = SRCALPHA;`,
//! `MinFilter = LINEAR;`), by the state's effect-file name and the device value.

const BLEND: &[&str] = &[
    "",
    "ZERO",
    "ONE",
    "SRCCOLOR",
    "INVSRCCOLOR",
    "SRCALPHA",
    "INVSRCALPHA",
    "DESTALPHA",
    "INVDESTALPHA",
    "DESTCOLOR",
    "INVDESTCOLOR",
    "SRCALPHASAT",
    "BOTHSRCALPHA",
    "BOTHINVSRCALPHA",
    "BLENDFACTOR",
    "INVBLENDFACTOR",
];
const BLEND_OP: &[&str] = &["", "ADD", "SUBTRACT", "REVSUBTRACT", "MIN", "MAX"];
const CMP: &[&str] = &[
    "",
    "NEVER",
    "LESS",
    "EQUAL",
    "LESSEQUAL",
    "GREATER",
    "NOTEQUAL",
    "GREATEREQUAL",
    "ALWAYS",
];
const CULL: &[&str] = &["", "NONE", "CW", "CCW"];
const FILL: &[&str] = &["", "POINT", "WIREFRAME", "SOLID"];
const SHADE: &[&str] = &["", "FLAT", "GOURAUD", "PHONG"];
const STENCIL_OP: &[&str] = &[
    "", "KEEP", "ZERO", "REPLACE", "INCRSAT", "DECRSAT", "INVERT", "INCR", "DECR",
];
const ADDRESS: &[&str] = &["", "WRAP", "MIRROR", "CLAMP", "BORDER", "MIRRORONCE"];
const FILTER: &[&str] = &[
    "NONE",
    "POINT",
    "LINEAR",
    "ANISOTROPIC",
    "",
    "",
    "PYRAMIDALQUAD",
    "GAUSSIANQUAD",
];
const TEXTURE_OP: &[&str] = &[
    "",
    "DISABLE",
    "SELECTARG1",
    "SELECTARG2",
    "MODULATE",
    "MODULATE2X",
    "MODULATE4X",
    "ADD",
    "ADDSIGNED",
    "ADDSIGNED2X",
    "SUBTRACT",
    "ADDSMOOTH",
    "BLENDDIFFUSEALPHA",
    "BLENDTEXTUREALPHA",
    "BLENDFACTORALPHA",
    "BLENDTEXTUREALPHAPM",
    "BLENDCURRENTALPHA",
    "PREMODULATE",
    "MODULATEALPHA_ADDCOLOR",
    "MODULATECOLOR_ADDALPHA",
    "MODULATEINVALPHA_ADDCOLOR",
    "MODULATEINVCOLOR_ADDALPHA",
    "BUMPENVMAP",
    "BUMPENVMAPLUMINANCE",
    "DOTPRODUCT3",
    "MULTIPLYADD",
    "LERP",
];
const TEXTURE_ARG: &[&str] = &[
    "DIFFUSE", "CURRENT", "TEXTURE", "TFACTOR", "SPECULAR", "TEMP", "CONSTANT",
];
const FOG: &[&str] = &["NONE", "EXP", "EXP2", "LINEAR"];
const MATERIAL_SOURCE: &[&str] = &["MATERIAL", "COLOR1", "COLOR2"];
const VERTEX_BLEND: &[&str] = &["DISABLE", "1WEIGHTS", "2WEIGHTS", "3WEIGHTS"];
const LIGHT_TYPE: &[&str] = &["", "POINT", "SPOT", "DIRECTIONAL"];

/// The name of `value` for the state `state`, when the state is enumerated and the value one
/// of its names.
pub(crate) fn value_name(state: &str, value: u32) -> Option<String> {
    let pick = |t: &[&'static str]| {
        t.get(value as usize)
            .filter(|s| !s.is_empty())
            .map(|s| s.to_string())
    };
    match state {
        "SrcBlend" | "DestBlend" | "SrcBlendAlpha" | "DestBlendAlpha" => pick(BLEND),
        "BlendOp" | "BlendOpAlpha" => pick(BLEND_OP),
        "ZFunc" | "AlphaFunc" | "StencilFunc" | "CCW_StencilFunc" => pick(CMP),
        "CullMode" => pick(CULL),
        "FillMode" => pick(FILL),
        "ShadeMode" => pick(SHADE),
        "StencilFail" | "StencilZFail" | "StencilPass" | "CCW_StencilFail" | "CCW_StencilZFail"
        | "CCW_StencilPass" => pick(STENCIL_OP),
        "AddressU" | "AddressV" | "AddressW" => pick(ADDRESS),
        "MinFilter" | "MagFilter" | "MipFilter" => pick(FILTER),
        "ColorOp" | "AlphaOp" => pick(TEXTURE_OP),
        "ColorArg0" | "ColorArg1" | "ColorArg2" | "AlphaArg0" | "AlphaArg1" | "AlphaArg2"
        | "ResultArg" => texture_arg(value),
        "FogTableMode" | "FogVertexMode" => pick(FOG),
        "DiffuseMaterialSource"
        | "SpecularMaterialSource"
        | "AmbientMaterialSource"
        | "EmissiveMaterialSource" => pick(MATERIAL_SOURCE),
        "VertexBlend" => match value {
            255 => Some("TWEENING".into()),
            256 => Some("0WEIGHTS".into()),
            _ => pick(VERTEX_BLEND),
        },
        "LightType" => pick(LIGHT_TYPE),
        _ if is_boolean(state) && value <= 1 => {
            Some(if value == 1 { "TRUE" } else { "FALSE" }.into())
        }
        _ => None,
    }
}

/// `D3DTA_*` with its modifier bits (`TEXTURE | COMPLEMENT`).
fn texture_arg(value: u32) -> Option<String> {
    let base = TEXTURE_ARG.get((value & 0xF) as usize)?;
    if value & !0x3F != 0 {
        return None;
    }
    let mut s = base.to_string();
    if value & 0x10 != 0 {
        s.push_str(" | COMPLEMENT");
    }
    if value & 0x20 != 0 {
        s.push_str(" | ALPHAREPLICATE");
    }
    Some(s)
}

/// States whose value is a `BOOL`.
fn is_boolean(state: &str) -> bool {
    (state.ends_with("Enable")
        && !state.starts_with("ColorWriteEnable")
        && state != "ClipPlaneEnable")
        || matches!(
            state,
            "LightEnable"
                | "Lighting"
                | "SpecularEnable"
                | "ZWriteEnable"
                | "DitherEnable"
                | "LastPixel"
                | "Clipping"
                | "LocalViewer"
                | "NormalizeNormals"
                | "ColorVertex"
                | "PointSpriteEnable"
                | "PointScaleEnable"
                | "IndexedVertexBlendEnable"
                | "MultiSampleAntialias"
                | "SRGBTexture"
                | "SeparateAlphaBlendEnable"
                | "TwoSidedStencilMode"
                | "ScissorTestEnable"
                | "AntialiasedLineEnable"
                | "EnableAdaptiveTessellation"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerations_and_booleans_have_names() {
        assert_eq!(value_name("SrcBlend", 5).as_deref(), Some("SRCALPHA"));
        assert_eq!(value_name("CullMode", 1).as_deref(), Some("NONE"));
        assert_eq!(value_name("MinFilter", 2).as_deref(), Some("LINEAR"));
        assert_eq!(value_name("AlphaBlendEnable", 1).as_deref(), Some("TRUE"));
        assert_eq!(
            value_name("ColorArg1", 0x12).as_deref(),
            Some("TEXTURE | COMPLEMENT")
        );
        assert_eq!(value_name("ColorWriteEnable", 15), None);
        assert_eq!(value_name("SrcBlend", 99), None);
    }
}
