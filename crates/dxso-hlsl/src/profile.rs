//! Target profiles.

use std::fmt;
use std::str::FromStr;

/// A target profile (`/T`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// `vs_1_1`.
    Vs11,
    /// `vs_2_0`.
    Vs20,
    /// `vs_2_x` (compiled as vs_2_0 with the 2_x limits).
    Vs2x,
    /// `vs_3_0`.
    Vs30,
    /// `ps_1_1`..`ps_1_4` (parsed, not compiled yet).
    Ps1x(u8),
    /// `ps_2_0`.
    Ps20,
    /// `ps_2_x`.
    Ps2x,
    /// `ps_3_0`.
    Ps30,
}

impl Profile {
    /// `true` for vertex profiles.
    pub fn is_vertex(self) -> bool {
        matches!(
            self,
            Profile::Vs11 | Profile::Vs20 | Profile::Vs2x | Profile::Vs30
        )
    }

    /// The shader model's major version.
    pub fn major(self) -> u8 {
        match self {
            Profile::Vs11 | Profile::Ps1x(_) => 1,
            Profile::Vs20 | Profile::Vs2x | Profile::Ps20 | Profile::Ps2x => 2,
            Profile::Vs30 | Profile::Ps30 => 3,
        }
    }

    /// The version token of the output.
    pub fn version(self) -> dxso::Version {
        match self {
            Profile::Vs11 => dxso::Version::vs(1, 1),
            Profile::Vs20 => dxso::Version::vs(2, 0),
            Profile::Vs2x => dxso::Version::vs(2, 1),
            Profile::Vs30 => dxso::Version::vs(3, 0),
            Profile::Ps1x(m) => dxso::Version::ps(1, m),
            Profile::Ps20 => dxso::Version::ps(2, 0),
            Profile::Ps2x => dxso::Version::ps(2, 1),
            Profile::Ps30 => dxso::Version::ps(3, 0),
        }
    }

    /// Temporaries the profile has.
    pub fn temps(self) -> u16 {
        match self {
            Profile::Vs11 | Profile::Ps1x(_) => 12,
            Profile::Ps20 => 12,
            _ => 32,
        }
    }

    /// Float constants the profile has.
    pub fn float_constants(self) -> u16 {
        match self {
            Profile::Ps1x(_) => 8,
            Profile::Vs11 => 96,
            Profile::Ps20 | Profile::Ps2x => 32,
            Profile::Ps30 => 224,
            _ => 256,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Profile::Vs11 => "vs_1_1",
            Profile::Vs20 => "vs_2_0",
            Profile::Vs2x => "vs_2_x",
            Profile::Vs30 => "vs_3_0",
            Profile::Ps1x(1) => "ps_1_1",
            Profile::Ps1x(2) => "ps_1_2",
            Profile::Ps1x(3) => "ps_1_3",
            Profile::Ps1x(_) => "ps_1_4",
            Profile::Ps20 => "ps_2_0",
            Profile::Ps2x => "ps_2_x",
            Profile::Ps30 => "ps_3_0",
        })
    }
}

/// A profile name fxc does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile '{0}' (expected vs_1_1, vs_2_0, vs_2_x, vs_3_0, ps_1_1..ps_1_4, ps_2_0, ps_2_x or ps_3_0)")]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "vs_1_1" => Profile::Vs11,
            "vs_2_0" => Profile::Vs20,
            "vs_2_x" | "vs_2_a" => Profile::Vs2x,
            "vs_3_0" => Profile::Vs30,
            "ps_1_1" => Profile::Ps1x(1),
            "ps_1_2" => Profile::Ps1x(2),
            "ps_1_3" => Profile::Ps1x(3),
            "ps_1_4" => Profile::Ps1x(4),
            "ps_2_0" => Profile::Ps20,
            "ps_2_x" | "ps_2_a" | "ps_2_b" => Profile::Ps2x,
            "ps_3_0" => Profile::Ps30,
            _ => return Err(UnknownProfile(s.to_string())),
        })
    }
}
