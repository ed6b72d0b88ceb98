use crate::session::Session;
use anyhow::Result;
use std::process::ExitCode;

/// Print a shell completion script for dxso.
///
/// Examples:
///   dxso completions bash > ~/.local/share/bash-completion/completions/dxso
///   dxso completions zsh > "${fpath[1]}/_dxso"
///   dxso completions fish > ~/.config/fish/completions/dxso.fish
///   dxso completions powershell >> $PROFILE
///
/// Exit status: 0 on success, 2 on usage errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let mut out = s.out();
        clap_complete::generate(self.shell, &mut crate::cli_command(), "dxso", &mut out);
        out.finish()?;
        Ok(ExitCode::SUCCESS)
    }
}
