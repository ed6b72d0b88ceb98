//! The value names effect sources give states (`MinFilter = Linear;`, `CullMode = None;`):
//! the Direct3D 9 enumerations each state takes, by the state's name in
//! [`STATE_TABLE`](crate::states::STATE_TABLE). Names compare without regard to case, as fxc
//! reads them; `TRUE` and `FALSE` are values of every state.

/// The enumeration a state's values come from.
fn enumeration(state: &str) -> &'static [(&'static str, u32)] {
    let s = state.to_ascii_lowercase();
    match s.as_str() {
        "zenable" => &[("usew", 2)],
        "fillmode" => &[("point", 1), ("wireframe", 2), ("solid", 3)],
        "shademode" => &[("flat", 1), ("gouraud", 2), ("phong", 3)],
        "srcblend" | "destblend" | "srcblendalpha" | "destblendalpha" => BLEND,
        "blendop" | "blendopalpha" => &[
            ("add", 1),
            ("subtract", 2),
            ("revsubtract", 3),
            ("min", 4),
            ("max", 5),
        ],
        "cullmode" => &[("none", 1), ("cw", 2), ("ccw", 3)],
        "zfunc" | "alphafunc" | "stencilfunc" | "ccw_stencilfunc" => CMP,
        "stencilfail" | "stencilzfail" | "stencilpass" | "ccw_stencilfail" | "ccw_stencilzfail"
        | "ccw_stencilpass" => &[
            ("keep", 1),
            ("zero", 2),
            ("replace", 3),
            ("incrsat", 4),
            ("decrsat", 5),
            ("invert", 6),
            ("incr", 7),
            ("decr", 8),
        ],
        "fogtablemode" | "fogvertexmode" => &[("none", 0), ("exp", 1), ("exp2", 2), ("linear", 3)],
        "minfilter" | "magfilter" | "mipfilter" => &[
            ("none", 0),
            ("point", 1),
            ("linear", 2),
            ("anisotropic", 3),
            ("pyramidalquad", 6),
            ("gaussianquad", 7),
        ],
        "addressu" | "addressv" | "addressw" => &[
            ("wrap", 1),
            ("mirror", 2),
            ("clamp", 3),
            ("border", 4),
            ("mirroronce", 5),
        ],
        "lighttype" => &[("point", 1), ("spot", 2), ("directional", 3)],
        "colorop" | "alphaop" => TEXTURE_OP,
        "colorarg0" | "colorarg1" | "colorarg2" | "alphaarg0" | "alphaarg1" | "alphaarg2"
        | "resultarg" => &[
            ("diffuse", 0),
            ("current", 1),
            ("texture", 2),
            ("tfactor", 3),
            ("specular", 4),
            ("temp", 5),
            ("constant", 6),
            ("complement", 0x10),
            ("alphareplicate", 0x20),
        ],
        "colorwriteenable" | "colorwriteenable1" | "colorwriteenable2" | "colorwriteenable3" => {
            &[("red", 1), ("green", 2), ("blue", 4), ("alpha", 8)]
        }
        "diffusematerialsource"
        | "specularmaterialsource"
        | "ambientmaterialsource"
        | "emissivematerialsource" => &[("material", 0), ("color1", 1), ("color2", 2)],
        "vertexblend" => &[
            ("disable", 0),
            ("1weights", 1),
            ("2weights", 2),
            ("3weights", 3),
            ("tweening", 255),
            ("0weights", 256),
        ],
        "patchedgestyle" => &[("discrete", 0), ("continuous", 1)],
        "texturetransformflags" => &[
            ("disable", 0),
            ("count1", 1),
            ("count2", 2),
            ("count3", 3),
            ("count4", 4),
            ("projected", 256),
        ],
        "positiondegree" | "normaldegree" => &[
            ("linear", 1),
            ("quadratic", 2),
            ("cubic", 3),
            ("quintic", 5),
        ],
        _ => &[],
    }
}

const BLEND: &[(&str, u32)] = &[
    ("zero", 1),
    ("one", 2),
    ("srccolor", 3),
    ("invsrccolor", 4),
    ("srcalpha", 5),
    ("invsrcalpha", 6),
    ("destalpha", 7),
    ("invdestalpha", 8),
    ("destcolor", 9),
    ("invdestcolor", 10),
    ("srcalphasat", 11),
    ("bothsrcalpha", 12),
    ("bothinvsrcalpha", 13),
    ("blendfactor", 14),
    ("invblendfactor", 15),
];

const CMP: &[(&str, u32)] = &[
    ("never", 1),
    ("less", 2),
    ("equal", 3),
    ("lessequal", 4),
    ("greater", 5),
    ("notequal", 6),
    ("greaterequal", 7),
    ("always", 8),
];

