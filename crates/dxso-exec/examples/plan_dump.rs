//! Prints the plan of a shader written in assembly: `plan_dump FILE.asm`.

fn main() {
    let path = std::env::args().nth(1).expect("usage: plan_dump FILE.asm");
    let src = std::fs::read_to_string(path).expect("readable");
    let shader = dxso_text::parse(&src).expect("assembles");
    let plan =
        dxso_exec::plan::Plan::lower(&shader, &dxso_exec::Options::default()).expect("lowers");
    for (i, op) in plan.ops.iter().enumerate() {
        println!("{i:4} {op:?}");
    }
    println!(
        "{} operations, {} slots ({} uniform, zeroed {:?}), inputs {:?}, outputs {:?}",
        plan.ops.len(),
        plan.slots,
        plan.uniforms.len(),
        plan.zeroed,
        plan.inputs.iter().map(|i| i.register).collect::<Vec<_>>(),
        plan.outputs.iter().map(|o| o.register).collect::<Vec<_>>()
    );
}
