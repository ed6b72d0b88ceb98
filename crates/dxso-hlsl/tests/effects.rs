//! FNA's stock effects compiled from source against fxc's binaries of the same source
//! (`corpus/effects/fna_*.fxb`, sources under `corpus/hlsl/fna/`): parameters, techniques,
//! passes, states and every embedded shader (by the differential checker).

use dxso_fx::Effect;
use dxso_hlsl::effect::compile_effect;
use dxso_hlsl::equivalence::effect::{compare_effects, shaders_by_place};
use dxso_hlsl::equivalence::{check, Tolerance};
use dxso_hlsl::{FileIncludes, Options, Profile, Source};
use std::path::Path;
use std::sync::Arc;

fn corpus() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus"))
}

/// `(blob, source)` of every fx_2_0 case of `CASES.tsv` whose blob is FNA's.
fn cases() -> Vec<(String, String)> {
    let tsv = std::fs::read_to_string(corpus().join("hlsl/CASES.tsv")).unwrap();
    tsv.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() > 3 && f[3] == "fx_2_0" && f[0].starts_with("effects/fna_"))
                .then(|| (f[0].to_string(), f[1].to_string()))
        })
        .collect()
}

fn options(path: &Path) -> Options {
    let mut o = Options::new("main", Profile::Vs20);
    o.includes = Arc::new(FileIncludes {
        dirs: vec![path.parent().unwrap().to_path_buf()],
    });
    o
}

/// The median ratio of the embedded shaders' instruction counts to fxc's may not rise above
/// this (the bar is 1.25; the code generator reaches fxc's counts).
const CEILING_MEDIAN: f64 = 1.0;

#[test]
fn fna_stock_effects_against_fxc() {
    let mut out = String::new();
    let mut compiled = 0;
    let mut matched = 0;
    let mut structure = 0;
    let (mut equivalent, mut shaders) = (0, 0);
    let mut ratios = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 10, "{} FNA effect cases", cases.len());
    for (blob, source) in &cases {
        let fxc = Effect::parse(&std::fs::read(corpus().join(blob)).unwrap()).unwrap();
        let path = corpus().join("hlsl").join(source);
        let text = std::fs::read_to_string(&path).unwrap();
        let src = Source::new(path.to_string_lossy(), text);
        match compile_effect(&src, &options(&path)) {
            Ok(c) => {
                compiled += 1;
                let bytes = c.bytes();
                let back = Effect::parse(&bytes).expect("dxso's effect parses back");
                assert_eq!(
                    back, c.effect,
                    "{blob}: the written effect reads back the same"
                );
                let r = compare_effects(&fxc, &back);
                if r.parameters.0 == r.parameters.1
                    && r.techniques.0 == r.techniques.1
                    && r.passes.0 == r.passes.1
                    && r.states.0 == r.states.1
                {
                    structure += 1;
                }
                if r.shaders.0 == r.shaders.1 {
                    matched += 1;
                }
                equivalent += r.shaders.0;
                shaders += r.shaders.1;
                ratios.extend(&r.instruction_ratios);
                out += &format!("{blob}: {r} equivalent\n");
                for n in r.notes.iter().take(8) {
                    out += &format!("    {n}\n");
                }
            }
            Err(d) => out += &format!("{blob}: does not compile: {}\n", d.0.last().unwrap()),
        }
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(0.0);
    out += &format!(
        "{compiled}/{} compile; {structure} match fxc's parameters, techniques, passes and \
         states; {matched} have every shader equivalent ({equivalent}/{shaders} shaders); \
         instruction count ratio (dxso/fxc) median {median:.3} over {} shaders\n",
        cases.len(),
        ratios.len()
    );
    println!("{out}");
    // Every effect compiles, matches fxc's structure and has every shader equivalent.
    assert_eq!(compiled, cases.len(), "{out}");
    assert_eq!(structure, cases.len(), "{out}");
    assert_eq!(matched, cases.len(), "{out}");
    assert_eq!(equivalent, shaders, "{out}");
    assert!(median <= CEILING_MEDIAN + 5e-4, "{out}");
}

