//! Direct3D 9 enumerations that render states, texture-stage states and draws carry as DWORDs,
//! with their SDK numbers and names (`D3DBLEND_SRCALPHA` is `Blend::SrcAlpha`, 5).

use crate::named::named_enum;

named_enum! {
    /// `D3DPRIMITIVETYPE`.
    PrimitiveType: u32, from_u32 {
        /// Isolated points.
        PointList = 1, "POINTLIST";
        /// Pairs of vertices, one segment each.
        LineList = 2, "LINELIST";
        /// A connected polyline.
        LineStrip = 3, "LINESTRIP";
        /// Triples of vertices.
        TriangleList = 4, "TRIANGLELIST";
        /// Each vertex after the second makes a triangle with the two before it.
        TriangleStrip = 5, "TRIANGLESTRIP";
        /// Each vertex after the second makes a triangle with the first and the one before it.
        TriangleFan = 6, "TRIANGLEFAN";
    }
}

named_enum! {
    /// `D3DZBUFFERTYPE` (`D3DRS_ZENABLE`).
    ZBuffer: u32, from_u32 {
        /// No depth buffering.
        False = 0, "FALSE";
        /// Z-buffering.
        True = 1, "TRUE";
        /// W-buffering.
        UseW = 2, "USEW";
    }
}

named_enum! {
    /// `D3DFILLMODE`.
    FillMode: u32, from_u32 {
        /// Vertices only.
        Point = 1, "POINT";
        /// Edges only.
        Wireframe = 2, "WIREFRAME";
        /// Filled triangles.
        Solid = 3, "SOLID";
    }
}

named_enum! {
    /// `D3DSHADEMODE`.
    ShadeMode: u32, from_u32 {
        /// The first vertex's colour across the primitive.
        Flat = 1, "FLAT";
        /// Interpolated colours.
        Gouraud = 2, "GOURAUD";
        /// Not supported by Direct3D 9 devices.
        Phong = 3, "PHONG";
    }
}

named_enum! {
    /// `D3DBLEND`: a blend factor.
    Blend: u32, from_u32 {
        /// (0, 0, 0, 0).
        Zero = 1, "ZERO";
        /// (1, 1, 1, 1).
        One = 2, "ONE";
        /// The source colour.
        SrcColor = 3, "SRCCOLOR";
        /// One minus the source colour.
        InvSrcColor = 4, "INVSRCCOLOR";
        /// The source alpha.
        SrcAlpha = 5, "SRCALPHA";
        /// One minus the source alpha.
        InvSrcAlpha = 6, "INVSRCALPHA";
        /// The destination alpha.
        DestAlpha = 7, "DESTALPHA";
        /// One minus the destination alpha.
        InvDestAlpha = 8, "INVDESTALPHA";
        /// The destination colour.
        DestColor = 9, "DESTCOLOR";
        /// One minus the destination colour.
        InvDestColor = 10, "INVDESTCOLOR";
        /// (f, f, f, 1) with f = min(As, 1 - Ad).
        SrcAlphaSat = 11, "SRCALPHASAT";
        /// Obsolete: source SRCALPHA and destination INVSRCALPHA.
        BothSrcAlpha = 12, "BOTHSRCALPHA";
        /// Obsolete: source INVSRCALPHA and destination SRCALPHA.
        BothInvSrcAlpha = 13, "BOTHINVSRCALPHA";
        /// `D3DRS_BLENDFACTOR`.
        BlendFactor = 14, "BLENDFACTOR";
        /// One minus `D3DRS_BLENDFACTOR`.
        InvBlendFactor = 15, "INVBLENDFACTOR";
        /// The second source colour (dual-source blending).
        SrcColor2 = 16, "SRCCOLOR2";
        /// One minus the second source colour.
        InvSrcColor2 = 17, "INVSRCCOLOR2";
    }
}

named_enum! {
    /// `D3DBLENDOP`.
    BlendOp: u32, from_u32 {
        /// Source + destination.
        Add = 1, "ADD";
        /// Source - destination.
        Subtract = 2, "SUBTRACT";
        /// Destination - source.
        RevSubtract = 3, "REVSUBTRACT";
        /// min(source, destination), factors ignored.
        Min = 4, "MIN";
        /// max(source, destination), factors ignored.
        Max = 5, "MAX";
    }
}

named_enum! {
    /// `D3DCMPFUNC`: depth, alpha and stencil comparisons (new value against reference).
    CmpFunc: u32, from_u32 {
        /// Always fails.
        Never = 1, "NEVER";
        /// Passes when new < reference.
        Less = 2, "LESS";
        /// Passes when equal.
        Equal = 3, "EQUAL";
        /// Passes when new <= reference.
        LessEqual = 4, "LESSEQUAL";
        /// Passes when new > reference.
        Greater = 5, "GREATER";
        /// Passes when different.
        NotEqual = 6, "NOTEQUAL";
        /// Passes when new >= reference.
        GreaterEqual = 7, "GREATEREQUAL";
        /// Always passes.
        Always = 8, "ALWAYS";
    }
}

