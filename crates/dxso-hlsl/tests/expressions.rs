//! Random well-typed HLSL float expressions over four uniforms: the compiled pixel shader (and
//! the vs_1_1 vertex shader, where abs, lerp, selects and saturate are lowered to what vs_1_1
//! has), run on dxso-exec with random uniform values, returns what the expression evaluates to
//! in Rust.

use dxso::ctab::RegisterSet;
use dxso_exec::{PixelShader, QuadBatch, Resources, VertexBatch, VertexShader};
use dxso_hlsl::{compile, Options, Profile, Source};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum E {
    U(usize),
    Lit(f32),
    Neg(Box<E>),
    Abs(Box<E>),
    Sat(Box<E>),
    Sqrt(Box<E>),
    Add(Box<E>, Box<E>),
    Sub(Box<E>, Box<E>),
    Mul(Box<E>, Box<E>),
    /// `a / (1 + abs(b))`: never a division by zero.
    Div(Box<E>, Box<E>),
    Min(Box<E>, Box<E>),
    Max(Box<E>, Box<E>),
    Lerp(Box<E>, Box<E>, Box<E>),
    /// `a > b ? c : d`.
    Select(Box<E>, Box<E>, Box<E>, Box<E>),
}

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![
        (0usize..4).prop_map(E::U),
        (-8i32..=8).prop_map(|v| E::Lit(v as f32 * 0.25)),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        let b = |e: E| Box::new(e);
        prop_oneof![
            inner.clone().prop_map(move |a| E::Neg(b(a))),
            inner.clone().prop_map(move |a| E::Abs(b(a))),
            inner.clone().prop_map(move |a| E::Sat(b(a))),
            inner.clone().prop_map(move |a| E::Sqrt(b(a))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Add(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Sub(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Mul(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Div(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Min(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Max(b(x), b(y))),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(move |(x, y, z)| E::Lerp(
                b(x),
                b(y),
                b(z)
            )),
            (inner.clone(), inner.clone(), inner.clone(), inner.clone())
                .prop_map(move |(w, x, y, z)| E::Select(b(w), b(x), b(y), b(z))),
        ]
    })
}

fn hlsl(e: &E) -> String {
    match e {
        E::U(i) => format!("u{i}"),
        E::Lit(v) => format!("({v:?})"),
        E::Neg(a) => format!("(-({}))", hlsl(a)),
        E::Abs(a) => format!("abs({})", hlsl(a)),
        E::Sat(a) => format!("saturate({})", hlsl(a)),
        E::Sqrt(a) => format!("sqrt(abs({}))", hlsl(a)),
        E::Add(a, b) => format!("({} + {})", hlsl(a), hlsl(b)),
        E::Sub(a, b) => format!("({} - {})", hlsl(a), hlsl(b)),
        E::Mul(a, b) => format!("({} * {})", hlsl(a), hlsl(b)),
        E::Div(a, b) => format!("({} / (1.0 + abs({})))", hlsl(a), hlsl(b)),
        E::Min(a, b) => format!("min({}, {})", hlsl(a), hlsl(b)),
        E::Max(a, b) => format!("max({}, {})", hlsl(a), hlsl(b)),
        E::Lerp(a, b, t) => format!("lerp({}, {}, {})", hlsl(a), hlsl(b), hlsl(t)),
        E::Select(a, b, c, d) => {
            format!("({} > {} ? {} : {})", hlsl(a), hlsl(b), hlsl(c), hlsl(d))
        }
    }
}

/// The value in f64, or `None` when a comparison is too close to call (the compiled code
/// may round its operands differently).
fn eval(e: &E, u: &[f32; 4]) -> Option<f64> {
    let v = |x: &E| eval(x, u);
    Some(match e {
        E::U(i) => f64::from(u[*i]),
        E::Lit(x) => f64::from(*x),
        E::Neg(a) => -v(a)?,
        E::Abs(a) => v(a)?.abs(),
        E::Sat(a) => v(a)?.clamp(0.0, 1.0),
        E::Sqrt(a) => v(a)?.abs().sqrt(),
        E::Add(a, b) => v(a)? + v(b)?,
        E::Sub(a, b) => v(a)? - v(b)?,
        E::Mul(a, b) => v(a)? * v(b)?,
        E::Div(a, b) => v(a)? / (1.0 + v(b)?.abs()),
        E::Min(a, b) => v(a)?.min(v(b)?),
        E::Max(a, b) => v(a)?.max(v(b)?),
        E::Lerp(a, b, t) => {
            let (a, b, t) = (v(a)?, v(b)?, v(t)?);
            a + (b - a) * t
        }
        E::Select(a, b, c, d) => {
            let (a, b) = (v(a)?, v(b)?);
            if (a - b).abs() <= 1e-3 * (1.0 + a.abs().max(b.abs())) {
                return None;
            }
            if a > b {
                v(c)?
            } else {
                v(d)?
            }
        }
    })
}

/// The largest magnitude any subexpression reaches: the error bound scales with it.
fn magnitude(e: &E, u: &[f32; 4]) -> f64 {
    let here = eval(e, u).map_or(0.0, f64::abs);
    let kids: f64 = match e {
        E::U(_) | E::Lit(_) => 0.0,
        E::Neg(a) | E::Abs(a) | E::Sat(a) | E::Sqrt(a) => magnitude(a, u),
        E::Add(a, b) | E::Sub(a, b) | E::Mul(a, b) | E::Div(a, b) | E::Min(a, b) | E::Max(a, b) => {
            magnitude(a, u).max(magnitude(b, u))
        }
        E::Lerp(a, b, c) => magnitude(a, u).max(magnitude(b, u)).max(magnitude(c, u)),
        E::Select(a, b, c, d) => magnitude(a, u)
            .max(magnitude(b, u))
            .max(magnitude(c, u))
            .max(magnitude(d, u)),
    };
    here.max(kids)
}

fn run(src: &str, u: &[f32; 4], profile: Profile) -> f32 {
    let out = compile(
        &Source::new("expr.hlsl", src),
        &Options::new("main", profile),
    )
    .unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    let shader = out.shader;
    assert!(dxso::validate(&shader).is_valid(), "{src}");
    let mut res = Resources::default();
    res.constants.float = vec![[0.0; 4]; 256];
    res.constants.int = vec![[0; 4]; 16];
    res.constants.bool = vec![false; 16];
    let table = shader
        .constant_table()
        .and_then(Result::ok)
        .unwrap_or_default();
    for c in &table.constants {
        let name = c.name.as_str().into_owned();
        if c.register_set() != Some(RegisterSet::Float4) {
            continue;
        }
        let i: usize = name[1..].parse().expect("u0..u3");
        res.constants.float[c.register_index as usize] = [u[i]; 4];
    }
    if profile.is_vertex() {
        let vs = VertexShader::new(&shader).expect("the shader runs");
        let o = vs.run(&VertexBatch::new(1), &res).expect("the shader runs");
        return o.get(dxso_exec::OutputRegister::Pos).expect("oPos")[0][0];
    }
    let ps = PixelShader::new(&shader).expect("the shader runs");
    let o = ps.run(&QuadBatch::new(1), &res).expect("the shader runs");
    o.get(dxso_exec::OutputRegister::Target(0)).expect("oC0")[0][0]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn compiled_expressions_evaluate_as_in_rust(
        e in expr(),
        u in proptest::array::uniform4(-4.0f32..4.0),
    ) {
        let Some(want) = eval(&e, &u) else { return Ok(()) };
        let src = format!(
            "float u0; float u1; float u2; float u3;\n\
             float4 main() : COLOR {{ return float4({}, 0, 0, 1); }}",
            hlsl(&e)
        );
        let got = f64::from(run(&src, &u, Profile::Ps30));
        let scale = 1.0 + magnitude(&e, &u);
        prop_assert!(
            (got - want).abs() <= 1e-4 * scale,
            "{} with u = {:?}: got {}, expected {}", hlsl(&e), u, got, want
        );
    }

    #[test]
    fn compiled_vs11_expressions_evaluate_as_in_rust(
        e in expr(),
        u in proptest::array::uniform4(-4.0f32..4.0),
    ) {
        let Some(want) = eval(&e, &u) else { return Ok(()) };
        let src = format!(
            "float u0; float u1; float u2; float u3;\n\
             float4 main() : POSITION {{ return float4({}, 0, 0, 1); }}",
            hlsl(&e)
        );
        let got = f64::from(run(&src, &u, Profile::Vs11));
        let scale = 1.0 + magnitude(&e, &u);
        prop_assert!(
            (got - want).abs() <= 1e-4 * scale,
            "{} with u = {:?}: got {}, expected {}", hlsl(&e), u, got, want
        );
    }
}
