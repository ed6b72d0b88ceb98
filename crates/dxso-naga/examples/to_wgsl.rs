//! Translates a shader to WGSL and prints it with its reflection.
//!
//! ```sh
//! cargo run -p dxso-naga --example to_wgsl -- shader.dxso
//! ```
//! Without an argument it translates a small built-in pixel shader.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bytes = match std::env::args_os().nth(1) {
        Some(path) => std::fs::read(path)?,
        None => {
            // ps_2_0: dcl t0.xy; dcl_2d s0; texld r0, t0, s0; mul oC0, r0, c0
            let words: [u32; 16] = [
                0xFFFF_0200,
                0x0200_001F,
                0x8000_0000,
                0xB003_0000,
                0x0200_001F,
                0x9000_0000,
                0xA00F_0800,
                0x0300_0042,
                0x800F_0000,
                0xB0E4_0000,
                0xA0E4_0800,
                0x0300_0005,
                0x800F_0800,
                0x80E4_0000,
                0xA0E4_0000,
                0x0000_FFFF,
            ];
            words.iter().flat_map(|w| w.to_le_bytes()).collect()
        }
    };
    let shader = dxso::decode(&bytes)?;
    let t = dxso_naga::translate(&shader, &dxso_naga::Options::default())?;
    let wgsl = t.write(dxso_naga::Target::Wgsl, &dxso_naga::WriteOptions::default())?;
    println!("{}", wgsl.text().unwrap_or_default());
    eprintln!("{:#?}", t.reflection);
    Ok(())
}
