//! Generates a program and prints its listing, its interface and what the validator says.
//!
//! ```sh
//! cargo run -p dxso-smith --example generate -- ps_3_0 42
//! cargo run -p dxso-smith --example generate -- vs_1_1 7 --differential
//! ```
//!
//! Arguments: a version (`vs_1_1` .. `ps_3_0`, default `vs_3_0`), a seed (default 0), and
//! `--differential` for the preset that compares engines.

use dxso_smith::{Config, Shader, ALL_VERSIONS};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let version_name = args
        .iter()
        .find(|a| a.starts_with("vs_") || a.starts_with("ps_"))
        .map_or("vs_3_0", |s| s.as_str());
    let Some(version) = ALL_VERSIONS
        .iter()
        .copied()
        .find(|v| v.to_string() == version_name)
    else {
        eprintln!("unknown version {version_name}; one of vs_1_1 vs_2_0 vs_2_x vs_3_0 ps_1_1 ps_1_2 ps_1_3 ps_1_4 ps_2_0 ps_2_x ps_3_0");
        return ExitCode::from(2);
    };
    let seed: u64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(0);
    let base = if args.iter().any(|a| a == "--differential") {
        Config::differential()
    } else {
        Config::default()
    };
    let program = Shader::from_seed(seed, &base.with_version(version));
    print!("{}", dxso_text::print(program.shader()));

    let i = program.interface();
    println!("\n{}", i.summary(version));
    for input in &i.inputs {
        let usage = input
            .usage
            .map(|(u, n)| format!(" ({}{n})", u.name()))
            .unwrap_or_default();
        println!(
            "  reads  {}{usage}: components {:?}",
            input.register.name(version),
            input.read
        );
    }
    for c in &i.float_constants {
        match c.defined {
            Some(bits) => println!(
                "  const  c{} = {:?} (def)",
                c.index,
                bits.map(f32::from_bits)
            ),
            None => println!("  const  c{} (set by the application)", c.index),
        }
    }
    for c in &i.int_constants {
        println!("  const  i{} = {:?} (defi)", c.index, c.defined);
    }
    for c in &i.bool_constants {
        println!("  const  b{} = {:?}", c.index, c.defined);
    }
    for s in &i.samplers {
        println!("  samples s{} ({})", s.index, s.texture_type.name());
    }
    for o in &i.outputs {
        println!("  writes {}: {:?}", o.register.name(version), o.mask);
    }
    println!("  at most {} slots executed", i.max_executed_slots);
    let report = dxso::validate(program.shader());
    println!(
        "validate: {} ({} findings)",
        if report.is_valid() {
            "valid"
        } else {
            "INVALID"
        },
        report.diagnostics.len()
    );
    if report.is_valid() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
