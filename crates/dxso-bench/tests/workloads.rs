//! The benchmark shaders and their hand-written equivalents compute the same bits.

use dxso_bench::workloads::*;
use dxso_exec::*;

fn assemble(src: &str) -> dxso::Shader {
    dxso_text::parse::parse(src).expect("the workload assembles")
}

#[test]
fn skinning_matches_its_baseline() {
    let vs = VertexShader::new(&assemble(SKINNING_VS)).unwrap();
    for n in [1, 7, 8, 33, 5000] {
        let (batch, res) = skinning_inputs(n);
        let ours = vs.run(&batch, &res).unwrap();
        let mut theirs = Outputs::default();
        skinning_baseline(&batch, &res, &mut theirs);
        assert_eq!(ours, theirs, "{n} vertices");
        assert_eq!(ours.registers.len(), 3);
    }
}

#[test]
fn lighting_matches_its_baseline() {
    let ps = PixelShader::new(&assemble(LIGHTING_PS)).unwrap();
    for quads in [1, 3, 64, 1500] {
        let (batch, res) = lighting_inputs(quads);
        let ours = ps.run(&batch, &res).unwrap();
        let mut theirs = Outputs::default();
        lighting_baseline(&batch, &res, &mut theirs);
        assert_eq!(ours, theirs, "{quads} quads");
        let lit = ours.registers[0].1.iter().filter(|c| c[0] > 0.0).count();
        assert!(lit > quads, "most pixels are lit ({lit} of {})", 4 * quads);
    }
}

#[test]
fn partial_batches_and_thread_counts_agree() {
    let shader = dxso_text::parse(SKINNING_VS).unwrap();
    let vs = VertexShader::new(&shader).unwrap();
    let (batch, res) = skinning_inputs(5001);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let four = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let a = one.install(|| vs.run(&batch, &res)).unwrap();
    let b = four.install(|| vs.run(&batch, &res)).unwrap();
    assert_eq!(a, b);
    // The first 37 vertices alone give the same first 37 results.
    let mut small = batch.clone();
    small.count = 37;
    for attr in &mut small.inputs {
        attr.values.truncate(37);
    }
    let c = vs.run(&small, &res).unwrap();
    for (r, values) in &c.registers {
        assert_eq!(&values[..], &a.get(*r).unwrap()[..37]);
    }
}
