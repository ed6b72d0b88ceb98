//! Dump (temporary).
use dxso_naga::{Options, Target, Translator, WriteOptions};

#[test]
fn dump() {
    let Ok(out) = std::env::var("DXSO_DUMP") else {
        return;
    };
    let out = std::path::PathBuf::from(out);
    let dir = dxso_corpus::corpus_or_skip("dump").unwrap();
    let mut tr = Translator::new();
    for e in dxso_corpus::entries(&dir) {
        let Ok(shader) = dxso::decode(&e.bytes()) else {
            continue;
        };
        if !dxso::validate(&shader).is_valid() {
            continue;
        }
        let t = match tr.translate(&shader, &Options::default()) {
            Ok(t) => t,
            Err(err) => {
                eprintln!("TRERR {}: {err}", e.rel);
                continue;
            }
        };
        let stem = e.rel.replace(['/', '.'], "_");
        let ext = if shader.version.is_vertex() {
            "vert"
        } else {
            "frag"
        };
        for target in Target::ALL {
            let versions: Vec<u16> = match target {
                Target::Glsl => vec![140, 150, 330, 400, 410, 420, 430, 440, 450, 460],
                Target::GlslEs => vec![300, 310, 320],
                _ => vec![0],
            };
            for v in versions {
                let mut w = WriteOptions::default();
                w.glsl_version = v;
                w.glsl_es_version = v;
                let (sub, name) = match target {
                    Target::Wgsl => ("wgsl".to_string(), format!("{stem}.wgsl")),
                    Target::SpirV => ("spv".to_string(), format!("{stem}.spv")),
                    Target::Glsl => (format!("glsl{v}"), format!("{stem}.{ext}")),
                    Target::GlslEs => (format!("es{v}"), format!("{stem}.{ext}")),
                    Target::Msl => ("msl".to_string(), format!("{stem}.metal")),
                    Target::Hlsl => ("hlsl".to_string(), format!("{stem}_{ext}.hlsl")),
                };
                std::fs::create_dir_all(out.join(&sub)).unwrap();
                match t.write(target, &w) {
                    Ok(o) => std::fs::write(out.join(sub).join(name), o.into_bytes()).unwrap(),
                    Err(e) => eprintln!("{} {} {v}: {e}", e_rel(&e.to_string()), target.name()),
                }
            }
        }
    }
}
fn e_rel(s: &str) -> &str {
    s
}
