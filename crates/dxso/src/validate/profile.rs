//! Shader profiles and their limits: which register files exist in each version, how many
//! registers each holds, which may be read or written, slot and nesting limits.
//!
//! Limits are the minimum a device of that version guarantees (DESIGN section 2), except where a
//! cap can raise them and Microsoft's compilers emit shaders that rely on the raised value (the
//! `_x` profiles' temps). Software versions lift the constant limits.

use crate::register::RegisterType;
use crate::version::{ShaderKind, Version};

/// One of the eleven Direct3D 9 shader versions a validator knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Profile {
    Vs11,
    Vs20,
    Vs2x,
    Vs30,
    Ps11,
    Ps12,
    Ps13,
    Ps14,
    Ps20,
    Ps2x,
    Ps30,
}

/// What a register file allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterFile {
    /// How many registers (valid numbers are `0..count`).
    pub count: u32,
    /// Ordinary instructions may read it as a source.
    pub read: bool,
    /// Ordinary instructions may write it.
    pub write: bool,
}

const fn file(count: u32, read: bool, write: bool) -> Option<RegisterFile> {
    Some(RegisterFile { count, read, write })
}

/// A file that only fixed-role operands use (samplers, labels, b#, i#, aL, p0).
const fn special(count: u32) -> Option<RegisterFile> {
    file(count, false, false)
}

