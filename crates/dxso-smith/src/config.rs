//! What the generator may produce: versions, sizes, and one switch per family of features.

use arbitrary::{Arbitrary, Unstructured};
use dxso::Version;

/// Every version the generator knows, in the order [`Config::versions`] lists them by default.
pub const ALL_VERSIONS: [Version; 11] = [
    Version::vs(1, 1),
    Version::vs(2, 0),
    Version::vs(2, 1),
    Version::vs(3, 0),
    Version::ps(1, 1),
    Version::ps(1, 2),
    Version::ps(1, 3),
    Version::ps(1, 4),
    Version::ps(2, 0),
    Version::ps(2, 1),
    Version::ps(3, 0),
];

/// The knobs of the generator. [`Config::default`] turns every feature on; [`Config::differential`]
/// is the preset for comparing engines (no transcendentals, values kept finite, short loops).
///
/// A feature switched off is never generated; a feature switched on is generated where the chosen
/// version allows it (a `loop` only in vs_2_0+ and ps_3_0, co-issue only in ps_1_x, ...). Every
/// generated program is valid whatever the switches.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The versions to choose from (each program picks one). Versions the generator does not know
    /// (ps_1_0, software versions) are ignored; an empty list means [`ALL_VERSIONS`].
    pub versions: Vec<Version>,
    /// The most instructions in the body, declarations and definitions not counted (each program
    /// draws its own size up to this). The version's slot limits cut it further (ps_1_1 has 4
    /// texture and 8 arithmetic slots); the writes that define every output are made even when
    /// this is smaller than the number of outputs.
    pub max_instructions: usize,
    /// Arithmetic beyond `mov` (`add`, `mad`, `dp4`, `m4x4`, `lrp`, `cmp`, ...). Off, the body is
    /// moves, texture loads and flow control.
    pub arithmetic: bool,
    /// Source swizzles other than `.xyzw` (within what each version allows). Off, sources read
    /// `.xyzw`, or a replicate where the instruction demands one.
    pub swizzles: bool,
    /// Source modifiers: negate in every version, `_abs` in shader model 3.
    pub source_modifiers: bool,
    /// Destination write masks other than `.xyzw` (where the instruction allows a choice).
    pub write_masks: bool,
    /// `_sat` (ps_*, vs_3_0) and `_pp` (ps_2_0+), and `_centroid` on ps_2_0+ input declarations.
    pub result_modifiers: bool,
    /// ps_1_x only: result shifts (`_x2`, `_x4`, `_d2`, and `_x8`, `_d4`, `_d8` in ps_1_4), the
    /// source modifiers `_bias`, `_bx2`, `1-`, `_x2` (ps_1_4), `_dz`/`_dw` (ps_1_4 texld).
    pub ps1_modifiers: bool,
    /// ps_1_x only: co-issued pairs (`mul r0.rgb, ...` + `add r0.a, ...`).
    pub coissue: bool,
    /// The predicate register: `setp`, `if p0`, `callnz l, p0`, `breakp` and predicated
    /// instructions (vs_2_x, vs_3_0, ps_2_x, ps_3_0).
    pub predication: bool,
    /// Flow control: `if`/`ifc`/`else`, `loop` (with `aL`), `rep`, `break`, `breakc`, nested up
    /// to [`Config::max_nesting`] and each version's limits.
    pub flow_control: bool,
    /// Subroutines: `call`, `callnz`, `label`, `ret` (within each version's call-nesting limit).
    pub subroutines: bool,
    /// How deep blocks (`if`, `loop`, `rep`) nest, at most; each version's own limit also holds.
    pub max_nesting: usize,
    /// Relative addressing: constants through `a0` (vertex shaders) and `aL` (inside loops), vs_3_0
    /// and ps_3_0 inputs and vs_3_0 outputs through `aL`. Every index stays inside its register
    /// file and, for inputs and outputs, inside what the program declares.
    pub relative_addressing: bool,
    /// Texture instructions: ps_1_x `tex`, `texcoord`, `texbem`, `texm3x*` and friends, ps_1_4
    /// `texld`/`texcrd`/`bem`, and `texld`/`texldp`/`texldb`/`texldl`/`texldd` with declared
    /// samplers in ps_2_0+ and vs_3_0.
    pub textures: bool,
    /// `dsx` and `dsy` (ps_2_x, ps_3_0).
    pub derivatives: bool,
    /// `texkill`, and ps_1_x `texdepth`/`texm3x2depth`.
    pub discard: bool,
    /// Constants the program defines with `def`, `defi`, `defb` (besides those flow control and
    /// relative addressing need, which are always defined so loops terminate and indices stay in
    /// range).
    pub defined_constants: bool,
    /// `exp`, `log`, `expp`, `logp`, `pow`, `sincos`, `lit`: operations whose precision each engine
    /// approximates differently.
    pub transcendentals: bool,
    /// Keep every computed value finite (see [`Config::value_limit`]): defined constants are small
    /// exact values, operations that can divide by zero (`rcp`, `rsq`, `nrm`, `log`, `pow`, `lit`,
    /// `texldp`, `_dz`/`_dw`, `texm3x3spec`, the depth instructions) are left out, `sincos` gets
    /// arguments within [-pi, pi], and an instruction whose result could grow past the limit is not
    /// generated (inside loops, values carried from one iteration to the next stay below
    /// [`Config::loop_value_limit`]). Off, defined constants may be any bit pattern, NaN and
    /// infinities included.
    pub finite_values: bool,
    /// With [`Config::finite_values`]: the magnitude every input, application-set constant and
    /// texel is assumed to stay within. The generator reports nothing about values the caller
    /// feeds in; it assumes this bound for them.
    pub input_bound: f32,
    /// With [`Config::finite_values`]: the largest magnitude any computed value may reach.
    pub value_limit: f32,
    /// With [`Config::finite_values`]: the largest magnitude of a value one loop iteration hands to
    /// the next (so repeated multiplies cannot overflow however many times the loop runs).
    pub loop_value_limit: f32,
    /// The product of the trip counts of nested `loop`/`rep` blocks (calls included) stays at or
    /// below this, so every program ends quickly. At least 1.
    pub max_loop_iterations: u32,
    /// `texld`, `texldp`, `texldb` and `dsx`/`dsy` inside dynamic flow control (`ifc`, `if p0`,
    /// loops left by `breakc`/`breakp`, subroutines called by `callnz p0`). Direct3D leaves their
    /// derivatives undefined there, so it is off by default.
    pub gradients_in_dynamic_flow: bool,
    /// ps_2_0+: write `oC1`..`oC3` besides `oC0` (multiple render targets).
    pub multiple_render_targets: bool,
    /// ps_2_0+: write `oDepth`.
    pub depth_output: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            versions: ALL_VERSIONS.to_vec(),
            max_instructions: 48,
            arithmetic: true,
            swizzles: true,
            source_modifiers: true,
            write_masks: true,
            result_modifiers: true,
            ps1_modifiers: true,
            coissue: true,
            predication: true,
            flow_control: true,
            subroutines: true,
            max_nesting: 3,
            relative_addressing: true,
            textures: true,
            derivatives: true,
            discard: true,
            defined_constants: true,
            transcendentals: true,
            finite_values: false,
            input_bound: 4.0,
            value_limit: 1.0e6,
            loop_value_limit: 64.0,
            max_loop_iterations: 256,
            gradients_in_dynamic_flow: false,
            multiple_render_targets: true,
            depth_output: true,
        }
    }
}

