//! `dxso-bench`: throughput figures of every dxso stage, each against a baseline measured in the
//! same run. `dxso bench <what>` runs this program when it is installed beside `dxso`.
#![forbid(unsafe_code)]

use clap::Parser;
use std::process::ExitCode;

mod compile;
mod decode;
mod exec;
mod latency;
mod measure;
mod render;
mod session;
mod tessellate;
mod text;
mod translate;

/// Measure dxso against its baselines, measured in the same run.
///
/// Each prints a table, or with --json one JSON object whose top-level `ratio` is the figure
/// it is judged by. MojoShader is measured only in builds with the `peer-mojoshader` feature;
/// the corpus is `--corpus DIR`, else `$DXSO_CORPUS`, else the repository's `corpus/`.
///
/// Examples:
///   cargo run --release -p dxso-bench --features peer-mojoshader -- decode
///   dxso-bench text --seconds 0.3 --json
///   dxso bench tessellate
///
/// Exit status: 0 success, 1 a measurement failed (the message says why), 2 usage error.
#[derive(Parser)]
#[command(
    name = "dxso-bench",
    version,
    max_term_width = 100,
    verbatim_doc_comment
)]
struct Cli {
    /// Print one JSON value on standard output instead of a table.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    Compile(compile::Opts),
    Decode(decode::Opts),
    Exec(exec::Opts),
    Latency(latency::Opts),
    Text(text::Opts),
    Tessellate(tessellate::Opts),
    Render(render::Opts),
    Translate(translate::Opts),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let s = session::Session { json: cli.json };
    let result = match cli.what {
        What::Compile(o) => o.run(&s),
        What::Decode(o) => o.run(&s),
        What::Exec(o) => o.run(&s),
        What::Latency(o) => o.run(&s),
        What::Text(o) => o.run(&s),
        What::Tessellate(o) => o.run(&s),
        What::Render(o) => o.run(&s),
        What::Translate(o) => o.run(&s),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("dxso-bench: {e:#}");
            ExitCode::from(1)
        }
    }
}