impl Profile {
    /// Every profile, in [`super::Versions`] bit order.
    pub const ALL: &'static [Profile] = &[
        Profile::Vs11,
        Profile::Vs20,
        Profile::Vs2x,
        Profile::Vs30,
        Profile::Ps11,
        Profile::Ps12,
        Profile::Ps13,
        Profile::Ps14,
        Profile::Ps20,
        Profile::Ps2x,
        Profile::Ps30,
    ];

    /// The profile of a version; `None` for versions Direct3D 9 does not run. Software versions
    /// (`vs_2_sw`, `vs_3_sw`, `ps_2_sw`, `ps_3_sw`) map to their hardware profile.
    pub fn of(v: Version) -> Option<Profile> {
        use Profile::*;
        Some(match (v.kind, v.major, v.minor) {
            (ShaderKind::Vertex, 1, 1) => Vs11,
            (ShaderKind::Vertex, 2, 0) => Vs20,
            (ShaderKind::Vertex, 2, 1) | (ShaderKind::Vertex, 2, 0xFF) => Vs2x,
            (ShaderKind::Vertex, 3, 0) | (ShaderKind::Vertex, 3, 0xFF) => Vs30,
            (ShaderKind::Pixel, 1, 1) => Ps11,
            (ShaderKind::Pixel, 1, 2) => Ps12,
            (ShaderKind::Pixel, 1, 3) => Ps13,
            (ShaderKind::Pixel, 1, 4) => Ps14,
            (ShaderKind::Pixel, 2, 0) => Ps20,
            (ShaderKind::Pixel, 2, 1) | (ShaderKind::Pixel, 2, 0xFF) => Ps2x,
            (ShaderKind::Pixel, 3, 0) | (ShaderKind::Pixel, 3, 0xFF) => Ps30,
            _ => return None,
        })
    }

    /// The version name (`vs_2_x`).
    pub const fn name(self) -> &'static str {
        use Profile::*;
        match self {
            Vs11 => "vs_1_1",
            Vs20 => "vs_2_0",
            Vs2x => "vs_2_x",
            Vs30 => "vs_3_0",
            Ps11 => "ps_1_1",
            Ps12 => "ps_1_2",
            Ps13 => "ps_1_3",
            Ps14 => "ps_1_4",
            Ps20 => "ps_2_0",
            Ps2x => "ps_2_x",
            Ps30 => "ps_3_0",
        }
    }

    /// A vertex profile.
    pub const fn is_vertex(self) -> bool {
        matches!(
            self,
            Profile::Vs11 | Profile::Vs20 | Profile::Vs2x | Profile::Vs30
        )
    }

    /// ps_1_1 .. ps_1_4.
    pub const fn is_ps1(self) -> bool {
        matches!(
            self,
            Profile::Ps11 | Profile::Ps12 | Profile::Ps13 | Profile::Ps14
        )
    }

    /// ps_1_1 .. ps_1_3 (texture registers are written by texture instructions).
    pub const fn is_ps11_13(self) -> bool {
        matches!(self, Profile::Ps11 | Profile::Ps12 | Profile::Ps13)
    }

    /// Shader model 3.
    pub const fn is_sm3(self) -> bool {
        matches!(self, Profile::Vs30 | Profile::Ps30)
    }

    /// The versions that have the predicate register `p0`.
    pub const fn has_predicate(self) -> bool {
        matches!(
            self,
            Profile::Vs2x | Profile::Vs30 | Profile::Ps2x | Profile::Ps30
        )
    }

    /// The register file `ty` in this profile, or `None` when the version has no such registers.
    pub fn file(self, ty: RegisterType, software: bool) -> Option<RegisterFile> {
        use Profile::*;
        use RegisterType as R;
        let vs = self.is_vertex();
        let vs2 = matches!(self, Vs20 | Vs2x | Vs30);
        match ty {
            R::Temp => file(
                match self {
                    Vs11 | Vs20 | Ps20 => 12,
                    Vs2x | Vs30 | Ps2x | Ps30 => 32,
                    Ps11 | Ps12 | Ps13 => 2,
                    Ps14 => 6,
                },
                true,
                true,
            ),
            R::Input => file(
                match self {
                    _ if vs => 16,
                    Ps30 => 10,
                    _ => 2,
                },
                true,
                false,
            ),
            R::Const => file(
                match self {
                    _ if software => 8192,
                    Vs11 => 96,
                    Vs20 | Vs2x | Vs30 => 256,
                    Ps11 | Ps12 | Ps13 | Ps14 => 8,
                    Ps20 | Ps2x => 32,
                    Ps30 => 224,
                },
                true,
                false,
            ),
            // c2048 and up need the CONST2..4 encodings: only software shaders have that many.
            R::Const2 | R::Const3 | R::Const4 if software => file(2048, true, false),
            R::Const2 | R::Const3 | R::Const4 => None,
            R::Addr => match self {
                // a0: written by mov/mova only, read only through relative addressing.
                _ if vs => file(1, false, true),
                Ps11 | Ps12 | Ps13 => file(4, true, true),
                Ps14 => file(6, true, false),
                Ps20 | Ps2x => file(8, true, false),
                Ps30 => None,
                _ => None,
            },
            R::RastOut | R::AttrOut if vs && self != Vs30 => {
                file(if ty == R::RastOut { 3 } else { 2 }, false, true)
            }
            R::Output if vs => file(if self == Vs30 { 12 } else { 8 }, false, true),
            R::ConstInt | R::ConstBool if vs2 || matches!(self, Ps2x | Ps30) => special(16),
            R::ColorOut | R::DepthOut if matches!(self, Ps20 | Ps2x | Ps30) => {
                file(if ty == R::ColorOut { 4 } else { 1 }, false, true)
            }
            R::Sampler => match self {
                Vs30 => special(4),
                Ps20 | Ps2x | Ps30 => special(16),
                _ => None,
            },
            R::Loop if vs2 || self == Ps30 => special(1),
            R::MiscType if self == Ps30 => file(2, true, false),
            R::Label if vs2 || matches!(self, Ps2x | Ps30) => special(2048),
            R::Predicate if self.has_predicate() => special(1),
            _ => None,
        }
    }

    /// The most instruction slots: `(texture, arithmetic)` for the versions that count them
    /// apart (ps_1_x per phase, ps_2_0), else `(0, total)`.
    pub const fn slots(self, software: bool) -> (u32, u32) {
        use Profile::*;
        if software {
            return (0, u32::MAX);
        }
        match self {
            Vs11 => (0, 128),
            Vs20 | Vs2x => (0, 256),
            // The minimum is 512; caps raise it to 32768 and fxc's ps_3_0/vs_3_0 output in the
            // corpus goes past 512.
            Vs30 | Ps30 => (0, 32768),
            Ps11 | Ps12 | Ps13 => (4, 8),
            Ps14 => (6, 8),
            Ps20 => (32, 64),
            Ps2x => (0, 512),
        }
    }

    /// Nesting limits: `(if, loop/rep, call)`.
    pub const fn nesting(self) -> (usize, usize, usize) {
        match self {
            Profile::Vs20 => (16, 1, 1),
            _ => (24, 4, 4),
        }
    }
}