impl Config {
    /// The preset for differential tests between engines: everything on except transcendentals,
    /// values kept finite, loops of at most 64 iterations in total.
    pub fn differential() -> Self {
        Config {
            transcendentals: false,
            finite_values: true,
            max_loop_iterations: 64,
            ..Config::default()
        }
    }

    /// The default configuration restricted to one version.
    pub fn for_version(version: Version) -> Self {
        Config {
            versions: vec![version],
            ..Config::default()
        }
    }

    /// The same configuration restricted to one version.
    pub fn with_version(mut self, version: Version) -> Self {
        self.versions = vec![version];
        self
    }

    /// The versions this configuration generates, known ones only, in order; never empty.
    pub fn effective_versions(&self) -> Vec<Version> {
        let known: Vec<Version> = self
            .versions
            .iter()
            .copied()
            .filter(|v| ALL_VERSIONS.contains(v))
            .collect();
        if known.is_empty() {
            ALL_VERSIONS.to_vec()
        } else {
            known
        }
    }
}

impl<'a> Arbitrary<'a> for Config {
    /// A random configuration (for fuzzers that explore the knobs too): any non-empty set of
    /// versions, any switches, sizes and limits in ranges that keep programs small.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let mut versions: Vec<Version> = Vec::new();
        let mask: u16 = u.arbitrary()?;
        for (i, v) in ALL_VERSIONS.iter().enumerate() {
            if mask & (1 << i) != 0 {
                versions.push(*v);
            }
        }
        if versions.is_empty() {
            versions = ALL_VERSIONS.to_vec();
        }
        Ok(Config {
            versions,
            max_instructions: u.int_in_range(1..=96)?,
            arithmetic: u.arbitrary()?,
            swizzles: u.arbitrary()?,
            source_modifiers: u.arbitrary()?,
            write_masks: u.arbitrary()?,
            result_modifiers: u.arbitrary()?,
            ps1_modifiers: u.arbitrary()?,
            coissue: u.arbitrary()?,
            predication: u.arbitrary()?,
            flow_control: u.arbitrary()?,
            subroutines: u.arbitrary()?,
            max_nesting: u.int_in_range(0..=6)?,
            relative_addressing: u.arbitrary()?,
            textures: u.arbitrary()?,
            derivatives: u.arbitrary()?,
            discard: u.arbitrary()?,
            defined_constants: u.arbitrary()?,
            transcendentals: u.arbitrary()?,
            finite_values: u.arbitrary()?,
            input_bound: *u.choose(&[1.0, 4.0, 16.0])?,
            value_limit: *u.choose(&[1.0e3, 1.0e6, 1.0e30])?,
            loop_value_limit: *u.choose(&[8.0, 64.0, 1.0e3])?,
            max_loop_iterations: u.int_in_range(1..=300)?,
            gradients_in_dynamic_flow: u.arbitrary()?,
            multiple_render_targets: u.arbitrary()?,
            depth_output: u.arbitrary()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_versions_fall_back_to_all() {
        let c = Config {
            versions: vec![Version::ps(1, 0), Version::vs(3, 0xFF)],
            ..Config::default()
        };
        assert_eq!(c.effective_versions(), ALL_VERSIONS.to_vec());
        let c = Config::for_version(Version::ps(1, 4));
        assert_eq!(c.effective_versions(), vec![Version::ps(1, 4)]);
    }

    #[test]
    fn arbitrary_configs_stay_in_range() {
        let bytes: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        let mut u = Unstructured::new(&bytes);
        for _ in 0..64 {
            let c = Config::arbitrary(&mut u).expect("a config");
            assert!(!c.versions.is_empty());
            assert!((1..=96).contains(&c.max_instructions));
            assert!(c.max_loop_iterations >= 1);
        }
    }
}
