//! Every invocation starts from the initial register values of docs/SEMANTICS.md 2, whatever
//! ran before it in the same batch row, in any batch width: registers read before they are
//! written are 0, outputs a path does not write are 0.

use dxso_exec::*;

fn ramp(n: usize) -> Vec<[f32; 4]> {
    (0..n).map(|i| [i as f32, -(i as f32), 0.5, 1.0]).collect()
}

#[test]
fn temporaries_start_at_zero_in_every_batch() {
    // r1.yzw and r2 are read before anything writes them.
    let src = "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r1.x, v0.x\nadd r0, r1, r2\nmov r2, v0\nmov o0, r0\n";
    let shader = dxso_text::parse(src).unwrap();
    for lanes in [8, 16, 32, 64] {
        let vs = VertexShader::with_options(
            &shader,
            &Options {
                lanes,
                ..Options::default()
            },
        )
        .unwrap();
        let mut batch = VertexBatch::new(300);
        batch.set(InputRegister::V(0), ramp(300));
        let out = vs.run(&batch, &Resources::default()).unwrap();
        for (i, v) in out.get(OutputRegister::O(0)).unwrap().iter().enumerate() {
            assert_eq!(*v, [i as f32, 0.0, 0.0, 0.0], "vertex {i}, {lanes} lanes");
        }
    }
}

#[test]
fn registers_written_in_a_branch_are_zero_where_it_was_not_taken() {
    let src = "ps_3_0\ndcl_texcoord v0\nif_lt v0.x, c0.x\nmov r1, v0\nmov oDepth, v0.y\nendif\nmov oC0, r1\n";
    let shader = dxso_text::parse(src).unwrap();
    for lanes in [8, 32] {
        let ps = PixelShader::with_options(
            &shader,
            &Options {
                lanes,
                ..Options::default()
            },
        )
        .unwrap();
        let quads = 40;
        let mut batch = QuadBatch::new(quads);
        // Pixels alternate: even ones take the branch.
        let v: Vec<[f32; 4]> = (0..quads * 4)
            .map(|i| [(i % 2) as f32, i as f32, 2.0, 3.0])
            .collect();
        batch.set(InputRegister::V(0), v.clone());
        let mut res = Resources::default();
        res.constants.float = vec![[0.5; 4]];
        let out = ps.run(&batch, &res).unwrap();
        let color = out.get(OutputRegister::Target(0)).unwrap();
        let depth = out.get(OutputRegister::Depth).unwrap();
        for i in 0..quads * 4 {
            let (want, d) = if i % 2 == 0 {
                (v[i], i as f32)
            } else {
                ([0.0; 4], 0.0)
            };
            assert_eq!(color[i], want, "pixel {i}, {lanes} lanes");
            assert_eq!(depth[i][0], d, "pixel {i} depth, {lanes} lanes");
        }
    }
}

#[test]
fn shaders_and_resources_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<VertexShader>();
    send_sync::<PixelShader>();
    send_sync::<plan::Plan>();
    send_sync::<Resources>();
    send_sync::<Outputs>();
}