const TEXTURE_OP: &[(&str, u32)] = &[
    ("disable", 1),
    ("selectarg1", 2),
    ("selectarg2", 3),
    ("modulate", 4),
    ("modulate2x", 5),
    ("modulate4x", 6),
    ("add", 7),
    ("addsigned", 8),
    ("addsigned2x", 9),
    ("subtract", 10),
    ("addsmooth", 11),
    ("blenddiffusealpha", 12),
    ("blendtexturealpha", 13),
    ("blendfactoralpha", 14),
    ("blendtexturealphapm", 15),
    ("blendcurrentalpha", 16),
    ("premodulate", 17),
    ("modulatealpha_addcolor", 18),
    ("modulatecolor_addalpha", 19),
    ("modulateinvalpha_addcolor", 20),
    ("modulateinvcolor_addalpha", 21),
    ("bumpenvmap", 22),
    ("bumpenvmapluminance", 23),
    ("dotproduct3", 24),
    ("multiplyadd", 25),
    ("lerp", 26),
];

/// The number `value` names for `state` (both compared without regard to case), if it names
/// one.
pub fn value_by_name(state: &str, value: &str) -> Option<u32> {
    let v = value.to_ascii_lowercase();
    match v.as_str() {
        "true" => return Some(1),
        "false" => return Some(0),
        _ => {}
    }
    enumeration(state)
        .iter()
        .find(|(n, _)| *n == v)
        .map(|&(_, n)| n)
}

/// The name an effect source gives `value` of `state`, in upper case as fxc's sources write
/// it: an enumerated value by its name, a texture argument with its modifiers (`TEXTURE |
/// COMPLEMENT`), a boolean state's 0 and 1 as `FALSE` and `TRUE`; `None` for a number the
/// state does not name (and for the bit masks of `ColorWriteEnable`, written as numbers).
pub fn value_name(state: &str, value: u32) -> Option<String> {
    let lower = state.to_ascii_lowercase();
    if lower.starts_with("colorwriteenable") {
        return None;
    }
    let names = enumeration(state);
    let is_argument = names.iter().any(|&(n, _)| n == "complement");
    if is_argument {
        let base = names.iter().find(|&&(_, v)| v < 0x10 && v == value & 0xF)?;
        if value & !0x3F != 0 {
            return None;
        }
        let mut s = base.0.to_ascii_uppercase();
        for (bit, name) in [(0x10, " | COMPLEMENT"), (0x20, " | ALPHAREPLICATE")] {
            if value & bit != 0 {
                s.push_str(name);
            }
        }
        return Some(s);
    }
    if let Some(&(n, _)) = names.iter().find(|&&(_, v)| v == value) {
        return Some(n.to_ascii_uppercase());
    }
    (is_boolean(state) && value <= 1).then(|| if value == 1 { "TRUE" } else { "FALSE" }.into())
}

/// States whose value is a `BOOL` (by their names in the state table).
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
    use super::{value_by_name, value_name};

    #[test]
    fn names_read_back_as_their_values() {
        assert_eq!(value_name("SrcBlend", 5).as_deref(), Some("SRCALPHA"));
        assert_eq!(value_name("MinFilter", 2).as_deref(), Some("LINEAR"));
        assert_eq!(value_name("CullMode", 3).as_deref(), Some("CCW"));
        assert_eq!(value_name("ZEnable", 1).as_deref(), Some("TRUE"));
        assert_eq!(value_name("ZEnable", 2).as_deref(), Some("USEW"));
        assert_eq!(
            value_name("ColorArg1", 0x12).as_deref(),
            Some("TEXTURE | COMPLEMENT")
        );
        assert_eq!(value_name("ColorArg1", 0x40), None);
        assert_eq!(value_name("ColorWriteEnable", 15), None);
        assert_eq!(value_name("CullMode", 9), None);
        for (state, value) in [
            ("SrcBlend", 5),
            ("AddressU", 5),
            ("ColorOp", 26),
            ("FogTableMode", 3),
        ] {
            let name = value_name(state, value).expect("a name");
            assert_eq!(value_by_name(state, &name), Some(value), "{state} {name}");
        }
    }

    #[test]
    fn names_depend_on_the_state() {
        assert_eq!(value_by_name("CullMode", "None"), Some(1));
        assert_eq!(value_by_name("MipFilter", "NONE"), Some(0));
        assert_eq!(value_by_name("minfilter", "Linear"), Some(2));
        assert_eq!(value_by_name("FogTableMode", "linear"), Some(3));
        assert_eq!(value_by_name("LightType", "POINT"), Some(1));
        assert_eq!(value_by_name("SrcBlend", "InvSrcAlpha"), Some(6));
        assert_eq!(value_by_name("ZEnable", "TRUE"), Some(1));
        assert_eq!(value_by_name("ZEnable", "Linear"), None);
    }
}