/// Wine's d3dx9 effect tests keep the source of each effect binary beside it
/// (`corpus/effects/wine_*.fx.txt`): each is compiled and compared as the FNA effects are,
/// state expressions and array selectors by evaluation (defaults, then random floats). A
/// source that says its binary was edited by hand ("manually edited in binary blob") is
/// incomplete: it must compile, and is reported but not required to match.
#[test]
fn wine_effect_sources_against_their_binaries() {
    let dir = corpus().join("effects");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".fx.txt"))
        .collect();
    names.sort();
    let mut out = String::new();
    let (mut compiled, mut structure, mut matched, mut edited) = (0, 0, 0, 0);
    for path in &names {
        let blob = path.to_string_lossy().replace(".fx.txt", ".fxb");
        let fxc = Effect::parse(&std::fs::read(&blob).unwrap()).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let hand_edited = text.contains("manually edited in binary blob");
        match compile_effect(&Source::new(&name, text), &options(path)) {
            Ok(c) => {
                compiled += 1;
                let back = Effect::parse(&c.bytes()).expect("dxso's effect parses back");
                let r = compare_effects(&fxc, &back);
                let same = r.parameters.0 == r.parameters.1
                    && r.techniques.0 == r.techniques.1
                    && r.passes.0 == r.passes.1
                    && r.states.0 == r.states.1;
                structure += usize::from(same);
                let all = same && r.shaders.0 == r.shaders.1;
                matched += usize::from(all);
                edited += usize::from(!all && hand_edited);
                out += &format!(
                    "{name}: parameters {}/{}, techniques {}/{}, passes {}/{}, states {}/{}, \
                     shaders {}/{} equivalent\n",
                    r.parameters.0,
                    r.parameters.1,
                    r.techniques.0,
                    r.techniques.1,
                    r.passes.0,
                    r.passes.1,
                    r.states.0,
                    r.states.1,
                    r.shaders.0,
                    r.shaders.1
                );
                for n in r.notes.iter().take(12) {
                    out += &format!("    {}\n", n.chars().take(300).collect::<String>());
                }
            }
            Err(d) => out += &format!("{name}: does not compile: {}\n", d.0.last().unwrap()),
        }
    }
    out += &format!(
        "{compiled}/{} compile; {structure} match in parameters, techniques, passes and states; \
         {matched} in shaders too; {edited} binaries edited by hand do not match their source\n",
        names.len()
    );
    println!("{out}");
    // Every source compiles. Of Wine's preshader effect variants, those that read arrays
    // and matrices past their ends at their default values (`g_Selector[7 + g_iVect.w]`,
    // `m4x4[3 + g_iVect.z]`), where fxc's register layout decides what is read, and those
    // whose pixel shader takes a bool matrix parameter as an argument (fxc binds it to `b#`,
    // dxso to `c#`, which the checker cannot pair by name) do not match yet.
    assert_eq!(compiled, names.len(), "{out}");
    assert!(matched >= 15, "{out}");
    assert!(edited >= 1, "{out}");
}

/// Every vertex shader of FNA's stock effects compiled for vs_1_1 as well (one `compile vs_2_0`
/// or `compile vs_3_0` at a time rewritten to `compile vs_1_1`), against dxso's own build of it
/// for the profile the source names: how many fit vs_1_1 and run the same.
#[test]
fn fna_vertex_shaders_as_vs11() {
    let mut out = String::new();
    let (mut total, mut compiled, mut equivalent) = (0, 0, 0);
    let mut slots = Vec::new();
    for (blob, source) in &cases() {
        let path = corpus().join("hlsl").join(source);
        let text = std::fs::read_to_string(&path).unwrap();
        let src = Source::new(path.to_string_lossy(), text.clone());
        let reference = compile_effect(&src, &options(&path)).expect("the effect compiles");
        let reference = shaders_by_place(&reference.effect);
        let places: Vec<usize> = ["compile vs_2_0", "compile vs_3_0"]
            .iter()
            .flat_map(|p| text.match_indices(p).map(|(i, _)| i))
            .collect();
        for at in places {
            total += 1;
            let mut changed = text.clone();
            changed.replace_range(at..at + "compile vs_2_0".len(), "compile vs_1_1");
            let line = text[..at].lines().count();
            let src = Source::new(path.to_string_lossy(), changed);
            let effect = match compile_effect(&src, &options(&path)) {
                Ok(c) => c.effect,
                Err(d) => {
                    out += &format!("{blob}:{line}: {}\n", d.0.last().unwrap());
                    continue;
                }
            };
            compiled += 1;
            for (place, s) in shaders_by_place(&effect) {
                if s.version != dxso::Version::vs(1, 1) {
                    continue;
                }
                let valid = dxso::validate(&s);
                assert!(
                    valid.is_valid(),
                    "{blob}:{line}: {:?}",
                    valid.errors().next()
                );
                slots.push(dxso::slots::count(&s).total());
                match check(&reference[&place], &s, 64, 3, Tolerance::default()) {
                    Ok(_) => equivalent += 1,
                    Err(m) => out += &format!("{blob}:{line} {place}: {m}\n"),
                }
            }
        }
    }
    slots.sort_unstable();
    out += &format!(
        "FNA vertex shaders as vs_1_1: {total}; compiled {compiled}; equivalent to dxso's own \
         vs_2_0/vs_3_0 build {equivalent}; slots median {}, most {}\n",
        slots.get(slots.len() / 2).copied().unwrap_or(0),
        slots.last().copied().unwrap_or(0)
    );
    println!("{out}");
    // The nine SkinnedEffect shaders read `Bones[72]` (216 registers), past vs_1_1's 96.
    assert!(compiled >= 37, "{out}");
    assert!(equivalent >= 37, "{out}");
}
