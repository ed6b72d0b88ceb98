//! `dxso`: one command line over the dxso crates, in the manner of `wasm-tools`.
//!
//! Exit status: 0 on success, 1 when the input is bad (the message names the offset and the
//! rule), 2 on usage errors.

use clap::Parser;
use std::process::ExitCode;

mod cmd;
mod input;

/// Direct3D 9 shader bytecode and DP2 patch-stream toolkit.
#[derive(Parser)]
#[command(name = "dxso", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
