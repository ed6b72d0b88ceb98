//! The version token that opens every shader.

use std::fmt;

/// Which pipeline stage a shader runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// A vertex shader (`vs_*`, token prefix `0xFFFE`).
    Vertex,
    /// A pixel shader (`ps_*`, token prefix `0xFFFF`).
    Pixel,
}

impl ShaderKind {
    /// The two-letter prefix Microsoft's tools print (`vs` or `ps`).
    pub fn prefix(self) -> &'static str {
        match self {
            ShaderKind::Vertex => "vs",
            ShaderKind::Pixel => "ps",
        }
    }
}

/// A decoded version token: stage, major and minor version.
///
/// The minor number is kept as encoded, so `vs_2_x` is `minor == 1` with `major == 2` and the
/// software versions (`vs_3_sw`) have `minor == 0xFF`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    /// Vertex or pixel.
    pub kind: ShaderKind,
    /// Major version (1, 2 or 3 for real shaders).
    pub major: u8,
    /// Minor version as encoded (`1` for `_x` when major is 2, `0xFF` for `sw`).
    pub minor: u8,
}

impl Version {
    /// The `minor` value that means a software-vertex-processing shader (`vs_3_sw`).
    pub const SOFTWARE_MINOR: u8 = 0xFF;

    /// Creates a version.
    pub const fn new(kind: ShaderKind, major: u8, minor: u8) -> Self {
        Version { kind, major, minor }
    }

    /// Shorthand for a vertex shader version.
    pub const fn vs(major: u8, minor: u8) -> Self {
        Version::new(ShaderKind::Vertex, major, minor)
    }

    /// Shorthand for a pixel shader version.
    pub const fn ps(major: u8, minor: u8) -> Self {
        Version::new(ShaderKind::Pixel, major, minor)
    }

    /// Decodes a version token, or `None` when its upper half is neither `0xFFFE` nor `0xFFFF`.
    pub const fn from_token(token: u32) -> Option<Self> {
        let kind = match token >> 16 {
            0xFFFE => ShaderKind::Vertex,
            0xFFFF => ShaderKind::Pixel,
            _ => return None,
        };
        Some(Version {
            kind,
            major: (token >> 8) as u8,
            minor: token as u8,
        })
    }

    /// The version token for this version.
    pub const fn to_token(self) -> u32 {
        let prefix: u32 = match self.kind {
            ShaderKind::Vertex => 0xFFFE_0000,
            ShaderKind::Pixel => 0xFFFF_0000,
        };
        prefix | (self.major as u32) << 8 | self.minor as u32
    }

    /// `true` for vertex shaders.
    pub const fn is_vertex(self) -> bool {
        matches!(self.kind, ShaderKind::Vertex)
    }

    /// `true` for pixel shaders.
    pub const fn is_pixel(self) -> bool {
        matches!(self.kind, ShaderKind::Pixel)
    }

    /// Shader model 1 (major < 2): no instruction length field and no relative-address token.
    pub const fn is_sm1(self) -> bool {
        self.major < 2
    }

    /// `true` when the version is at least `major.minor` (the `sw` minor counts as highest).
    pub const fn at_least(self, major: u8, minor: u8) -> bool {
        self.major > major || (self.major == major && self.minor >= minor)
    }

    /// `true` for `vs_2_x` / `ps_2_x`.
    pub const fn is_2_x(self) -> bool {
        self.major == 2 && self.minor == 1
    }

    /// `true` for the software versions (`vs_2_sw`, `vs_3_sw`, `ps_2_sw`, `ps_3_sw`).
    pub const fn is_software(self) -> bool {
        self.minor == Self::SOFTWARE_MINOR
    }
}

impl fmt::Display for Version {
    /// Prints the profile name as Microsoft spells it: `vs_1_1`, `ps_2_x`, `vs_3_sw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = self.kind.prefix();
        if self.major == 2 && self.minor == 1 {
            write!(f, "{prefix}_2_x")
        } else if self.minor == Self::SOFTWARE_MINOR {
            write!(f, "{prefix}_{}_sw", self.major)
        } else {
            write!(f, "{prefix}_{}_{}", self.major, self.minor)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_round_trip_and_names() {
        let cases = [
            (0xFFFE_0101, "vs_1_1"),
            (0xFFFE_0200, "vs_2_0"),
            (0xFFFE_0201, "vs_2_x"),
            (0xFFFE_02FF, "vs_2_sw"),
            (0xFFFE_0300, "vs_3_0"),
            (0xFFFE_03FF, "vs_3_sw"),
            (0xFFFF_0104, "ps_1_4"),
            (0xFFFF_0201, "ps_2_x"),
            (0xFFFF_0300, "ps_3_0"),
        ];
        for (token, name) in cases {
            let v = Version::from_token(token).unwrap();
            assert_eq!(v.to_token(), token);
            assert_eq!(v.to_string(), name);
        }
        assert_eq!(Version::from_token(0x4241_5443), None);
    }

    #[test]
    fn ordering_helpers() {
        assert!(Version::vs(1, 1).is_sm1());
        assert!(!Version::ps(2, 0).is_sm1());
        assert!(Version::ps(2, 1).at_least(2, 0));
        assert!(!Version::ps(1, 4).at_least(2, 0));
        assert!(Version::vs(3, 0xFF).is_software());
    }
}
