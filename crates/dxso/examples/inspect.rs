//! Decode a shader file, list its instructions with their operand counts, and re-encode it.
//!
//! ```sh
//! cargo run -p dxso --example inspect -- shader.dxso
//! ```

use dxso::{Item, Operands};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: inspect FILE.dxso")?;
    let bytes = std::fs::read(&path)?;
    let shader = dxso::decode(&bytes)?;
    println!("{path}: {}", shader.version);
    for item in &shader.items {
        match item {
            Item::Comment(c) => println!("  comment, {} DWORDs", c.data.len()),
            Item::Instruction(inst) => {
                let info = inst.opcode.info();
                let shape = match inst.operands() {
                    Operands::DstSrc(n) => format!("dst + {n} src"),
                    Operands::Src(n) => format!("{n} src"),
                    other => format!("{other:?}"),
                };
                println!("  {:<12} {shape}", info.mnemonic_for(shader.version));
            }
        }
    }
    if let Some(table) = shader.constant_table() {
        for c in table?.constants {
            println!(
                "  uniform {} at register {}",
                c.name.as_str(),
                c.register_index
            );
        }
    }
    assert_eq!(dxso::encode(&shader), bytes, "re-encoding is bit-exact");
    Ok(())
}
