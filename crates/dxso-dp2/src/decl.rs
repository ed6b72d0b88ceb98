//! Vertex declarations: `D3DVERTEXELEMENT9`, its types, methods and usages, and reading one
//! element of one vertex out of a stream.

use crate::named::named_enum;
use serde::{Deserialize, Serialize};

/// One `D3DVERTEXELEMENT9` (8 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VertexElement {
    /// The stream the element is read from.
    pub stream: u16,
    /// Byte offset inside the stream's vertex.
    pub offset: u16,
    /// `D3DDECLTYPE`.
    pub ty: u8,
    /// `D3DDECLMETHOD`.
    pub method: u8,
    /// `D3DDECLUSAGE`.
    pub usage: u8,
    /// The usage index (`TEXCOORD1` has 1).
    pub usage_index: u8,
}

impl VertexElement {
    /// The element from its 8 little-endian bytes.
    pub fn from_bytes(b: [u8; 8]) -> Self {
        VertexElement {
            stream: u16::from_le_bytes([b[0], b[1]]),
            offset: u16::from_le_bytes([b[2], b[3]]),
            ty: b[4],
            method: b[5],
            usage: b[6],
            usage_index: b[7],
        }
    }

    /// The element's 8 bytes.
    pub fn to_bytes(self) -> [u8; 8] {
        let s = self.stream.to_le_bytes();
        let o = self.offset.to_le_bytes();
        [
            s[0],
            s[1],
            o[0],
            o[1],
            self.ty,
            self.method,
            self.usage,
            self.usage_index,
        ]
    }

    /// `D3DDECL_END()`: stream 0xFF, type UNUSED.
    pub fn is_end(&self) -> bool {
        self.stream == 0xFF && self.ty == DeclType::Unused as u8
    }

    /// The typed method, if known.
    pub fn method(&self) -> Option<DeclMethod> {
        DeclMethod::from_u8(self.method)
    }

    /// The typed data type, if known.
    pub fn decl_type(&self) -> Option<DeclType> {
        DeclType::from_u8(self.ty)
    }

    /// The typed usage, if known.
    pub fn decl_usage(&self) -> Option<DeclUsage> {
        DeclUsage::from_raw(self.usage)
    }

    /// The end marker.
    pub const END: VertexElement = VertexElement {
        stream: 0xFF,
        offset: 0,
        ty: DeclType::Unused as u8,
        method: 0,
        usage: 0,
        usage_index: 0,
    };
}

named_enum! {
    /// `D3DDECLTYPE`.
    DeclType: u8, from_u8 {
        /// One float.
        Float1 = 0, "FLOAT1";
        /// Two floats.
        Float2 = 1, "FLOAT2";
        /// Three floats.
        Float3 = 2, "FLOAT3";
        /// Four floats.
        Float4 = 3, "FLOAT4";
        /// Packed BGRA bytes, read as RGBA in 0..1.
        D3dColor = 4, "D3DCOLOR";
        /// Four unsigned bytes.
        Ubyte4 = 5, "UBYTE4";
        /// Two signed shorts.
        Short2 = 6, "SHORT2";
        /// Four signed shorts.
        Short4 = 7, "SHORT4";
        /// Four unsigned bytes divided by 255.
        Ubyte4N = 8, "UBYTE4N";
        /// Two signed shorts divided by 32767.
        Short2N = 9, "SHORT2N";
        /// Four signed shorts divided by 32767.
        Short4N = 10, "SHORT4N";
        /// Two unsigned shorts divided by 65535.
        Ushort2N = 11, "USHORT2N";
        /// Four unsigned shorts divided by 65535.
        Ushort4N = 12, "USHORT4N";
        /// Three unsigned 10-bit values.
        Udec3 = 13, "UDEC3";
        /// Three signed 10-bit values divided by 511.
        Dec3N = 14, "DEC3N";
        /// Two half floats.
        Float16x2 = 15, "FLOAT16_2";
        /// Four half floats.
        Float16x4 = 16, "FLOAT16_4";
        /// No data (ends a declaration).
        Unused = 17, "UNUSED";
    }
}

named_enum! {
    /// `D3DDECLMETHOD`: how the tessellator produces the element.
    DeclMethod: u8, from_u8 {
        /// Read from the stream and evaluated with the patch basis.
        Default = 0, "DEFAULT";
        /// The derivative along u of the input element.
        PartialU = 1, "PARTIALU";
        /// The derivative along v of the input element.
        PartialV = 2, "PARTIALV";
        /// The normal: dP/du x dP/dv of the input element.
        CrossUv = 3, "CROSSUV";
        /// The domain coordinate (u, v).
        Uv = 4, "UV";
        /// Displacement-map lookup (not supported: needs a sampler).
        Lookup = 5, "LOOKUP";
        /// Presampled displacement lookup (not supported: needs a sampler).
        LookupPresampled = 6, "LOOKUPPRESAMPLED";
    }
}

