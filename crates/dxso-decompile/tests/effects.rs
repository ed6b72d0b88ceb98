//! Decompiles every corpus effect (`corpus/effects/*.fxb`) to `.fx` source and checks what can
//! be checked without an effect compiler: every effect decompiles; every embedded shader's
//! functions compile with dxso-hlsl for their profile (the stand-alone source: the parameters
//! the shader reads as plain uniforms, then its functions as the `.fx` has them); and the
//! `.fx` text declares the effect's parameters, techniques, passes and state assignments, in
//! order, as the binary has them. Two effects have goldens under `tests/effects/`
//! (`DXSO_BLESS=1` rewrites them).

use dxso_fx::types::name_str;
use std::path::{Path, PathBuf};

/// Shaders whose functions compile; may only go up.
const FLOOR_COMPILED: usize = 154;

fn effects() -> Option<Vec<PathBuf>> {
    let dir = dxso_corpus::corpus_or_skip("effects")?.join("effects");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fxb"))
        .collect();
    files.sort();
    Some(files)
}

fn decompile(path: &Path) -> (dxso_fx::Effect, dxso_decompile::EffectSource) {
    let bytes = std::fs::read(path).unwrap();
    let effect = dxso_fx::Effect::parse(&bytes).unwrap();
    let fx = dxso_decompile::decompile_effect(&effect, &dxso_decompile::Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (effect, fx)
}

/// The top-level declarations between the parameters' heading and the first shader body.
fn declared_parameters(text: &str) -> Vec<String> {
    let Some((_, rest)) = text.split_once("// Parameters\n") else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for line in rest.lines() {
        if line.starts_with("// Shader #") || line.starts_with("technique") {
            break;
        }
        if line.is_empty()
            || line.starts_with(char::is_whitespace)
            || line.starts_with(['<', '>', '{', '}'])
        {
            continue;
        }
        // `TYPE NAME[N] : SEM = ...`: the name is the last word before the first of `:[;`,
        // after a struct type's braces.
        let decl = line.split('=').next().unwrap_or("");
        let decl = decl.rsplit_once('}').map_or(decl, |(_, d)| d);
        let head = decl.split([':', ';', '[']).next().unwrap_or("").trim();
        names.push(head.rsplit(' ').next().unwrap_or("").to_string());
    }
    names
}

/// `(technique, [(pass, [state names])])`.
type Techniques = Vec<(String, Vec<(String, Vec<String>)>)>;

/// The techniques, passes and state names as the text writes them.
fn declared_techniques(text: &str) -> Techniques {
    let mut out: Techniques = Vec::new();
    let mut in_pass = false;
    for line in text.lines() {
        if line == "    {" {
            in_pass = true;
        } else if line == "    }" {
            in_pass = false;
        } else if let Some(name) = line.strip_prefix("technique") {
            out.push((name.trim().to_string(), Vec::new()));
        } else if let Some(name) = line.strip_prefix("    pass") {
            if let Some(t) = out.last_mut() {
                t.1.push((name.trim().to_string(), Vec::new()));
            }
        } else if let Some(state) = line.strip_prefix("        ").filter(|_| in_pass) {
            if state.starts_with("//") || state.starts_with(char::is_whitespace) {
                continue;
            }
            if let Some(p) = out.last_mut().and_then(|t| t.1.last_mut()) {
                p.1.push(state.split(" = ").next().unwrap_or("").to_string());
            }
        }
    }
    out
}

fn expected_techniques(effect: &dxso_fx::Effect) -> Techniques {
    effect
        .techniques
        .iter()
        .map(|t| {
            let passes = t
                .passes
                .iter()
                .map(|p| {
                    let states = p
                        .states
                        .iter()
                        .map(|s| {
                            if s.info().takes_index() {
                                format!("{}[{}]", s.info().name, s.index)
                            } else {
                                s.info().name.to_string()
                            }
                        })
                        .collect();
                    (name_str(&p.name).into_owned(), states)
                })
                .collect();
            (name_str(&t.name).into_owned(), passes)
        })
        .collect()
}

#[test]
fn corpus_effects_decompile_with_their_structure_and_compilable_shaders() {
    let Some(files) = effects() else {
        return;
    };
    assert!(files.len() >= 37, "{} effects", files.len());
    let (mut shaders, mut compiled, mut preshaders, mut folded) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let (effect, fx) = decompile(path);
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let expected: Vec<String> = effect
            .parameters
            .iter()
            .map(|p| p.name().into_owned())
            .collect();
        assert_eq!(
            declared_parameters(&fx.text),
            expected,
            "{file}: parameters"
        );
        assert_eq!(
            declared_techniques(&fx.text),
            expected_techniques(&effect),
            "{file}: techniques, passes and states"
        );
        assert_eq!(
            fx.shaders.len(),
            effect.shaders().count(),
            "{file}: shaders"
        );
        for s in &fx.shaders {
            shaders += 1;
            if let Some(f) = s.preshader_folded {
                preshaders += 1;
                folded += f as usize;
            }
            assert!(
                fx.text
                    .contains(&format!("compile {} {}()", s.profile, s.entry))
                    || effect.techniques.is_empty(),
                "{file}: shader {} is never compiled",
                s.entry
            );
            let profile: dxso_hlsl::Profile = s.profile.parse().unwrap();
            let src = dxso_hlsl::Source::new(format!("{file}:{}", s.entry), s.hlsl.clone());
            match dxso_hlsl::compile(&src, &dxso_hlsl::Options::new(&s.entry, profile)) {
                Ok(_) => compiled += 1,
                Err(e) => failures.push(format!(
                    "{file} {} ({}, {}): {}",
                    s.entry,
                    s.version,
                    s.name,
                    e.errors()
                        .next()
                        .map(|d| format!("{} {}", d.code.name(), d.message))
                        .unwrap_or_default()
                )),
            }
        }
    }
    println!(
        "effects: {} decompiled; shaders: {shaders}, functions compiling with dxso-hlsl: \
         {compiled}; preshaders folded into expressions: {folded} of {preshaders}",
        files.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        compiled >= FLOOR_COMPILED,
        "{compiled} compiled, floor {FLOOR_COMPILED}"
    );
}

#[test]
fn goldens() {
    let Some(files) = effects() else {
        return;
    };
    let bless = std::env::var_os("DXSO_BLESS").is_some();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/effects");
    for name in ["fna_SpriteEffect", "wine_test_effect_preshader_effect_blob"] {
        let path = files
            .iter()
            .find(|p| p.file_stem().is_some_and(|s| s == name))
            .unwrap_or_else(|| panic!("{name}.fxb is not in the corpus"));
        let (_, fx) = decompile(path);
        let golden = dir.join(format!("{name}.fx"));
        if bless {
            std::fs::write(&golden, &fx.text).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden)
            .unwrap_or_else(|e| panic!("{}: {e} (DXSO_BLESS=1 writes it)", golden.display()));
        assert_eq!(
            fx.text, want,
            "{name}: the decompiled effect changed (DXSO_BLESS=1 rewrites)"
        );
    }
}
