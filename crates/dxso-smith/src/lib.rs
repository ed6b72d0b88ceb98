//! # dxso-smith
//!
//! Random **valid** Direct3D 9 shader programs, as `wasm-smith` is for WebAssembly: for fuzzers
//! (an [`arbitrary::Arbitrary`] implementation), for differential tests between engines (the
//! interpreter, a JIT, a translator), and for anyone who needs many shaders that
//! `dxso::validate` accepts.
//!
//! Every program:
//! - is accepted by [`dxso::validate()`] in its version (vs_1_1, vs_2_0, vs_2_x, vs_3_0,
//!   ps_1_1-ps_1_4, ps_2_0, ps_2_x, ps_3_0): register files and counts, read ports, swizzle and
//!   modifier rules, slot and nesting limits, declarations;
//! - reads only register components written on every path before the read, declared inputs and
//!   constants;
//! - terminates: loop trip counts come from `defi` and their nested product stays within
//!   [`Config::max_loop_iterations`]; relative indices stay inside their register file;
//! - writes every output it reports on every path, and says what it needs in an [`Interface`].
//!
//! ```
//! use arbitrary::Unstructured;
//!
//! let bytes = [7u8; 512];
//! let mut u = Unstructured::new(&bytes);
//! let program = dxso_smith::Shader::new(&dxso_smith::Config::default(), &mut u)?;
//! assert!(dxso::validate(program.shader()).is_valid());
//! println!("{}", program.interface().summary(program.shader().version));
//! # Ok::<(), arbitrary::Error>(())
//! ```
//!
//! Or deterministically from a seed:
//!
//! ```
//! let config = dxso_smith::Config::differential().with_version(dxso::Version::ps(3, 0));
//! let a = dxso_smith::Shader::from_seed(42, &config);
//! let b = dxso_smith::Shader::from_seed(42, &config);
//! assert_eq!(a.shader(), b.shader());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod config;
mod gen;
pub mod interface;
mod rng;

pub use config::{Config, ALL_VERSIONS};
pub use interface::{
    BoolConstantUse, FloatConstantUse, InputUse, IntConstantUse, Interface, OutputUse, SamplerUse,
};
pub use rng::SplitMix64;

use arbitrary::{Arbitrary, Unstructured};

/// A generated program: the [`dxso::Shader`] and what running it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Shader {
    shader: dxso::Shader,
    interface: Interface,
}

impl Shader {
    /// Generates a program from `config`, driven by the bytes of `u` (the same bytes and
    /// configuration give the same program). Exhausted input makes the rest of the program
    /// small, never invalid.
    pub fn new(config: &Config, u: &mut Unstructured<'_>) -> arbitrary::Result<Shader> {
        let versions = config.effective_versions();
        let version = *u.choose(&versions)?;
        Ok(Self::of_version(config, version, u))
    }

    /// Generates a program of one `version` (which must be one of [`ALL_VERSIONS`]; other
    /// versions fall back to the first of `config`'s versions).
    pub fn with_version(
        config: &Config,
        version: dxso::Version,
        u: &mut Unstructured<'_>,
    ) -> Shader {
        let version = if ALL_VERSIONS.contains(&version) {
            version
        } else {
            config.effective_versions()[0]
        };
        Self::of_version(config, version, u)
    }

    fn of_version(config: &Config, version: dxso::Version, u: &mut Unstructured<'_>) -> Shader {
        let mut g = gen::Gen::new(config, u, version);
        let main = if version.is_pixel() && version.is_sm1() {
            g.program_ps1()
        } else {
            g.setup();
            g.program()
        };
        let (shader, interface) = g.finish(main);
        Shader { shader, interface }
    }

    /// A program from a 64-bit seed: the generator's input bytes come from a fixed
    /// pseudo-random sequence (SplitMix64), so a seed names the same program on every machine.
    pub fn from_seed(seed: u64, config: &Config) -> Shader {
        let len = 4096 + 256 * config.max_instructions.min(4096);
        let mut bytes = Vec::with_capacity(len);
        let mut rng = SplitMix64(seed);
        while bytes.len() < len {
            bytes.extend_from_slice(&rng.next_u64().to_le_bytes());
        }
        let mut u = Unstructured::new(&bytes);
        // Choosing from a non-empty list never fails.
        Self::new(config, &mut u).unwrap_or_else(|_| {
            let mut u = Unstructured::new(&[]);
            Self::of_version(config, config.effective_versions()[0], &mut u)
        })
    }

    /// The program.
    pub fn shader(&self) -> &dxso::Shader {
        &self.shader
    }

    /// What the program reads and writes.
    pub fn interface(&self) -> &Interface {
        &self.interface
    }

    /// The program's bytecode.
    pub fn to_bytes(&self) -> Vec<u8> {
        dxso::encode(&self.shader)
    }

    /// The program and its interface.
    pub fn into_parts(self) -> (dxso::Shader, Interface) {
        (self.shader, self.interface)
    }
}

impl From<Shader> for dxso::Shader {
    fn from(s: Shader) -> dxso::Shader {
        s.shader
    }
}

impl<'a> Arbitrary<'a> for Shader {
    /// A program from [`Config::default`].
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Shader::new(&Config::default(), u)
    }
}

/// A program together with the random [`Config`] it was generated from: for fuzzers that explore
/// the knobs as well as the programs.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfiguredShader {
    /// The configuration.
    pub config: Config,
    /// The program.
    pub shader: Shader,
}

impl<'a> Arbitrary<'a> for ConfiguredShader {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let config = Config::arbitrary(u)?;
        let shader = Shader::new(&config, u)?;
        Ok(ConfiguredShader { config, shader })
    }
}

/// Generates a program: the same as [`Shader::new`], returning the [`dxso::Shader`] alone.
pub fn generate(config: &Config, u: &mut Unstructured<'_>) -> arbitrary::Result<dxso::Shader> {
    Shader::new(config, u).map(Into::into)
}

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
