//! `break` and `continue` in a loop counted by an integer constant (`rep i#`): the flattened
//! body dxso generates runs as a loop with real `breakc` and `if`/`else` does, for every
//! iteration count the checker draws.

use dxso_hlsl::equivalence::{check, Tolerance};
use dxso_hlsl::{compile, Options, Profile, Source};

const HLSL: &str = r#"
int n : register(i0);
float4 lim : register(c0);
float4 main(float4 t : TEXCOORD0) : COLOR0
{
    float4 acc = 0;
    float k = 0;
    for (int i = 0; i < n; i++)
    {
        acc += t * k;
        if (acc.x > lim.x) break;
        k += 1;
        if (acc.y > lim.y) continue;
        acc.z += 0.5;
    }
    return acc + k;
}
"#;

/// The same loop with the branches the hardware takes.
const ASM: &str = "
    ps_3_0
    def c1, 0, 1, 0.5, 0
    dcl_texcoord v0
    mov r0, c1.x
    mov r1.x, c1.x
    rep i0
      mad r0, v0, r1.x, r0
      break_gt r0.x, c0.x
      add r1.x, r1.x, c1.y
      if_le r0.y, c0.y
        add r0.z, r0.z, c1.z
      endif
    endrep
    add r0, r0, r1.x
    mov oC0, r0
";

#[test]
fn break_and_continue_in_rep_run_as_branches() {
    let out = compile(
        &Source::new("rep_break.hlsl", HLSL),
        &Options::new("main", Profile::Ps30),
    )
    .expect("compiles");
    assert!(dxso::validate(&out.shader).is_valid());
    // The reference takes the compiled shader's constant table (the same names and registers).
    let mut reference = dxso_text::parse(ASM).expect("assembles");
    let table = out
        .shader
        .items
        .iter()
        .find(|i| matches!(i, dxso::Item::Comment(_)))
        .cloned()
        .expect("a constant table");
    reference.items.insert(0, table);
    for seed in 1..9 {
        check(&reference, &out.shader, 64, seed, Tolerance::default())
            .unwrap_or_else(|m| panic!("seed {seed}: {m}"));
    }
}
