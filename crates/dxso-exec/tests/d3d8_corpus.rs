//! The Direct3D 8 shaders of the corpus (Wine's d3d8 tests): each validates under the Direct3D 8
//! runtime, converts to Direct3D 9 bytecode that validates, and runs to the outputs Direct3D 8
//! defines. The conversion keeps every instruction but the scalar instructions' swizzle, so
//! the outputs are the Direct3D 8 shader's as long as (1) the instructions are unchanged and
//! (2) the scalar instructions read `.w`; the test checks both, the second against the colours
//! Wine's d3d8 `test_scalar_instructions` records on Windows.

use dxso::validate::Options as ValidateOptions;
use dxso::{Instruction, Opcode, Runtime, Shader};
use dxso_exec::{Attribute, Resources, VertexBatch, VertexShader};

fn d3d8() -> ValidateOptions {
    ValidateOptions {
        runtime: Runtime::D3d8,
        ..ValidateOptions::default()
    }
}

fn scalar(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Rcp | Opcode::Rsq | Opcode::Exp | Opcode::Log | Opcode::ExpP | Opcode::LogP
    )
}

/// The converted shader's instructions without its declarations equal the original's, but
/// for the scalar instructions' swizzle (which must then be `.w` replicated, or the original's
/// replicate).
fn same_program(original: &Shader, converted: &Shader) -> Result<(), String> {
    let a: Vec<&Instruction> = original.instructions().collect();
    let b: Vec<&Instruction> = converted
        .instructions()
        .filter(|i| i.opcode != Opcode::Dcl)
        .collect();
    if a.len() != b.len() {
        return Err(format!("{} instructions became {}", a.len(), b.len()));
    }
    for (n, (x, y)) in a.iter().zip(&b).enumerate() {
        if scalar(x.opcode) {
            let (sx, sy) = (x.srcs.iter().next(), y.srcs.iter().next());
            let (Some(sx), Some(sy)) = (sx, sy) else {
                return Err(format!("instruction {n} lost its source"));
            };
            let want = sx
                .swizzle
                .replicated()
                .map_or(dxso::Swizzle::replicate(sx.swizzle.get(3)), |c| {
                    dxso::Swizzle::replicate(c)
                });
            if sy.swizzle != want || sx.register != sy.register || x.dst != y.dst {
                return Err(format!("instruction {n}: {x:?} became {y:?}"));
            }
        } else if x != y {
            return Err(format!("instruction {n}: {x:?} became {y:?}"));
        }
    }
    Ok(())
}

/// Runs a converted vertex shader with c0 = (0.25, 0.25, 0.25, 2) and every input bound by
/// register; returns oD0 of the first vertex. (Wine's test sets c0.x = 0.25 and c0.w = 2: its
/// expected colours follow from .w, the colours it calls broken from .x.)
fn od0(shader: &Shader) -> Result<Option<[f32; 4]>, String> {
    let vs = VertexShader::new(shader).map_err(|e| e.to_string())?;
    let inputs = vs
        .inputs()
        .into_iter()
        .map(|r| Attribute {
            register: r,
            values: vec![[0.25, -0.5, 0.75, 1.0]; 4],
        })
        .collect();
    let mut resources = Resources::default();
    resources.constants.float = vec![[0.25, 0.25, 0.25, 2.0]; 96];
    let out = vs
        .run(&VertexBatch { count: 4, inputs }, &resources)
        .map_err(|e| e.to_string())?;
    Ok(out
        .registers
        .iter()
        .find(|(r, _)| r.to_string() == "oD0")
        .map(|(_, v)| v[0]))
}

#[test]
fn direct3d8_shaders_validate_convert_and_run() {
    let Some(dir) = dxso_corpus::corpus_or_skip("direct3d8_shaders") else {
        return;
    };
    let entries: Vec<_> = dxso_corpus::entries(&dir)
        .into_iter()
        .filter(|e| e.rel.starts_with("wine/d3d8_"))
        .collect();
    let mut failures = Vec::new();
    let (mut as_d3d9, mut as_d3d8, mut converted_valid, mut ran, mut scalar_checked) =
        (0, 0, 0, 0, 0);
    for e in &entries {
        let shader = dxso::decode(&e.bytes()).unwrap_or_else(|err| panic!("{}: {err}", e.rel));
        as_d3d9 += usize::from(dxso::validate(&shader).is_valid());
        let report = dxso::validate_with(&shader, &d3d8());
        if !report.is_valid() {
            failures.push(format!(
                "{}: not valid Direct3D 8: {}",
                e.rel,
                report.errors().next().unwrap()
            ));
            continue;
        }
        as_d3d8 += 1;
        let converted = match dxso::d3d8::to_d3d9(&shader, None) {
            Ok(c) => c,
            Err(err) => {
                failures.push(format!("{}: conversion: {err}", e.rel));
                continue;
            }
        };
        // The bytes round-trip, and Direct3D 9 accepts them.
        let bytes = dxso::encode(&converted);
        let converted = dxso::decode(&bytes).unwrap();
        let report = dxso::validate(&converted);
        if !report.is_valid() {
            failures.push(format!(
                "{}: converted, not valid Direct3D 9: {}",
                e.rel,
                report.errors().next().unwrap()
            ));
            continue;
        }
        converted_valid += 1;
        if let Err(why) = same_program(&shader, &converted) {
            failures.push(format!("{}: {why}", e.rel));
            continue;
        }
        if !converted.version.is_vertex() {
            // ps_1_x: the instructions are the same bytes, and no input needs a declaration.
            ran += 1;
            continue;
        }
        match od0(&converted) {
            Ok(v) => {
                ran += 1;
                // The colour Windows draws (Wine's d3d8 test_scalar_instructions; its
                // color_match allows 4 per channel).
                let windows = [
                    ("rcp_test", 0x80),
                    ("rsq_test", 0xb4),
                    ("exp_test", 0x40),
                    ("expp_test", 0x40),
                    ("log_test", 0xff),
                    ("logp_test", 0xff),
                ]
                .into_iter()
                .find(|(name, _)| e.rel.ends_with(&format!("__{name}.dxso")));
                if let (Some((_, want)), Some(v)) = (windows, v) {
                    scalar_checked += 1;
                    let byte = |c: f32| (c.clamp(0.0, 1.0) * 255.0).round() as i32;
                    if v[..3].iter().any(|c| (byte(*c) - want).abs() > 4) {
                        failures.push(format!(
                            "{}: oD0 {v:?}, Windows draws {want:#04x} per channel",
                            e.rel
                        ));
                    }
                }
            }
            Err(err) => failures.push(format!("{}: run: {err}", e.rel)),
        }
    }
    println!(
        "{} Direct3D 8 shaders: valid as Direct3D 9 {as_d3d9}, as Direct3D 8 {as_d3d8}, \
         converted and valid {converted_valid}, ran {ran}, scalar .w checked {scalar_checked}",
        entries.len()
    );
    assert_eq!(entries.len(), 21, "the corpus holds 21 Direct3D 8 shaders");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((as_d3d8, converted_valid, ran), (21, 21, 21));
    assert_eq!(scalar_checked, 6);
}
