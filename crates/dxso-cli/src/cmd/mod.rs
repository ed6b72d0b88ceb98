//! One module per subcommand; each has an `Opts` (its doc comment is the help text) and `run`.

use std::process::ExitCode;

pub mod asm;
pub mod bench;
pub mod demo;
pub mod disasm;
pub mod dp2;
pub mod dump;
pub mod info;
pub mod reencode;
pub mod tessellate;
pub mod validate;

/// The subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    Info(info::Opts),
    Dump(dump::Opts),
    Reencode(reencode::Opts),
    Validate(validate::Opts),
    Disasm(disasm::Opts),
    Asm(asm::Opts),
    Bench(bench::Opts),
    Demo(demo::Opts),
    Dp2(dp2::Opts),
    Tessellate(tessellate::Opts),
}

impl Command {
    pub fn run(self) -> anyhow::Result<ExitCode> {
        match self {
            Command::Info(o) => o.run(),
            Command::Dump(o) => o.run(),
            Command::Reencode(o) => o.run(),
            Command::Validate(o) => o.run(),
            Command::Disasm(o) => o.run(),
            Command::Asm(o) => o.run(),
            Command::Bench(o) => o.run(),
            Command::Demo(o) => o.run(),
            Command::Dp2(o) => o.run(),
            Command::Tessellate(o) => o.run(),
        }
    }
}
