//! Every valid corpus shader, written for every target and every GLSL version dxso writes,
//! is checked by the target's own tool and its bindings are compared with what the written
//! code declares:
//!
//! - WGSL: `tint --validate` (uniformity analysis included), when tint is installed;
//! - SPIR-V: `spirv-val`; GLSL and GLSL ES, each version: `glslangValidator`;
//! - HLSL: glslang's HLSL front end (`glslangValidator -D -V -e main -S vert|frag`);
//! - MSL: no placeholder binding (naga's `fake` names), every resource at a slot;
//! - every target: [`dxso_naga::TargetReflection`] equals the bindings, locations and names
//!   parsed from the code.
//!
//! The counts print with `--nocapture`; the test fails below the floors.

use dxso_naga::{Target, TargetBinding, Translation, Translator, WriteOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One written form: a target and, for GLSL, its version.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Form {
    target: &'static str,
    version: u16,
}

fn forms() -> Vec<(Target, Form)> {
    let mut out = vec![
        (
            Target::Wgsl,
            Form {
                target: "wgsl",
                version: 0,
            },
        ),
        (
            Target::SpirV,
            Form {
                target: "spirv",
                version: 0,
            },
        ),
        (
            Target::Msl,
            Form {
                target: "msl",
                version: 0,
            },
        ),
        (
            Target::Hlsl,
            Form {
                target: "hlsl",
                version: 0,
            },
        ),
    ];
    for v in dxso_naga::GLSL_VERSIONS {
        out.push((
            Target::Glsl,
            Form {
                target: "glsl",
                version: v,
            },
        ));
    }
    for v in dxso_naga::GLSL_ES_VERSIONS {
        out.push((
            Target::GlslEs,
            Form {
                target: "glsl-es",
                version: v,
            },
        ));
    }
    out
}

fn tool(name: &str, required_in_ci: bool) -> bool {
    let ok = Command::new(name).arg("--version").output().is_ok();
    if !ok {
        if required_in_ci && std::env::var("CI").as_deref() == Ok("true") {
            panic!("{name} not found");
        }
        eprintln!("NOTICE: {name} not found; its check is skipped");
    }
    ok
}

/// The bindings the written code declares, as [`TargetBinding::place`] (and `|name` for GLSL).
fn parsed_bindings(target: Target, text: Option<&str>, words: Option<&[u32]>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if target == Target::SpirV {
        let module = rspirv::dr::load_words(words.unwrap()).unwrap();
        let mut by_id: BTreeMap<u32, (Option<u32>, Option<u32>)> = BTreeMap::new();
        for inst in &module.annotations {
            if inst.class.opcode != rspirv::spirv::Op::Decorate {
                continue;
            }
            let (Some(rspirv::dr::Operand::IdRef(id)), Some(rspirv::dr::Operand::Decoration(d))) =
                (inst.operands.first(), inst.operands.get(1))
            else {
                continue;
            };
            let value = match inst.operands.get(2) {
                Some(rspirv::dr::Operand::LiteralBit32(v)) => *v,
                _ => continue,
            };
            let e = by_id.entry(*id).or_default();
            match d {
                rspirv::spirv::Decoration::DescriptorSet => e.0 = Some(value),
                rspirv::spirv::Decoration::Binding => e.1 = Some(value),
                _ => {}
            }
        }
        for (set, binding) in by_id.values() {
            if let (Some(s), Some(b)) = (set, binding) {
                out.insert(format!("set {s} binding {b}"));
            }
        }
        return out;
    }
    let text = text.unwrap();
    for line in text.lines() {
        let l = line.trim().trim_start_matches(", ");
        match target {
            Target::Wgsl => {
                if let Some(at) = l.find("@group(") {
                    let rest = &l[at..];
                    let end = rest.find(") var").map_or(rest.len(), |e| e + 1);
                    out.insert(rest[..end].to_string());
                }
            }
            Target::Msl => {
                if l.contains("_buffer_sizes") {
                    continue;
                }
                for kind in ["buffer", "texture", "sampler"] {
                    let pat = format!("[[{kind}(");
                    if let Some(at) = l.find(&pat) {
                        let rest = &l[at..];
                        out.insert(rest[..rest.find(")]]").unwrap() + 3].to_string());
                    }
                }
            }
            Target::Hlsl => {
                if l.contains("nagaSamplerHeap[") && l.starts_with("Sampler")
                    || l.contains("nagaComparisonSamplerHeap[")
                    || l.starts_with("StructuredBuffer<uint> nagaGroup")
                {
                    continue;
                }
                if let Some(at) = l.find("register(") {
                    let rest = &l[at..];
                    out.insert(rest[..rest.find(')').unwrap() + 1].to_string());
                } else if let Some(at) = l.find("nagaGroup") {
                    let rest = &l[at..];
                    out.insert(rest[..rest.find(']').unwrap() + 1].to_string());
                }
            }
            Target::SpirV => unreachable!("handled above"),
            Target::Glsl | Target::GlslEs => {
                let (layout, decl) = match l.strip_prefix("layout(") {
                    Some(r) => {
                        let close = r.find(')').unwrap();
                        (&r[..close], r[close + 1..].trim())
                    }
                    None => ("", l),
                };
                let Some(decl) = decl.strip_prefix("uniform ") else {
                    continue;
                };
                let place = layout
                    .split(',')
                    .map(str::trim)
                    .find(|p| p.starts_with("binding = "))
                    .unwrap_or("by name");
                // A block (`uniform Name { ... }`) or a sampler (`uniform [highp ]type name;`).
                let name = match decl.find(" {") {
                    Some(b) => decl[..b].rsplit(' ').next().unwrap(),
                    None => decl.trim_end_matches(';').rsplit(' ').next().unwrap(),
                };
                out.insert(format!("{place}|{name}"));
            }
        }
    }
    out
}

/// The digits at the start of `s`.
fn number(s: &str) -> &str {
    &s[..s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len())]
}