impl CmpFunc {
    /// Whether `new` passes against `reference`. Any comparison with NaN fails except
    /// NOTEQUAL and ALWAYS, as IEEE comparisons do.
    pub fn passes<T: PartialOrd>(self, new: T, reference: T) -> bool {
        match self {
            CmpFunc::Never => false,
            CmpFunc::Less => new < reference,
            CmpFunc::Equal => new == reference,
            CmpFunc::LessEqual => new <= reference,
            CmpFunc::Greater => new > reference,
            CmpFunc::NotEqual => new != reference,
            CmpFunc::GreaterEqual => new >= reference,
            CmpFunc::Always => true,
        }
    }
}

named_enum! {
    /// `D3DCULL`: which winding is culled (of the triangle as it lands on the screen).
    Cull: u32, from_u32 {
        /// Nothing is culled.
        None = 1, "NONE";
        /// Clockwise triangles are culled.
        Cw = 2, "CW";
        /// Counter-clockwise triangles are culled (the default).
        Ccw = 3, "CCW";
    }
}

named_enum! {
    /// `D3DSTENCILOP`.
    StencilOp: u32, from_u32 {
        /// Keep the entry.
        Keep = 1, "KEEP";
        /// Set it to 0.
        Zero = 2, "ZERO";
        /// Set it to the reference.
        Replace = 3, "REPLACE";
        /// Increment, clamping.
        IncrSat = 4, "INCRSAT";
        /// Decrement, clamping.
        DecrSat = 5, "DECRSAT";
        /// Invert the bits.
        Invert = 6, "INVERT";
        /// Increment, wrapping.
        Incr = 7, "INCR";
        /// Decrement, wrapping.
        Decr = 8, "DECR";
    }
}

named_enum! {
    /// `D3DTEXTUREADDRESS`.
    TextureAddress: u32, from_u32 {
        /// Repeat.
        Wrap = 1, "WRAP";
        /// Repeat, mirrored every other time.
        Mirror = 2, "MIRROR";
        /// Clamp to the edge texel.
        Clamp = 3, "CLAMP";
        /// Outside 0..1 the border colour.
        Border = 4, "BORDER";
        /// Mirror once about 0, then clamp.
        MirrorOnce = 5, "MIRRORONCE";
    }
}

named_enum! {
    /// `D3DTEXTUREFILTERTYPE`.
    TextureFilter: u32, from_u32 {
        /// No filtering (for MIPFILTER: no mipmapping).
        None = 0, "NONE";
        /// Nearest texel.
        Point = 1, "POINT";
        /// Bilinear.
        Linear = 2, "LINEAR";
        /// Anisotropic.
        Anisotropic = 3, "ANISOTROPIC";
        /// Four-sample tent.
        PyramidalQuad = 6, "PYRAMIDALQUAD";
        /// Four-sample Gaussian.
        GaussianQuad = 7, "GAUSSIANQUAD";
    }
}

