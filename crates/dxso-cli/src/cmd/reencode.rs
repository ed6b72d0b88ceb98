use crate::batch;
use crate::input::{InputsArg, Kind};
use crate::output::{OutputArg, PerInput};
use crate::report::CliError;
use crate::session::Session;
use anyhow::Result;
use std::process::ExitCode;

/// Decode shaders and encode them again; the output is bit-identical for every valid input.
///
/// Reads raw bytecode and fxc /Fh C headers (so it also extracts a header's bytecode). With
/// several inputs (or a folder, searched for *.dxso, *.vso, *.pso and *.h), `-o DIR` writes one
/// `.dxso` per input under DIR and a summary line ends the run.
///
/// Examples:
///   dxso reencode shader.dxso -o copy.dxso
///   dxso reencode shader.h -o shader.dxso     (extract the bytecode of an fxc header)
///   dxso reencode shaders/ -o out/ --check
///   cat shader.dxso | dxso reencode | xxd
///
/// Exit status: 0 on success, 1 when an input cannot be decoded (or, with --check, comes back
/// different), 2 on usage and I/O errors (binary output to a terminal without `-o -`, several inputs
/// without `-o DIR`) and refused outputs (in a batch, a file that exists, without --force; two inputs
/// writing one file; an output that is an input), before anything is written.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    inputs: InputsArg,
    /// Where to write: a file, a folder (one file per input), or `-` for standard output.
    /// Absent: standard output unless it is a terminal.
    #[arg(short, long, value_name = "FILE|DIR")]
    output: Option<std::path::PathBuf>,
    #[command(flatten)]
    force: crate::output::ForceArg,
    /// Also fail (exit 1) when the output differs from the input bytes.
    #[arg(long)]
    check: bool,
}

const KINDS: &[Kind] = &[Kind::Bytecode, Kind::Header];

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
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
        let read = self.inputs.shader_read(false);
        let (tally, errors) = batch::run(s, &inputs, |input| {
            let source = input.read()?;
            let (bytes, shader) = source.shader(&read)?;
            let out = dxso::encode(&shader);
            if self.check && out != bytes {
                anyhow::bail!("{}: re-encoded bytes differ from the input", source.name);
            }
            match per_input.path_for(&input.rel, "dxso")? {
                None => return Ok(batch::Outcome::passed(out)),
                Some(path) => {
                    crate::output::write_file(s, &path, &out)?;
                }
            }
            Ok(batch::Outcome::passed(Vec::new()))
        })?;
        batch::errors_to_document(s, errors);
        batch::summary(s, several, &tally, "re-encoded", "failed");
        Ok(tally.status())
    }
}