/// The user-defined inputs and outputs the written code declares, as `in`/`out`
/// [`dxso_naga::TargetVarying::place`] (and `|name` for GLSL).
fn parsed_varyings(target: Target, text: Option<&str>, words: Option<&[u32]>) -> BTreeSet<String> {
    use rspirv::dr::Operand;
    let mut out = BTreeSet::new();
    if target == Target::SpirV {
        let module = rspirv::dr::load_words(words.unwrap()).unwrap();
        let mut class = BTreeMap::new();
        for inst in &module.types_global_values {
            if let (Some(id), Some(Operand::StorageClass(c))) =
                (inst.result_id, inst.operands.first())
            {
                class.insert(id, *c);
            }
        }
        for inst in &module.annotations {
            if let [Operand::IdRef(id), Operand::Decoration(rspirv::spirv::Decoration::Location), Operand::LiteralBit32(l)] =
                inst.operands.as_slice()
            {
                let dir = match class.get(id) {
                    Some(rspirv::spirv::StorageClass::Output) => "out",
                    _ => "in",
                };
                out.insert(format!("{dir} Location {l}"));
            }
        }
        return out;
    }
    let mut within = "";
    for line in text.unwrap().lines() {
        if let Some(rest) = line.strip_prefix("struct ") {
            within = if rest.contains("Input") {
                "in"
            } else if rest.contains("Output") {
                "out"
            } else {
                ""
            };
        }
        match target {
            Target::Wgsl => {
                let dir = if line.starts_with("fn ") { "in" } else { "out" };
                for part in line.split("@location(").skip(1) {
                    out.insert(format!("{dir} @location({})", number(part)));
                }
            }
            Target::Msl => {
                for (pat, close) in [
                    ("[[attribute(", ")]]"),
                    ("[[color(", ")]]"),
                    ("[[user(loc", ")]]"),
                ] {
                    if let Some(at) = line.find(pat) {
                        let n = number(&line[at + pat.len()..]);
                        out.insert(format!("{within} {pat}{n}{close}"));
                    }
                }
            }
            Target::Hlsl => {
                let dir = if line.contains("main(") { "in" } else { within };
                for pat in [": LOC", ": SV_Target"] {
                    for part in line.split(pat).skip(1) {
                        out.insert(format!("{dir} {}{}", &pat[2..], number(part)));
                    }
                }
            }
            Target::Glsl | Target::GlslEs => {
                if line.starts_with(' ') || !line.contains("_location") {
                    continue;
                }
                let words: Vec<&str> = line.trim_end_matches(';').split_whitespace().collect();
                let dir = if words.contains(&"in") {
                    "in"
                } else if words.contains(&"out") {
                    "out"
                } else {
                    continue;
                };
                let place = match line.find("location = ") {
                    Some(at) => format!("location = {}", number(&line[at + 11..])),
                    None => "by name".to_string(),
                };
                out.insert(format!("{dir} {place}|{}", words.last().unwrap()));
            }
            Target::SpirV => unreachable!("handled above"),
        }
    }
    out
}

