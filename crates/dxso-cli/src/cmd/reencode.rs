use crate::input::InputArg;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Decode a shader and encode it again; the output is bit-identical for every valid input.
///
/// Examples:
///   dxso reencode shader.dxso -o copy.dxso
///   dxso reencode shader.h -o shader.dxso     (extract the bytecode of an fxc header)
///   cat shader.dxso | dxso reencode - -o -
///
/// Exit status: 0 on success, 1 when the shader cannot be decoded, 2 on usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: InputArg,
    /// Where to write the bytes (`-` for stdout).
    #[arg(short, long)]
    output: PathBuf,
    /// Also fail (exit 1) when the output differs from the input bytes.
    #[arg(long)]
    check: bool,
}

impl Opts {
    pub fn run(self) -> Result<ExitCode> {
        let (bytes, shader) = self.input.read_decoded()?;
        let out = dxso::encode(&shader);
        if self.check && out != bytes {
            anyhow::bail!(
                "{}: re-encoded bytes differ from the input",
                self.input.display()
            );
        }
        write_output(&self.output, &out)?;
        Ok(ExitCode::SUCCESS)
    }
}

/// Writes bytes to a file or, for `-`, to standard output.
pub fn write_output(path: &PathBuf, bytes: &[u8]) -> Result<()> {
    if path.as_os_str() == "-" {
        std::io::stdout()
            .lock()
            .write_all(bytes)
            .context("writing standard output")
    } else {
        std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
    }
}
