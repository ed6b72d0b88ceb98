//! Relative reads (`c[a0.c + n]`, docs/SEMANTICS.md 6) see the address register as it is when
//! they run, wherever they are lowered: a subroutine comes after the main program in the
//! stream but runs before the rest of it, so it cannot reuse what the main program gathered.

use dxso_exec::*;

fn engines() -> Vec<Engine> {
    let mut out = vec![Engine::Interpreter];
    if cfg!(feature = "jit") {
        out.extend([Engine::Jit, Engine::JitScalar]);
    }
    out
}

fn run(src: &str, constants: Vec<[f32; 4]>, engine: Engine) -> Outputs {
    let shader = dxso_text::parse(src).unwrap();
    let vs = VertexShader::with_options(
        &shader,
        &Options {
            lanes: 8,
            engine,
            ..Options::default()
        },
    )
    .unwrap();
    let mut batch = VertexBatch::new(20);
    batch.set(
        InputRegister::V(0),
        (0..20).map(|i| [i as f32, 0.0, 0.0, 1.0]).collect(),
    );
    let mut resources = Resources::default();
    resources.constants.float = constants;
    vs.run(&batch, &resources).unwrap()
}

/// The main program reads `c13[a0.x]` after the call, the subroutine reads it too (found by
/// `batched_vs_reference`: the subroutine read the main program's gathered copy, which at that
/// point held nothing, or the previous batch's values).
#[test]
fn a_subroutine_gathers_its_own_relative_reads() {
    let src = "vs_2_0
def c14, 1, 2, 3, 4
dcl_position v0
mova a0.x, c0.x
call l0
mov oPos, c13[a0.x]
ret
label l0
mov oT0, c13[a0.x]
add oT1, v0, c13[a0.x]
ret
";
    for engine in engines() {
        let out = run(src, vec![[1.0; 4]], engine);
        let pos = out.get(OutputRegister::Pos).unwrap();
        let t0 = out.get(OutputRegister::TexCoord(0)).unwrap();
        let t1 = out.get(OutputRegister::TexCoord(1)).unwrap();
        for i in 0..20 {
            assert_eq!(pos[i], [1.0, 2.0, 3.0, 4.0], "{engine:?}: oPos of {i}");
            assert_eq!(t0[i], [1.0, 2.0, 3.0, 4.0], "{engine:?}: oT0 of {i}");
            assert_eq!(
                t1[i],
                [i as f32 + 1.0, 2.0, 3.0, 5.0],
                "{engine:?}: oT1 of {i}"
            );
        }
    }
}

/// A subroutine that changes `a0` between calls: each call reads through the new value.
#[test]
fn each_call_reads_through_the_address_register_it_is_given() {
    let src = "vs_2_0
def c10, 10, 10, 10, 10
def c11, 11, 11, 11, 11
dcl_position v0
mova a0.x, c0.x
call l0
mov oT0, r0
mova a0.x, c0.y
call l0
mov oT1, r0
mov oPos, c10[a0.x]
ret
label l0
mov r0, c10[a0.x]
ret
";
    for engine in engines() {
        let out = run(src, vec![[0.0, 1.0, 0.0, 0.0]], engine);
        let t0 = out.get(OutputRegister::TexCoord(0)).unwrap();
        let t1 = out.get(OutputRegister::TexCoord(1)).unwrap();
        let pos = out.get(OutputRegister::Pos).unwrap();
        for i in 0..20 {
            assert_eq!(t0[i], [10.0; 4], "{engine:?}: oT0 of {i}");
            assert_eq!(t1[i], [11.0; 4], "{engine:?}: oT1 of {i}");
            assert_eq!(pos[i], [11.0; 4], "{engine:?}: oPos of {i}");
        }
    }
}