fn reflected_varyings(target: Target, varyings: &[dxso_naga::TargetVarying]) -> BTreeSet<String> {
    varyings
        .iter()
        .map(|v| {
            let dir = if v.output { "out" } else { "in" };
            match target {
                Target::Glsl | Target::GlslEs => {
                    format!("{dir} {}|{}", v.place, v.name.as_deref().unwrap_or("?"))
                }
                _ => format!("{dir} {}", v.place),
            }
        })
        .collect()
}

fn reflected(target: Target, bindings: &[TargetBinding]) -> BTreeSet<String> {
    bindings
        .iter()
        .map(|b| match target {
            Target::Glsl | Target::GlslEs => {
                format!("{}|{}", b.place, b.name.as_deref().unwrap_or("?"))
            }
            _ => b.place.clone(),
        })
        .collect()
}

/// Runs `glslangValidator` over `files` (in batches, from `dir`); the failing files.
fn glslang(dir: &Path, files: &[PathBuf], extra: &[&str]) -> BTreeSet<String> {
    let mut failing = BTreeSet::new();
    for chunk in files.chunks(100) {
        let out = Command::new("glslangValidator")
            .current_dir(dir)
            .args(extra)
            .args(chunk)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("ERROR: ") {
                if let Some(f) = chunk
                    .iter()
                    .find(|f| rest.starts_with(&*f.to_string_lossy()))
                {
                    failing.insert(f.to_string_lossy().into_owned());
                }
            }
        }
        if !out.status.success() && failing.is_empty() {
            panic!("glslangValidator failed without naming a file: {text}");
        }
    }
    failing
}

/// Runs glslang's HLSL front end on each of `files` (one at a time: several would be linked
/// into one program), two at once; the failing files.
fn hlsl(dir: &Path, files: &[PathBuf], stage: &str) -> BTreeSet<String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failing = std::sync::Mutex::new(BTreeSet::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(f) = files.get(i) else { break };
                let out = Command::new("glslangValidator")
                    .current_dir(dir)
                    .args(["-D", "-V", "-e", "main", "-S", stage, "-o", "/dev/null"])
                    .arg(f)
                    .output()
                    .unwrap();
                if !out.status.success() {
                    failing
                        .lock()
                        .unwrap()
                        .insert(f.to_string_lossy().into_owned());
                }
            });
        }
    });
    failing.into_inner().unwrap()
}

#[derive(Default)]
struct Tally {
    written: usize,
    passed: Option<usize>,
    placeholder_free: Option<usize>,
    reflect_equal: usize,
    failures: Vec<String>,
}

