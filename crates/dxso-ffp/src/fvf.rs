//! FVF codes (`D3DFVF_*`): which components a vertex has, their types, offsets and meanings.

use crate::d3d::fvf as f;
use crate::error::FfpError;
use dxso::DeclUsage;

/// How the position is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    /// `XYZ` (and `XYZB1`..`XYZB5`): model space, three floats.
    Xyz,
    /// `XYZW`: model space, four floats.
    Xyzw,
    /// `XYZRHW`: screen space x, y, z and the reciprocal of w; not transformed or lit.
    Xyzrhw,
}

/// The type of one component in the vertex (as `D3DDECLTYPE` names them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// One to four floats.
    Float(u8),
    /// A D3DCOLOR (BGRA bytes, read as RGBA in 0..1).
    D3dColor,
    /// Four unsigned bytes.
    Ubyte4,
}

impl ElementType {
    /// Its size in bytes.
    pub fn size(self) -> u32 {
        match self {
            ElementType::Float(n) => 4 * n as u32,
            ElementType::D3dColor | ElementType::Ubyte4 => 4,
        }
    }
}

/// One component of an FVF vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Element {
    /// Byte offset in the vertex.
    pub offset: u32,
    /// Its type.
    pub ty: ElementType,
    /// Its meaning.
    pub usage: DeclUsage,
    /// Its usage index.
    pub index: u8,
}

/// A decoded FVF code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fvf {
    /// The code.
    pub code: u32,
    /// The position's form.
    pub position: Position,
    /// Floats after the position (`XYZBn`: n), the last of which may be the blend indices.
    pub betas: u8,
    /// The last beta holds four blend indices (`LASTBETA_UBYTE4` or `LASTBETA_D3DCOLOR`).
    pub indices: Option<ElementType>,
    /// A normal (three floats).
    pub normal: bool,
    /// A point size (one float).
    pub psize: bool,
    /// A diffuse colour.
    pub diffuse: bool,
    /// A specular colour.
    pub specular: bool,
    /// Float counts of each texture coordinate set (`D3DFVF_TEXCOORDSIZEn`).
    pub tex: Vec<u8>,
}

impl Fvf {
    /// Decodes `code`, refusing reserved bits and undefined combinations.
    pub fn decode(code: u32) -> Result<Fvf, FfpError> {
        let bad = |rule| Err(FfpError::BadFvf { code, rule });
        if code & f::RESERVED0 != 0 {
            return bad("bit 0 (D3DFVF_RESERVED0) is set");
        }
        if code & 0x2000 != 0 {
            return bad("bit 13 (D3DFVF_RESERVED2) is set");
        }
        let (position, betas) = match code & f::POSITION_MASK {
            f::XYZ => (Position::Xyz, 0),
            f::XYZW => (Position::Xyzw, 0),
            f::XYZRHW => (Position::Xyzrhw, 0),
            p @ (f::XYZB1 | f::XYZB2 | f::XYZB3 | f::XYZB4 | f::XYZB5) => {
                (Position::Xyz, ((p - f::XYZB1) / 2 + 1) as u8)
            }
            0 => return bad("no position"),
            _ => return bad("the position bits name no position type"),
        };
        let last = code & (f::LASTBETA_UBYTE4 | f::LASTBETA_D3DCOLOR);
        let indices = match last {
            0 => None,
            _ if betas == 0 => return bad("a LASTBETA flag without blend weights"),
            f::LASTBETA_UBYTE4 => Some(ElementType::Ubyte4),
            f::LASTBETA_D3DCOLOR => Some(ElementType::D3dColor),
            _ => return bad("both LASTBETA_UBYTE4 and LASTBETA_D3DCOLOR"),
        };
        let count = (code & f::TEXCOUNT_MASK) >> f::TEXCOUNT_SHIFT;
        if count > 8 {
            return bad("more than 8 texture coordinate sets");
        }
        let tex = (0..count)
            .map(|i| match (code >> (16 + 2 * i)) & 3 {
                0 => 2,
                1 => 3,
                2 => 4,
                _ => 1,
            })
            .collect();
        Ok(Fvf {
            code,
            position,
            betas,
            indices,
            normal: code & f::NORMAL != 0,
            psize: code & f::PSIZE != 0,
            diffuse: code & f::DIFFUSE != 0,
            specular: code & f::SPECULAR != 0,
            tex,
        })
    }

    /// Blend weights in the vertex (the betas less the one holding indices).
    pub fn weights(&self) -> u8 {
        self.betas - u8::from(self.indices.is_some())
    }

    /// Every component in vertex order.
    pub fn elements(&self) -> Vec<Element> {
        let mut out = Vec::new();
        let mut offset = 0;
        let mut push = |ty: ElementType, usage, index| {
            out.push(Element {
                offset,
                ty,
                usage,
                index,
            });
            offset += ty.size();
        };
        match self.position {
            Position::Xyz => push(ElementType::Float(3), DeclUsage::Position, 0),
            Position::Xyzw => push(ElementType::Float(4), DeclUsage::Position, 0),
            Position::Xyzrhw => push(ElementType::Float(4), DeclUsage::PositionT, 0),
        }
        if self.weights() > 0 {
            push(
                ElementType::Float(self.weights()),
                DeclUsage::BlendWeight,
                0,
            );
        }
        if let Some(ty) = self.indices {
            push(ty, DeclUsage::BlendIndices, 0);
        }
        if self.normal {
            push(ElementType::Float(3), DeclUsage::Normal, 0);
        }
        if self.psize {
            push(ElementType::Float(1), DeclUsage::PSize, 0);
        }
        if self.diffuse {
            push(ElementType::D3dColor, DeclUsage::Color, 0);
        }
        if self.specular {
            push(ElementType::D3dColor, DeclUsage::Color, 1);
        }
        for (i, &n) in self.tex.iter().enumerate() {
            push(ElementType::Float(n), DeclUsage::TexCoord, i as u8);
        }
        out
    }

    /// Bytes per vertex.
    pub fn stride(&self) -> u32 {
        self.elements().last().map_or(0, |e| e.offset + e.ty.size())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_offsets() {
        // XYZB3 | LASTBETA_UBYTE4 | NORMAL | DIFFUSE | TEX2 with set 1 of three floats.
        let code = f::XYZB3 | f::LASTBETA_UBYTE4 | f::NORMAL | f::DIFFUSE | 0x200 | (1 << 18);
        let v = Fvf::decode(code).unwrap();
        assert_eq!(v.weights(), 2);
        let e = v.elements();
        let offsets: Vec<u32> = e.iter().map(|e| e.offset).collect();
        assert_eq!(offsets, [0, 12, 20, 24, 36, 40, 48]);
        assert_eq!(v.stride(), 60);
    }

    #[test]
    fn bad_codes_are_named() {
        for code in [
            0,
            1,
            f::XYZ | 0x2000,
            f::XYZ | f::LASTBETA_UBYTE4,
            f::XYZ | 0x900,
        ] {
            assert!(Fvf::decode(code).is_err(), "{code:#x}");
        }
    }
}
