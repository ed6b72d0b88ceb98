//! Direct3D 9's numbers for the fixed-function pipeline: render states, texture-stage states,
//! transform states, FVF bits, `D3DTOP`, `D3DTA`, light types, fog modes, material sources,
//! texture-coordinate generation and texture-transform flags.

/// `D3DRENDERSTATETYPE` values the fixed-function pipeline reads.
pub mod rs {
    #![allow(missing_docs)]
    pub const ALPHATESTENABLE: u32 = 15;
    pub const ALPHAREF: u32 = 24;
    pub const ALPHAFUNC: u32 = 25;
    pub const FOGENABLE: u32 = 28;
    pub const SPECULARENABLE: u32 = 29;
    pub const FOGCOLOR: u32 = 34;
    pub const FOGTABLEMODE: u32 = 35;
    pub const FOGSTART: u32 = 36;
    pub const FOGEND: u32 = 37;
    pub const FOGDENSITY: u32 = 38;
    pub const RANGEFOGENABLE: u32 = 48;
    pub const TEXTUREFACTOR: u32 = 60;
    pub const LIGHTING: u32 = 137;
    pub const AMBIENT: u32 = 139;
    pub const FOGVERTEXMODE: u32 = 140;
    pub const COLORVERTEX: u32 = 141;
    pub const LOCALVIEWER: u32 = 142;
    pub const NORMALIZENORMALS: u32 = 143;
    pub const DIFFUSEMATERIALSOURCE: u32 = 145;
    pub const SPECULARMATERIALSOURCE: u32 = 146;
    pub const AMBIENTMATERIALSOURCE: u32 = 147;
    pub const EMISSIVEMATERIALSOURCE: u32 = 148;
    pub const VERTEXBLEND: u32 = 151;
    pub const CLIPPLANEENABLE: u32 = 152;
    pub const POINTSIZE: u32 = 154;
    pub const POINTSIZE_MIN: u32 = 155;
    pub const POINTSCALEENABLE: u32 = 157;
    pub const POINTSCALE_A: u32 = 158;
    pub const POINTSCALE_B: u32 = 159;
    pub const POINTSCALE_C: u32 = 160;
    pub const POINTSIZE_MAX: u32 = 166;
    pub const INDEXEDVERTEXBLENDENABLE: u32 = 167;
    pub const TWEENFACTOR: u32 = 170;
}

/// `D3DTEXTURESTAGESTATETYPE` values of the texture cascade.
pub mod tss {
    #![allow(missing_docs)]
    pub const COLOROP: u32 = 1;
    pub const COLORARG1: u32 = 2;
    pub const COLORARG2: u32 = 3;
    pub const ALPHAOP: u32 = 4;
    pub const ALPHAARG1: u32 = 5;
    pub const ALPHAARG2: u32 = 6;
    pub const BUMPENVMAT00: u32 = 7;
    pub const BUMPENVMAT01: u32 = 8;
    pub const BUMPENVMAT10: u32 = 9;
    pub const BUMPENVMAT11: u32 = 10;
    pub const TEXCOORDINDEX: u32 = 11;
    pub const BUMPENVLSCALE: u32 = 22;
    pub const BUMPENVLOFFSET: u32 = 23;
    pub const TEXTURETRANSFORMFLAGS: u32 = 24;
    pub const COLORARG0: u32 = 26;
    pub const ALPHAARG0: u32 = 27;
    pub const RESULTARG: u32 = 28;
    pub const CONSTANT: u32 = 32;
}

/// `D3DTRANSFORMSTATETYPE`.
pub mod ts {
    #![allow(missing_docs)]
    pub const VIEW: u32 = 2;
    pub const PROJECTION: u32 = 3;
    pub const TEXTURE0: u32 = 16;
    pub const TEXTURE7: u32 = 23;
    /// `D3DTS_WORLDMATRIX(n)` is `WORLD + n` for n in 0..=255.
    pub const WORLD: u32 = 256;
    pub const WORLD255: u32 = 511;
}

/// `D3DFVF_*` bits.
pub mod fvf {
    #![allow(missing_docs)]
    pub const RESERVED0: u32 = 0x001;
    pub const POSITION_MASK: u32 = 0x400E;
    pub const XYZ: u32 = 0x002;
    pub const XYZRHW: u32 = 0x004;
    pub const XYZB1: u32 = 0x006;
    pub const XYZB2: u32 = 0x008;
    pub const XYZB3: u32 = 0x00A;
    pub const XYZB4: u32 = 0x00C;
    pub const XYZB5: u32 = 0x00E;
    pub const XYZW: u32 = 0x4002;
    pub const NORMAL: u32 = 0x010;
    pub const PSIZE: u32 = 0x020;
    pub const DIFFUSE: u32 = 0x040;
    pub const SPECULAR: u32 = 0x080;
    pub const TEXCOUNT_MASK: u32 = 0xF00;
    pub const TEXCOUNT_SHIFT: u32 = 8;
    pub const LASTBETA_UBYTE4: u32 = 0x1000;
    pub const LASTBETA_D3DCOLOR: u32 = 0x8000;
    pub const RESERVED2: u32 = 0x6000;
}

