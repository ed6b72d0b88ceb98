use crate::report::CliError;
use crate::session::Session;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Print dxso's man page (roff), or write one page per command into a folder.
///
/// Examples:
///   dxso manpage > dxso.1                 (read it with `man -l dxso.1`)
///   dxso manpage --dir man1/               (dxso.1, dxso-info.1, dxso-dp2-run.1, ...)
///
/// Installed pages go to a man1 folder of the system's manual path, such as
/// /usr/local/share/man/man1.
///
/// Exit status: 0 on success, 2 on usage errors and when a page cannot be written.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// Write `dxso.1` and a `dxso-<command>.1` for every subcommand into this folder.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let command = crate::cli_command();
        self.printed.apply(s, &[])?;
        let Some(dir) = self.dir else {
            let mut out = s.out();
            clap_mangen::Man::new(command).render(&mut out)?;
            out.finish()?;
            return Ok(ExitCode::SUCCESS);
        };
        if dir.exists() && !dir.is_dir() {
            return Err(CliError::Usage(format!("{} is not a folder", dir.display())).into());
        }
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut written = 0;
        let mut pages = vec![command];
        while let Some(mut page) = pages.pop() {
            page.build();
            let name = page
                .get_display_name()
                .unwrap_or(page.get_name())
                .to_string();
            let path = dir.join(format!("{name}.1"));
            let mut bytes = Vec::new();
            clap_mangen::Man::new(page.clone()).render(&mut bytes)?;
            std::fs::File::create(&path)
                .and_then(|mut f| f.write_all(&bytes))
                .with_context(|| format!("writing {}", path.display()))?;
            written += 1;
            pages.extend(
                page.get_subcommands()
                    .filter(|c| c.get_name() != "help")
                    .cloned(),
            );
        }
        s.note(&format!("wrote {written} man pages to {}", dir.display()));
        Ok(ExitCode::SUCCESS)
    }
}
