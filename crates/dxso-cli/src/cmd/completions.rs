use crate::session::Session;
use anyhow::Result;
use std::process::ExitCode;

/// Print a shell completion script for dxso.
///
/// Examples:
///   dxso completions bash > dxso.bash
///   dxso completions zsh > _dxso
///   dxso completions fish > dxso.fish
///   dxso completions powershell > dxso.ps1
///
/// Where each shell finds the script: bash in ~/.local/share/bash-completion/completions/dxso,
/// zsh as _dxso in a folder of $fpath, fish in ~/.config/fish/completions/dxso.fish,
/// PowerShell appended to $PROFILE.
///
/// Exit status: 0 on success, 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        self.printed.apply(s, &[])?;
        let mut out = s.out();
        clap_complete::generate(self.shell, &mut crate::cli_command(), "dxso", &mut out);
        out.finish()?;
        Ok(ExitCode::SUCCESS)
    }
}
