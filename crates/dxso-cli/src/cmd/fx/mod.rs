//! `dxso fx`: Direct3D 9 effects (fx_2_0 `.fxb`/`.fxo`) through `dxso-fx`.

mod decompile;
mod eval;
mod extract;
mod info;

use crate::input::{FileArg, Kind, Source};
use crate::session::Session;
use anyhow::{Context, Result};
use std::process::ExitCode;

/// Inspect fx_2_0 effects: parameters, techniques, passes and states, the embedded shaders
/// and their preshaders, and what a pass sets on the device.
///
/// Examples:
///   dxso fx info BasicEffect.fxb
///   dxso fx info BasicEffect.fxb --json
///   dxso fx extract BasicEffect.fxb -o shaders/
///   dxso fx decompile BasicEffect.fxb -o BasicEffect.fx
///   dxso fx eval BasicEffect.fxb --set ShaderIndex=2 --set WorldViewProj=1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1
///
/// Exit status: 0 on success, 1 when the effect is malformed (the message names the byte
/// offset and the rule) or a parameter, technique or pass does not exist, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    Info(info::Opts),
    Decompile(decompile::Opts),
    Extract(extract::Opts),
    Eval(eval::Opts),
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        match self.what {
            What::Info(o) => o.run(s),
            What::Decompile(o) => o.run(s),
            What::Extract(o) => o.run(s),
            What::Eval(o) => o.run(s),
        }
    }
}

/// Reads and parses the effect of `input` (any other kind is refused with a hint).
fn read_effect(s: &Session, input: &FileArg) -> Result<(Source, dxso_fx::Effect)> {
    let source = input.read(s)?;
    source.expect(&[Kind::Effect])?;
    let effect = crate::session::timed(format_args!("parsing {}", source.name), || {
        dxso_fx::Effect::parse(&source.bytes)
    })
    .with_context(|| format!("parsing {}", source.name))?;
    Ok((source, effect))
}

/// A float as people read it: plain for ordinary magnitudes, with an exponent beyond them.
fn num(x: f32) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-4..1e7).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}