/// `D3DTEXTUREOP`.
pub mod top {
    #![allow(missing_docs)]
    pub const DISABLE: u32 = 1;
    pub const SELECTARG1: u32 = 2;
    pub const SELECTARG2: u32 = 3;
    pub const MODULATE: u32 = 4;
    pub const MODULATE2X: u32 = 5;
    pub const MODULATE4X: u32 = 6;
    pub const ADD: u32 = 7;
    pub const ADDSIGNED: u32 = 8;
    pub const ADDSIGNED2X: u32 = 9;
    pub const SUBTRACT: u32 = 10;
    pub const ADDSMOOTH: u32 = 11;
    pub const BLENDDIFFUSEALPHA: u32 = 12;
    pub const BLENDTEXTUREALPHA: u32 = 13;
    pub const BLENDFACTORALPHA: u32 = 14;
    pub const BLENDTEXTUREALPHAPM: u32 = 15;
    pub const BLENDCURRENTALPHA: u32 = 16;
    pub const PREMODULATE: u32 = 17;
    pub const MODULATEALPHA_ADDCOLOR: u32 = 18;
    pub const MODULATECOLOR_ADDALPHA: u32 = 19;
    pub const MODULATEINVALPHA_ADDCOLOR: u32 = 20;
    pub const MODULATEINVCOLOR_ADDALPHA: u32 = 21;
    pub const BUMPENVMAP: u32 = 22;
    pub const BUMPENVMAPLUMINANCE: u32 = 23;
    pub const DOTPRODUCT3: u32 = 24;
    pub const MULTIPLYADD: u32 = 25;
    pub const LERP: u32 = 26;
}

/// `D3DTA_*` argument selectors and modifiers.
pub mod ta {
    #![allow(missing_docs)]
    pub const SELECTMASK: u32 = 0x0F;
    pub const DIFFUSE: u32 = 0;
    pub const CURRENT: u32 = 1;
    pub const TEXTURE: u32 = 2;
    pub const TFACTOR: u32 = 3;
    pub const SPECULAR: u32 = 4;
    pub const TEMP: u32 = 5;
    pub const CONSTANT: u32 = 6;
    pub const COMPLEMENT: u32 = 0x10;
    pub const ALPHAREPLICATE: u32 = 0x20;
}

/// `D3DLIGHTTYPE`.
pub mod light {
    #![allow(missing_docs)]
    pub const POINT: u32 = 1;
    pub const SPOT: u32 = 2;
    pub const DIRECTIONAL: u32 = 3;
}

/// `D3DFOGMODE`.
pub mod fog {
    #![allow(missing_docs)]
    pub const NONE: u32 = 0;
    pub const EXP: u32 = 1;
    pub const EXP2: u32 = 2;
    pub const LINEAR: u32 = 3;
}

/// `D3DMATERIALCOLORSOURCE`.
pub mod mcs {
    #![allow(missing_docs)]
    pub const MATERIAL: u32 = 0;
    pub const COLOR1: u32 = 1;
    pub const COLOR2: u32 = 2;
}

/// `D3DTSS_TCI_*`: the generation mode in the high word of TEXCOORDINDEX.
pub mod tci {
    #![allow(missing_docs)]
    pub const PASSTHRU: u32 = 0x00000;
    pub const CAMERASPACENORMAL: u32 = 0x10000;
    pub const CAMERASPACEPOSITION: u32 = 0x20000;
    pub const CAMERASPACEREFLECTIONVECTOR: u32 = 0x30000;
    pub const SPHEREMAP: u32 = 0x40000;
}

/// `D3DTEXTURETRANSFORMFLAGS`.
pub mod ttff {
    #![allow(missing_docs)]
    pub const DISABLE: u32 = 0;
    pub const PROJECTED: u32 = 256;
}

/// `D3DVERTEXBLENDFLAGS`.
pub mod vbf {
    #![allow(missing_docs)]
    pub const DISABLE: u32 = 0;
    pub const WEIGHTS1: u32 = 1;
    pub const WEIGHTS2: u32 = 2;
    pub const WEIGHTS3: u32 = 3;
    pub const TWEENING: u32 = 255;
    pub const WEIGHTS0: u32 = 256;
}