#[test]
fn every_target_validates_and_reflects_its_bindings() {
    let Some(dir) = dxso_corpus::corpus_or_skip("every_target_validates_and_reflects_its_bindings")
    else {
        return;
    };
    let scratch = std::env::temp_dir().join(format!("dxso-naga-targets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let have_tint = tool("tint", false);
    let have_glslang = tool("glslangValidator", true);
    let have_spirv_val = tool("spirv-val", true);

    let mut translator = Translator::new();
    let mut translations: Vec<(String, Translation)> = Vec::new();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        let t = translator
            .translate(&shader, &Default::default())
            .unwrap_or_else(|err| panic!("{}: {err}", e.rel));
        translations.push((e.rel.replace(['/', '.'], "_"), t));
    }

    let mut tallies: BTreeMap<Form, Tally> = BTreeMap::new();
    // `DXSO_TARGETS=msl,glsl` checks only those targets.
    let only = std::env::var("DXSO_TARGETS").ok();
    for (target, form) in forms() {
        if only
            .as_ref()
            .is_some_and(|o| !o.split(',').any(|t| t == form.target))
        {
            continue;
        }
        let tally = tallies.entry(form).or_default();
        let sub = scratch.join(format!("{}{}", form.target, form.version));
        std::fs::create_dir_all(&sub).unwrap();
        let options = WriteOptions {
            glsl_version: if target == Target::Glsl {
                form.version
            } else {
                450
            },
            glsl_es_version: if target == Target::GlslEs {
                form.version
            } else {
                310
            },
            ..WriteOptions::default()
        };
        let mut files: BTreeMap<&str, Vec<PathBuf>> = BTreeMap::new();
        let mut failing = BTreeSet::new();
        let mut placeholder_free = 0;
        for (stem, t) in &translations {
            let (out, placed) = t
                .write_with_bindings(target, &options)
                .unwrap_or_else(|e| panic!("{stem} -> {form:?}: {e}"));
            tally.written += 1;
            let stage = match t.reflection.stage {
                dxso_naga::Stage::Vertex => "vert",
                dxso_naga::Stage::Fragment => "frag",
                dxso_naga::Stage::Compute => "comp",
            };
            let parsed = parsed_bindings(target, out.text(), out.words());
            let parsed_io = parsed_varyings(target, out.text(), out.words());
            let (said, said_io) = (
                reflected(target, &placed.bindings),
                reflected_varyings(target, &placed.varyings),
            );
            if parsed == said && parsed_io == said_io {
                tally.reflect_equal += 1;
            } else {
                tally.failures.push(format!(
                    "{stem} {form:?}: code binds {parsed:?} {parsed_io:?}, reflection says {said:?} {said_io:?}"
                ));
            }
            if target == Target::Msl {
                let text = out.text().unwrap();
                // naga's placeholders are `[[user(fake0)]]`; varyings are `[[user(locN)]]`.
                if !text.contains("fake") {
                    placeholder_free += 1;
                } else {
                    tally
                        .failures
                        .push(format!("{stem}: MSL placeholder binding"));
                }
                continue;
            }
            let (name, tool_ok) = match target {
                Target::Wgsl => (format!("{stem}.wgsl"), have_tint),
                Target::SpirV => (format!("{stem}.spv"), have_spirv_val),
                Target::Hlsl => (format!("{stem}_{stage}.hlsl"), have_glslang),
                _ => (format!("{stem}.{stage}"), have_glslang),
            };
            if !tool_ok {
                continue;
            }
            let path = sub.join(&name);
            std::fs::write(&path, out.into_bytes()).unwrap();
            match target {
                Target::Wgsl | Target::SpirV => {
                    let o = if target == Target::Wgsl {
                        Command::new("tint")
                            .args(["--validate", "--format", "wgsl", "-o", "/dev/null"])
                            .arg(&path)
                            .output()
                    } else {
                        Command::new("spirv-val")
                            .args(["--target-env", "vulkan1.0"])
                            .arg(&path)
                            .output()
                    }
                    .unwrap();
                    if !o.status.success() {
                        failing.insert(name.clone());
                        tally.failures.push(format!(
                            "{name}: {}{}",
                            String::from_utf8_lossy(&o.stdout),
                            String::from_utf8_lossy(&o.stderr)
                        ));
                    }
                }
                Target::Hlsl => files.entry(stage).or_default().push(name.into()),
                _ => files.entry("").or_default().push(name.into()),
            }
        }
        for (stage, list) in &files {
            let f = if target == Target::Hlsl {
                hlsl(&sub, list, stage)
            } else {
                glslang(&sub, list, &[])
            };
            for name in &f {
                tally.failures.push(format!("{name}: glslangValidator"));
            }
            failing.extend(f);
        }
        let checked = match target {
            Target::Wgsl => have_tint,
            Target::SpirV => have_spirv_val,
            Target::Msl => false,
            _ => have_glslang,
        };
        if checked {
            tally.passed = Some(tally.written - failing.len());
        }
        if target == Target::Msl {
            tally.placeholder_free = Some(placeholder_free);
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);

    let total = translations.len();
    let mut short = Vec::new();
    for (form, t) in &tallies {
        for f in t.failures.iter().take(5) {
            eprintln!("{f}");
        }
        let tool = match form.target {
            "wgsl" => "tint --validate",
            "spirv" => "spirv-val",
            "msl" => "placeholder-free",
            "hlsl" => "glslang HLSL",
            _ => "glslangValidator",
        };
        let passed = t.passed.or(t.placeholder_free);
        eprintln!(
            "{:<8}{:>4}: {tool} {}, reflect-equal {}/{}",
            form.target,
            if form.version == 0 {
                String::new()
            } else {
                form.version.to_string()
            },
            passed.map_or("skipped".to_string(), |p| format!("{p}/{}", t.written)),
            t.reflect_equal,
            t.written
        );
        // Floors: every shader, every form.
        if t.written != total || passed.is_some_and(|p| p < total) || t.reflect_equal < total {
            short.push(format!("{form:?}"));
        }
    }
    assert!(short.is_empty(), "below the floor of {total}: {short:?}");
}
