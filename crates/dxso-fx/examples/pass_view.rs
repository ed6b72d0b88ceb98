//! Reads an effect, lists its parameters and techniques, sets a parameter and shows what the
//! first pass gives the device: state values, the shaders chosen and their constant registers.
//!
//! ```text
//! cargo run -p dxso-fx --example pass_view -- BasicEffect.fxb
//! ```
//! Without an argument it reads FNA's `BasicEffect` from the shared corpus.

use dxso_fx::runtime::written;
use dxso_fx::{describe, Effect, Runtime};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "corpus/effects/fna_BasicEffect.fxb".to_string());
    let bytes = std::fs::read(&path)?;
    let effect = Effect::parse(&bytes)?;
    assert_eq!(effect.encode(), bytes, "re-encoding is bit-exact");

    println!("{path}: {} parameters", effect.parameters.len());
    for p in &effect.parameters {
        println!("  {:<24} {}", p.name(), describe::type_text(&p.ty));
    }
    let Some(technique) = effect.techniques.first() else {
        return Ok(());
    };
    println!(
        "technique {:?}, {} pass(es)",
        dxso_fx::types::name_str(&technique.name),
        technique.passes.len()
    );

    // A scaling world-view-projection matrix, row by row, where the effect has one.
    let mut rt = Runtime::new(&effect);
    if effect.parameter("WorldViewProj").is_some() {
        let m = [
            2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ];
        rt.set_floats("WorldViewProj", &m)?;
    }
    let view = rt.pass(0, 0)?;
    for s in &view.states {
        println!("  {}[{}] = {:?} ({:?})", s.name, s.index, s.value, s.source);
    }
    for (stage, shader) in [
        ("vertex", &view.vertex_shader),
        ("pixel", &view.pixel_shader),
    ] {
        let Some(v) = shader else { continue };
        println!(
            "{stage} shader {}",
            describe::shader_name(&effect, v.shader.source)
        );
        for (r, c) in written(&v.registers.floats) {
            println!("  c{r} = {c:?}");
        }
    }
    Ok(())
}
