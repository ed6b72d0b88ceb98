use crate::batch;
use crate::input::{InputsArg, Kind};
use crate::output::{OutputArg, PerInput};
use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use std::process::ExitCode;

/// Convert Direct3D 8 shader bytecode to Direct3D 9 bytecode, as a Direct3D 9 runtime needs it.
///
/// The shader is validated with Direct3D 8's rules first. Vertex shaders get a dcl for every
/// input they read: with --decl, the usages of v0, v1, ... in order (the registers of the
/// application's vertex declaration); without it, each register's D3DVSDE meaning (v0
/// position, v1 blendweight, v2 blendindices, v3 normal, v4 psize, v5 color0, v6 color1,
/// v7-v14 texcoord0-7, v15 position1). Scalar instructions (rcp, rsq, exp, expp, log, logp)
/// read .w of their swizzle in Direct3D 8 and get that component replicated; vs_1_0 and
/// ps_1_0 become vs_1_1 and ps_1_1. The result validates as Direct3D 9 and computes the same.
///
/// Examples:
///   dxso convert --from d3d8 vs8.dxso -o vs9.dxso
///   dxso convert --from d3d8 vs8.dxso --decl position,normal,texcoord0 -o vs9.dxso
///   dxso convert --from d3d8 shaders8/ -o out/
///
/// Exit status: 0 on success, 1 when an input is not valid Direct3D 8 bytecode or cannot be
/// converted, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    inputs: InputsArg,
    /// The runtime the input was written for (only d3d8 today).
    #[arg(long, value_enum)]
    from: From,
    /// The usages of v0, v1, ... in order (`position,normal,texcoord0`; an index may follow the
    /// name, up to 15).
    #[arg(long, value_delimiter = ',', value_name = "USAGE,...")]
    decl: Option<Vec<String>>,
    /// Where to write: a file, a folder (one file per input), or `-` for standard output.
    /// Absent: standard output unless it is a terminal.
    #[arg(short, long, value_name = "FILE|DIR")]
    output: Option<std::path::PathBuf>,
    #[command(flatten)]
    force: crate::output::ForceArg,
}

/// `--from`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum From {
    /// Direct3D 8 bytecode.
    D3d8,
}

const KINDS: &[Kind] = &[Kind::Bytecode, Kind::Header, Kind::Assembly];

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let decl = match &self.decl {
            None => None,
            Some(names) => Some(
                names
                    .iter()
                    .map(|n| {
                        dxso::d3d8::parse_usage(n.trim()).ok_or_else(|| {
                            CliError::Usage(format!(
                                "--decl: `{n}` is not a declaration usage (position, \
                                 blendweight, blendindices, normal, psize, texcoord, tangent, \
                                 binormal, tessfactor, positiont, color, fog, depth, sample, \
                                 with an index 0-15)"
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let (inputs, several) = self.inputs.expand(s, KINDS)?;
        let output = OutputArg {
            output: self.output.clone(),
        };
        let per_input = PerInput::decide(&output, several);
        per_input.check(&inputs, "dxso", self.force.force)?;
        if several && matches!(per_input, PerInput::Stdout { .. }) {
            return Err(CliError::Usage(
                "several inputs give several binaries, which standard output cannot hold: write them to a folder with `-o DIR`".into(),
            )
            .into());
        }
        if matches!(per_input, PerInput::Stdout { .. }) {
            output.check_binary(s)?;
        }
        let read = self.inputs.shader_read(true);
        let runtime = super::validate::RuntimeArg {
            runtime: super::validate::RuntimeName::D3d8,
        };
        let (tally, errors) = batch::run(s, &inputs, |input| {
            let source = input.read()?;
            let (_, shader) = source.shader(&read)?;
            // Validated with Direct3D 8's rules (and converted with the default usages) first.
            runtime
                .as_d3d9(shader.clone())
                .with_context(|| source.name.clone())?;
            let converted = dxso::d3d8::to_d3d9(&shader, decl.as_deref())
                .with_context(|| source.name.clone())?;
            let out = dxso::encode(&converted);
            match per_input.path_for(&input.rel, "dxso")? {
                None => return Ok(batch::Outcome::passed(out)),
                Some(path) => {
                    crate::output::write_file(s, &path, &out)?;
                }
            }
            Ok(batch::Outcome::passed(Vec::new()))
        })?;
        batch::errors_to_document(s, errors);
        batch::summary(s, several, &tally, "converted", "failed");
        Ok(tally.status())
    }
}
