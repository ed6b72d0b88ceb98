//! One module per subcommand; each has an `Opts` (its doc comment is the help text, with
//! examples and exit status) and `run(self, &Session) -> anyhow::Result<ExitCode>`.

use crate::session::Session;
use std::process::ExitCode;

pub mod asm;
pub mod bench;
pub mod compile;
pub mod completions;
pub mod demo;
pub mod disasm;
pub mod dp2;
pub mod dump;
pub mod fx;
pub mod info;
pub mod manpage;
pub mod reencode;
pub mod render;
pub mod run;
pub mod tessellate;
pub mod translate;
pub mod validate;

/// The subcommands, in the order `dxso --help` lists them.
#[derive(clap::Subcommand)]
pub enum Command {
    Info(info::Opts),
    Dump(dump::Opts),
    Disasm(disasm::Opts),
    Asm(asm::Opts),
    Compile(compile::Opts),
    Validate(validate::Opts),
    Reencode(reencode::Opts),
    Fx(fx::Opts),
    Run(run::Opts),
    Translate(translate::Opts),
    Dp2(dp2::Opts),
    Tessellate(tessellate::Opts),
    Render(render::Opts),
    Bench(bench::Opts),
    Demo(demo::Opts),
    Completions(completions::Opts),
    Manpage(manpage::Opts),
}

impl Command {
    /// Runs the subcommand.
    pub fn run(self, s: &Session) -> anyhow::Result<ExitCode> {
        match self {
            Command::Info(o) => o.run(s),
            Command::Dump(o) => o.run(s),
            Command::Disasm(o) => o.run(s),
            Command::Asm(o) => o.run(s),
            Command::Compile(o) => o.run(s),
            Command::Validate(o) => o.run(s),
            Command::Reencode(o) => o.run(s),
            Command::Fx(o) => o.run(s),
            Command::Run(o) => o.run(s),
            Command::Translate(o) => o.run(s),
            Command::Dp2(o) => o.run(s),
            Command::Tessellate(o) => o.run(s),
            Command::Render(o) => o.run(s),
            Command::Bench(o) => o.run(s),
            Command::Demo(o) => o.run(s),
            Command::Completions(o) => o.run(s),
            Command::Manpage(o) => o.run(s),
        }
    }
}