/// `D3DDECLUSAGE`: the bytecode model's enum, shared with shader declarations.
pub use dxso::DeclUsage;

impl DeclType {
    /// Bytes the type occupies in a vertex.
    pub fn size(self) -> usize {
        use DeclType::*;
        match self {
            Float1 | D3dColor | Ubyte4 | Short2 | Ubyte4N | Short2N | Ushort2N | Udec3 | Dec3N
            | Float16x2 => 4,
            Float2 | Short4 | Short4N | Ushort4N | Float16x4 => 8,
            Float3 => 12,
            Float4 => 16,
            Unused => 0,
        }
    }

    /// Components the type carries (the rest read as 0, 0, 0, 1).
    pub fn components(self) -> usize {
        use DeclType::*;
        match self {
            Float1 => 1,
            Float2 | Short2 | Short2N | Ushort2N | Float16x2 => 2,
            Float3 | Udec3 | Dec3N => 3,
            Float4 | D3dColor | Ubyte4 | Ubyte4N | Short4 | Short4N | Ushort4N | Float16x4 => 4,
            Unused => 0,
        }
    }

    /// Reads one value from exactly `self.size()` bytes; missing components are (0, 0, 0, 1)
    /// as D3D9 expands them.
    // Always inlined: called, it returns through the stack in pieces that the caller reads
    // back whole (a store-forwarding stall per vertex fetched).
    #[inline(always)]
    pub fn read(self, b: &[u8]) -> [f32; 4] {
        use DeclType::*;
        let f = |i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let s = |i: usize| i16::from_le_bytes([b[i], b[i + 1]]) as f32;
        let us = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]) as f32;
        let h = |i: usize| half::f16::from_le_bytes([b[i], b[i + 1]]).to_f32();
        let sn = |i: usize| (s(i) / 32767.0).max(-1.0);
        match self {
            Float1 => [f(0), 0.0, 0.0, 1.0],
            Float2 => [f(0), f(4), 0.0, 1.0],
            Float3 => [f(0), f(4), f(8), 1.0],
            Float4 => [f(0), f(4), f(8), f(12)],
            D3dColor => [
                b[2] as f32 / 255.0,
                b[1] as f32 / 255.0,
                b[0] as f32 / 255.0,
                b[3] as f32 / 255.0,
            ],
            Ubyte4 => [b[0] as f32, b[1] as f32, b[2] as f32, b[3] as f32],
            Ubyte4N => [
                b[0] as f32 / 255.0,
                b[1] as f32 / 255.0,
                b[2] as f32 / 255.0,
                b[3] as f32 / 255.0,
            ],
            Short2 => [s(0), s(2), 0.0, 1.0],
            Short4 => [s(0), s(2), s(4), s(6)],
            Short2N => [sn(0), sn(2), 0.0, 1.0],
            Short4N => [sn(0), sn(2), sn(4), sn(6)],
            Ushort2N => [us(0) / 65535.0, us(2) / 65535.0, 0.0, 1.0],
            Ushort4N => [
                us(0) / 65535.0,
                us(2) / 65535.0,
                us(4) / 65535.0,
                us(6) / 65535.0,
            ],
            Udec3 => {
                let w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                [
                    (w & 0x3FF) as f32,
                    ((w >> 10) & 0x3FF) as f32,
                    ((w >> 20) & 0x3FF) as f32,
                    1.0,
                ]
            }
            Dec3N => {
                let w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                let field = |shift: u32| {
                    let v = ((w >> shift) & 0x3FF) as i32;
                    let signed = if v >= 512 { v - 1024 } else { v };
                    (signed as f32 / 511.0).max(-1.0)
                };
                [field(0), field(10), field(20), 1.0]
            }
            Float16x2 => [h(0), h(2), 0.0, 1.0],
            Float16x4 => [h(0), h(2), h(4), h(6)],
            Unused => [0.0, 0.0, 0.0, 1.0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_bytes_round_trip() {
        let e = VertexElement {
            stream: 1,
            offset: 12,
            ty: 2,
            method: 3,
            usage: 3,
            usage_index: 0,
        };
        assert_eq!(VertexElement::from_bytes(e.to_bytes()), e);
        assert!(VertexElement::END.is_end());
    }

    #[test]
    fn names() {
        assert_eq!(
            DeclType::from_name("D3DDECLTYPE_FLOAT3"),
            Some(DeclType::Float3)
        );
        assert_eq!(DeclType::from_name("float16_2"), Some(DeclType::Float16x2));
        assert_eq!(DeclMethod::from_name("CROSSUV"), Some(DeclMethod::CrossUv));
        assert_eq!(DeclUsage::from_name("texcoord"), Some(DeclUsage::TexCoord));
    }

    #[test]
    fn colour_is_bgra() {
        assert_eq!(
            DeclType::D3dColor.read(&[0, 0, 255, 255]),
            [1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            DeclType::Dec3N.read(&0x3FFu32.to_le_bytes())[0],
            -1.0 / 511.0
        );
    }
}
