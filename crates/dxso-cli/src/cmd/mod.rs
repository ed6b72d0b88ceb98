//! One module per subcommand; each has an `Opts` (its doc comment is the help text) and `run`.

use std::process::ExitCode;

pub mod bench;
pub mod dp2;
pub mod dump;
pub mod info;
pub mod reencode;
pub mod tessellate;

/// The subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    Info(info::Opts),
    Dump(dump::Opts),
    Reencode(reencode::Opts),
    Bench(bench::Opts),
    Dp2(dp2::Opts),
    Tessellate(tessellate::Opts),
}

impl Command {
    pub fn run(self) -> anyhow::Result<ExitCode> {
        match self {
            Command::Info(o) => o.run(),
            Command::Dump(o) => o.run(),
            Command::Reencode(o) => o.run(),
            Command::Bench(o) => o.run(),
            Command::Dp2(o) => o.run(),
            Command::Tessellate(o) => o.run(),
        }
    }
}
