use crate::batch;
use crate::input::{InputsArg, Kind};
use crate::output::{OutputArg, PerInput};
use crate::session::Session;
use anyhow::{Context, Result};
use std::process::ExitCode;

/// Decompile shaders to HLSL (Direct3D 9 dialect, entry point `main`).
///
/// Uniforms keep the constant table's names, types and registers; registers without an entry
/// get stable names (`c12`, `s0`) bound with register(). Inputs and outputs are structs by
/// semantic; loops, branches and subroutines are structured code. The HLSL compiles back with
/// `dxso compile` (or fxc) for the shader's profile (ps_1_x shaders for ps_2_0) to a shader that
/// computes the same outputs. Reads raw bytecode, fxc /Fh C headers and assembly text. With
/// several inputs, `-o DIR` writes one `.hlsl` per input under DIR; without `-o` the sources
/// follow each other on standard output, each after a `// file: NAME` line.
///
/// Examples:
///   dxso decompile shader.dxso
///   dxso decompile shader.dxso -o shader.hlsl
///   dxso decompile vs.dxso | dxso compile - -T vs_2_0 -E main
///   dxso decompile shader.dxso --plain     (one statement per instruction, register names)
///   dxso decompile shaders/ -o hlsl/
///
/// Exit status: 0 on success, 1 when an input cannot be decoded or decompiled, 2 on usage and
/// I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    inputs: InputsArg,
    /// Where to write: a file, a folder (one source per input), or `-`; absent: standard output.
    #[arg(short, long, value_name = "FILE|DIR")]
    output: Option<std::path::PathBuf>,
    #[command(flatten)]
    force: crate::output::ForceArg,
    /// One statement per instruction on register-named locals: no folding, no idioms.
    #[arg(long)]
    plain: bool,
}

const KINDS: &[Kind] = &[Kind::Bytecode, Kind::Header, Kind::Assembly];

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let (inputs, several) = self.inputs.expand(s, KINDS)?;
        let output = OutputArg {
            output: self.output.clone(),
        };
        let per_input = PerInput::decide(&output, several);
        per_input.check(&inputs, "hlsl", self.force.force)?;
        let read = self.inputs.shader_read(true);
        let options = dxso_decompile::Options {
            readable: !self.plain,
        };
        let (tally, errors) = batch::run(s, &inputs, |input| {
            let source = input.read()?;
            let (_, shader) = source.shader(&read)?;
            let hlsl = dxso_decompile::decompile(&shader, &options)
                .with_context(|| format!("decompiling {}", source.name))?;
            let mut outcome = batch::Outcome {
                passed: true,
                ..Default::default()
            };
            match per_input.path_for(&input.rel, "hlsl")? {
                None => {
                    if several {
                        outcome.stdout = format!("// file: {}\n", source.name).into_bytes();
                    }
                    outcome.stdout.extend_from_slice(hlsl.as_bytes());
                }
                Some(path) => {
                    crate::output::write_file(s, &path, hlsl.as_bytes())?;
                }
            }
            Ok(outcome)
        })?;
        batch::errors_to_document(s, errors);
        batch::summary(s, several, &tally, "decompiled", "failed");
        Ok(tally.status())
    }
}