named_enum! {
    /// `D3DDEGREETYPE` (`D3DRS_POSITIONDEGREE`, `D3DRS_NORMALDEGREE`, patch degrees).
    Degree: u32, from_u32 {
        /// Linear.
        Linear = 1, "LINEAR";
        /// Quadratic.
        Quadratic = 2, "QUADRATIC";
        /// Cubic.
        Cubic = 3, "CUBIC";
        /// Quintic.
        Quintic = 5, "QUINTIC";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_and_without_prefix() {
        assert_eq!(
            Blend::from_name("D3DBLEND_INVSRCALPHA"),
            Some(Blend::InvSrcAlpha)
        );
        assert_eq!(CmpFunc::from_name("lessequal"), Some(CmpFunc::LessEqual));
        assert_eq!(Cull::from_u32(3), Some(Cull::Ccw));
        assert_eq!(
            TextureFilter::from_name("D3DTEXF_LINEAR"),
            Some(TextureFilter::Linear)
        );
        assert_eq!(PrimitiveType::from_u32(7), None);
        for &b in Blend::ALL {
            assert_eq!(Blend::from_u32(b as u32), Some(b));
            assert_eq!(Blend::from_name(b.name()), Some(b));
        }
    }

    #[test]
    fn comparisons_follow_ieee_on_nan() {
        assert!(CmpFunc::LessEqual.passes(0.5, 0.5));
        assert!(!CmpFunc::Less.passes(0.5, 0.5));
        assert!(!CmpFunc::Less.passes(f32::NAN, 1.0));
        assert!(CmpFunc::NotEqual.passes(f32::NAN, 1.0));
        assert!(CmpFunc::Always.passes(f32::NAN, 1.0));
        assert!(!CmpFunc::Never.passes(0.0, 1.0));
    }
}

named_enum! {
    /// `D3DTEXTUREOP` (`D3DTSS_COLOROP`, `D3DTSS_ALPHAOP`).
    TextureOp: u32, from_u32 {
        /// The stage and those after it are off.
        Disable = 1, "DISABLE";
        /// Arg1.
        SelectArg1 = 2, "SELECTARG1";
        /// Arg2.
        SelectArg2 = 3, "SELECTARG2";
        /// Arg1 * Arg2.
        Modulate = 4, "MODULATE";
        /// Arg1 * Arg2 * 2.
        Modulate2x = 5, "MODULATE2X";
        /// Arg1 * Arg2 * 4.
        Modulate4x = 6, "MODULATE4X";
        /// Arg1 + Arg2.
        Add = 7, "ADD";
        /// Arg1 + Arg2 - 0.5.
        AddSigned = 8, "ADDSIGNED";
        /// (Arg1 + Arg2 - 0.5) * 2.
        AddSigned2x = 9, "ADDSIGNED2X";
        /// Arg1 - Arg2.
        Subtract = 10, "SUBTRACT";
        /// Arg1 + Arg2 - Arg1 * Arg2.
        AddSmooth = 11, "ADDSMOOTH";
        /// Blend by the diffuse alpha.
        BlendDiffuseAlpha = 12, "BLENDDIFFUSEALPHA";
        /// Blend by the texture alpha.
        BlendTextureAlpha = 13, "BLENDTEXTUREALPHA";
        /// Blend by the texture factor's alpha.
        BlendFactorAlpha = 14, "BLENDFACTORALPHA";
        /// Blend with premultiplied texture alpha.
        BlendTextureAlphaPm = 15, "BLENDTEXTUREALPHAPM";
        /// Blend by the current alpha.
        BlendCurrentAlpha = 16, "BLENDCURRENTALPHA";
        /// Modulate with the next stage.
        Premodulate = 17, "PREMODULATE";
        /// Arg1 + Arg1.a * Arg2.
        ModulateAlphaAddColor = 18, "MODULATEALPHA_ADDCOLOR";
        /// Arg1 * Arg2 + Arg1.a.
        ModulateColorAddAlpha = 19, "MODULATECOLOR_ADDALPHA";
        /// (1 - Arg1.a) * Arg2 + Arg1.
        ModulateInvAlphaAddColor = 20, "MODULATEINVALPHA_ADDCOLOR";
        /// (1 - Arg1) * Arg2 + Arg1.a.
        ModulateInvColorAddAlpha = 21, "MODULATEINVCOLOR_ADDALPHA";
        /// Bump-environment mapping of the next stage.
        BumpEnvMap = 22, "BUMPENVMAP";
        /// Bump-environment mapping with luminance.
        BumpEnvMapLuminance = 23, "BUMPENVMAPLUMINANCE";
        /// 4 (Arg1 - 0.5).(Arg2 - 0.5) in every channel.
        DotProduct3 = 24, "DOTPRODUCT3";
        /// Arg0 + Arg1 * Arg2.
        MultiplyAdd = 25, "MULTIPLYADD";
        /// Arg0 * Arg1 + (1 - Arg0) * Arg2.
        Lerp = 26, "LERP";
    }
}

named_enum! {
    /// `D3DTA_*` selectors (the modifier bits COMPLEMENT 0x10 and ALPHAREPLICATE 0x20 are
    /// added as numbers).
    TextureArg: u32, from_u32 {
        /// The diffuse colour.
        Diffuse = 0, "DIFFUSE";
        /// The previous stage's result.
        Current = 1, "CURRENT";
        /// The stage's texture.
        Texture = 2, "TEXTURE";
        /// TEXTUREFACTOR.
        TFactor = 3, "TFACTOR";
        /// The specular colour.
        Specular = 4, "SPECULAR";
        /// The temporary register.
        Temp = 5, "TEMP";
        /// The stage's CONSTANT.
        Constant = 6, "CONSTANT";
    }
}

named_enum! {
    /// `D3DFOGMODE`.
    FogMode: u32, from_u32 {
        /// No fog.
        None = 0, "NONE";
        /// e^-(density d).
        Exp = 1, "EXP";
        /// e^-(density d)^2.
        Exp2 = 2, "EXP2";
        /// (end - d) / (end - start).
        Linear = 3, "LINEAR";
    }
}

named_enum! {
    /// `D3DMATERIALCOLORSOURCE`.
    MaterialSource: u32, from_u32 {
        /// The material.
        Material = 0, "MATERIAL";
        /// The diffuse vertex colour.
        Color1 = 1, "COLOR1";
        /// The specular vertex colour.
        Color2 = 2, "COLOR2";
    }
}
