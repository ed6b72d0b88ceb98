use crate::input::FileArg;
use crate::session::Session;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;

/// Decompile a whole effect to `.fx` source: the parameters with their types, semantics,
/// annotations and default values, the textures and samplers with their sampler_state blocks,
/// the techniques and passes with every state by name (enumerated values by their names), the
/// embedded shaders as functions (`VertexShader = compile vs_2_0 VS0();`) whose uniforms are
/// the effect's parameters, the preshaders folded back into expressions of the parameters and
/// the states chosen by expressions (shader arrays indexed by a parameter) written as
/// expressions. A program that cannot be folded is listed in a comment beside its place.
///
/// Examples:
///   dxso fx decompile BasicEffect.fxb
///   dxso fx decompile BasicEffect.fxb -o BasicEffect.fx
///   dxso fx decompile BasicEffect.fxb --plain     (shader bodies one statement per instruction)
///
/// Exit status: 0 on success, 1 when the effect is malformed or a shader cannot be
/// decompiled, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: FileArg,
    #[command(flatten)]
    output: crate::output::OutputArg,
    /// Shader bodies one statement per instruction on register-named locals.
    #[arg(long)]
    plain: bool,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let inputs: Vec<&std::path::Path> = self.input.file.iter().map(PathBuf::as_path).collect();
        self.output.check(&inputs, &[])?;
        let (source, effect) = super::read_effect(s, &self.input)?;
        let options = dxso_decompile::Options {
            readable: !self.plain,
        };
        let fx = dxso_decompile::decompile_effect(&effect, &options)
            .with_context(|| format!("decompiling {}", source.name))?;
        if self.output.is_stdout() {
            s.print(&fx.text)?;
        } else {
            self.output.write_text(s, fx.text.as_bytes())?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
