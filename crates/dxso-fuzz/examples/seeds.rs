//! Writes the fuzz targets' seed corpora and dictionaries from the shader corpus:
//! `cargo run -p dxso-fuzz --example seeds -- [CORPUS] [FUZZ_DIR]` (defaults: the repository's
//! `corpus/` or `$DXSO_CORPUS`, `fuzz/`). Seeds are few and small: per version, the smallest shaders of distinct opcode
//! sets; the smallest effects; listings the printer makes of the chosen shaders and the
//! corpus's own; DP2 captures the crates build; dxso-smith inputs from a fixed generator.
//! Dictionaries hold the assembly language's words for `asm`, and for the binary formats the
//! DWORDs most frequent in the seeds (version, opcode and comment tokens, FOURCCs).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Shaders kept per version.
const PER_VERSION: usize = 4;
/// Effects kept.
const EFFECTS: usize = 10;
/// Listings from the corpus kept.
const LISTINGS: usize = 16;
/// Shaders with DBUG tables kept (the smallest).
const DBUG: usize = 12;

/// A fixed xorshift generator: the seeds are the same on every run.
struct Rng(u64);

impl Rng {
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                (self.0 >> 24) as u8
            })
            .collect()
    }
}

/// A corpus shader: its path in the corpus, its bytes, and what they decode to.
type Chosen = (String, Vec<u8>, dxso::Shader);

/// Per version, the smallest shaders with distinct opcode sets.
fn shaders(corpus: &Path) -> Vec<Chosen> {
    let mut by_key: BTreeMap<(String, Vec<u16>), Chosen> = BTreeMap::new();
    for e in dxso_corpus::entries(corpus) {
        let bytes = e.bytes();
        let Ok(shader) = dxso::decode(&bytes) else {
            continue;
        };
        let ops: BTreeSet<u16> = shader.instructions().map(|i| i.opcode as u16).collect();
        let key = (shader.version.to_string(), ops.into_iter().collect());
        let keep = by_key
            .get(&key)
            .map_or(true, |(_, b, _)| bytes.len() < b.len());
        if keep {
            by_key.insert(key, (e.rel.clone(), bytes, shader));
        }
    }
    let mut per_version: BTreeMap<String, Vec<Chosen>> = BTreeMap::new();
    for ((version, _), s) in by_key {
        per_version.entry(version).or_default().push(s);
    }
    let mut out = Vec::new();
    for (_, mut list) in per_version {
        // The smallest, and the largest distinct ones up to 2 KB (deep programs).
        list.sort_by_key(|(_, b, _)| b.len());
        let small = list.iter().take(PER_VERSION / 2).cloned();
        let large = list
            .iter()
            .rev()
            .filter(|(_, b, _)| b.len() <= 2048)
            .take(PER_VERSION - PER_VERSION / 2)
            .cloned();
        let mut chosen: Vec<_> = small.chain(large).collect();
        chosen.dedup_by(|a, b| a.0 == b.0);
        out.extend(chosen);
    }
    out
}

fn stem(rel: &str) -> String {
    rel.trim_end_matches(".dxso").replace('/', "_")
}

struct Writer {
    fuzz: PathBuf,
    counts: HashMap<&'static str, usize>,
}

impl Writer {
    fn put(&mut self, target: &'static str, name: &str, data: &[u8]) {
        let dir = self.fuzz.join("corpus").join(target);
        std::fs::create_dir_all(&dir).expect("the seed folder is writable");
        std::fs::write(dir.join(name), data).expect("a seed is writable");
        *self.counts.entry(target).or_default() += 1;
    }
}

/// The `count` most frequent DWORDs of `inputs` (read at every 4-byte offset), as libFuzzer
/// dictionary entries.
fn frequent_words<'a>(inputs: impl Iterator<Item = &'a [u8]>, count: usize) -> Vec<String> {
    let mut freq: HashMap<[u8; 4], usize> = HashMap::new();
    for data in inputs {
        for w in data.chunks_exact(4) {
            let w: [u8; 4] = w.try_into().expect("four bytes");
            if w != [0; 4] {
                *freq.entry(w).or_default() += 1;
            }
        }
    }
    let mut v: Vec<_> = freq.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.into_iter()
        .take(count)
        .map(|(w, _)| w.iter().map(|b| format!("\\x{b:02x}")).collect())
        .collect()
}

fn write_dict(fuzz: &Path, target: &str, header: &str, entries: &[String]) {
    let dir = fuzz.join("dict");
    std::fs::create_dir_all(&dir).expect("the dictionary folder is writable");
    let mut text = format!("# {header}\n");
    let mut seen = BTreeSet::new();
    for (i, e) in entries.iter().enumerate() {
        if seen.insert(e.clone()) {
            text.push_str(&format!("w{i}=\"{e}\"\n"));
        }
    }
    std::fs::write(dir.join(format!("{target}.dict")), text).expect("a dictionary is writable");
}

/// Escapes text for a dictionary entry.
fn quoted(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'"' | b'\\' => format!("\\x{b:02x}"),
            0x20..=0x7e => (b as char).to_string(),
            _ => format!("\\x{b:02x}"),
        })
        .collect()
}

fn asm_words(shaders: &[Chosen]) -> Vec<String> {
    let mut words: BTreeSet<String> = BTreeSet::new();
    for op in dxso::Opcode::ALL {
        words.insert(op.info().mnemonic.to_string());
    }
    for s in [
        "vs_1_1",
        "vs_2_0",
        "vs_2_x",
        "vs_3_0",
        "vs_2_sw",
        "vs_3_sw",
        "ps_1_1",
        "ps_1_2",
        "ps_1_3",
        "ps_1_4",
        "ps_2_0",
        "ps_2_x",
        "ps_3_0",
        "ps_2_sw",
        "ps_3_sw",
        "r0",
        "v0",
        "c0",
        "c255",
        "i0",
        "b0",
        "s0",
        "t0",
        "a0",
        "aL",
        "p0",
        "oPos",
        "oFog",
        "oPts",
        "oD0",
        "oT0",
        "o0",
        "oC0",
        "oDepth",
        "vPos",
        "vFace",
        "c[a0.x]",
        "[aL]",
        ".xyzw",
        ".x",
        ".wzyx",
        "_sat",
        "_pp",
        "_centroid",
        "_x2",
        "_x4",
        "_d2",
        "_bias",
        "_bx2",
        "_x2",
        "_dz",
        "_dw",
        "_abs",
        "-",
        "1-",
        "!",
        "+",
        ",",
        "dcl_position",
        "dcl_texcoord0",
        "dcl_color",
        "dcl_normal",
        "dcl_2d",
        "dcl_cube",
        "dcl_volume",
        "#define",
        "#if",
        "#ifdef",
        "#else",
        "#endif",
        "#include",
        "#line",
        "#undef",
        "#error",
        "//",
        "/*",
        "*/",
        ";",
        "\n",
        "// Generated by Microsoft (R) HLSL Shader Compiler 9.29.952.3111\n",
        "// Parameters:\n",
        "// Registers:\n",
        "//   Name Reg Size\n",
        "//   ---- --- ----\n",
        "struct",
        "{",
        "}",
        "[",
        "]",
        "row_major",
        "float4x4",
        "float4",
        "float",
        "int",
        "bool",
        "sampler2D",
        "samplerCUBE",
        "texture",
        "string",
        "65535",
        "4294967295",
        "1.#QNAN",
        "1.#INF",
        "-1.#INF",
        "0x7fffffff",
    ] {
        words.insert(s.to_string());
    }
    let _ = shaders;
    words.into_iter().map(|w| quoted(&w)).collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let corpus = dxso_corpus::corpus_dir_from_arg(args.next());
    let fuzz = PathBuf::from(args.next().unwrap_or_else(|| "fuzz".into()));
    let _ = std::fs::remove_dir_all(fuzz.join("corpus"));
    let mut w = Writer {
        fuzz: fuzz.clone(),
        counts: HashMap::new(),
    };
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let chosen = shaders(&corpus);
    for (i, (rel, bytes, shader)) in chosen.iter().enumerate() {
        let name = stem(rel);
        w.put("decode", &name, bytes);
        w.put("validate", &name, bytes);
        let lanes = (i as u8 % 4) << 1;
        w.put("exec", &name, &[[lanes].as_slice(), bytes].concat());
        w.put(
            "jit",
            &name,
            &[[(i as u8 % 4) << 2].as_slice(), bytes].concat(),
        );
        w.put(
            "translate",
            &name,
            &[[((i % 6) as u8) << 4 | (i as u8 & 6)].as_slice(), bytes].concat(),
        );
        let plan = dxso_fuzz::input::prefix_length(bytes, &rng.bytes(48));
        w.put(
            "plan",
            &name,
            &[[0x20 | (i as u8 % 4)].as_slice(), &plan].concat(),
        );
        w.put(
            "asm",
            &format!("{name}.asm"),
            dxso_text::print(shader).as_bytes(),
        );
    }
    // The smallest shaders with DBUG tables of the corpus.
    let mut dbug: Vec<(String, Vec<u8>)> = dxso_corpus::entries(&corpus)
        .iter()
        .map(|e| (stem(&e.rel), e.bytes()))
        .filter(|(_, b)| b.windows(4).any(|w| w == b"DBUG"))
        .collect();
    dbug.sort_by_key(|(n, b)| (b.len(), n.clone()));
    for (name, bytes) in dbug.iter().take(DBUG) {
        w.put("dbug", name, bytes);
    }
    // dxso-smith programs for the targets that take them (odd first bytes), and for smith and
    // decompile.
    for i in 0..12u8 {
        let n = 64usize << (i % 5);
        let drive = rng.bytes(n);
        w.put("smith", &format!("smith{i}"), &drive);
        w.put("decompile", &format!("smith{i}"), &drive);
        w.put(
            "exec",
            &format!("smith{i}"),
            &[[1 | (i << 1)].as_slice(), &drive].concat(),
        );
        w.put(
            "jit",
            &format!("smith{i}"),
            &[[1 + (i % 3)].as_slice(), &drive].concat(),
        );
        w.put(
            "translate",
            &format!("smith{i}"),
            &[[1 | (i << 1)].as_slice(), &drive].concat(),
        );
        w.put(
            "plan",
            &format!("smith{i}"),
            &[[i % 4].as_slice(), &drive].concat(),
        );
    }
    // Listings from the corpus: assembler sources and Microsoft's listings, the smallest.
    let mut listings: Vec<(String, Vec<u8>)> = Vec::new();
    for e in dxso_corpus::entries(&corpus) {
        for suffix in ["src.asm", "ms.asm"] {
            if let Some(p) = e.sibling(suffix) {
                let text = std::fs::read(&p).expect("a readable listing");
                listings.push((format!("{}.{suffix}", stem(&e.rel)), text));
            }
        }
    }
    listings.sort_by_key(|(n, t)| (t.len(), n.clone()));
    listings.dedup_by(|a, b| a.1 == b.1);
    let step = (listings.len() / LISTINGS).max(1);
    for (name, text) in listings.iter().step_by(step).take(LISTINGS) {
        w.put("asm", name, text);
    }
    // Effects: the smallest distinct ones.
    let mut effects: Vec<(String, Vec<u8>)> = dxso_corpus::effects(&corpus)
        .iter()
        .map(|e| (e.name.clone(), e.bytes()))
        .collect();
    effects.sort_by_key(|(n, b)| (b.len(), n.clone()));
    for (name, bytes) in effects.iter().take(EFFECTS) {
        w.put("fx", name, bytes);
        w.put(
            "fx_params",
            name,
            &dxso_fuzz::input::prefix_length(bytes, &rng.bytes(64)),
        );
    }
    // DP2: the teapot at two tessellations, and the captures the renderer's scenes describe.
    let mut captures = vec![
        (
            "teapot2".to_string(),
            dxso_dp2::teapot::capture(2.0).to_bytes(),
        ),
        (
            "teapot5".to_string(),
            dxso_dp2::teapot::capture(5.0).to_bytes(),
        ),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for dir in [
        "crates/dxso-render/tests/scenes",
        "crates/dxso-cli/tests/data",
    ] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for p in files {
            let text = std::fs::read_to_string(&p).expect("a readable description");
            let name = p
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if let Ok(c) = dxso_dp2::describe::build(&text) {
                captures.push((name.clone(), c.to_bytes()));
            }
            w.put("dp2", &format!("{name}.json"), text.as_bytes());
        }
    }
    for (name, bytes) in &captures {
        w.put("dp2", &format!("{name}.dp2"), bytes);
        w.put("render", &format!("{name}.dp2"), bytes);
    }
    // Dictionaries.
    let shader_bytes: Vec<&[u8]> = chosen.iter().map(|(_, b, _)| b.as_slice()).collect();
    let mut binary = frequent_words(shader_bytes.iter().copied(), 160);
    binary.extend(["CTAB", "DBUG", "PRES", "CLIT", "FXLC", "PRSI"].map(String::from));
    for t in [
        "decode",
        "validate",
        "dbug",
        "exec",
        "jit",
        "translate",
        "plan",
    ] {
        write_dict(
            &fuzz,
            t,
            "The most frequent DWORDs of the seed shaders, and comment FOURCCs.",
            &binary,
        );
    }
    let mut fx = frequent_words(effects.iter().take(EFFECTS).map(|(_, b)| b.as_slice()), 160);
    fx.extend(
        [
            "CTAB",
            "PRES",
            "CLIT",
            "FXLC",
            "PRSI",
            "\\x01\\x09\\xff\\xfe",
        ]
        .map(String::from),
    );
    write_dict(
        &fuzz,
        "fx",
        "The most frequent DWORDs of the seed effects, and FOURCCs.",
        &fx,
    );
    write_dict(
        &fuzz,
        "fx_params",
        "The most frequent DWORDs of the seed effects, and FOURCCs.",
        &fx,
    );
    let mut dp2 = frequent_words(captures.iter().map(|(_, b)| b.as_slice()), 160);
    dp2.extend(
        [
            "\"commands\"",
            "\"buffers\"",
            "\"op\"",
            "\"handle\"",
            "\"f32\"",
            "\"count\"",
        ]
        .map(quoted),
    );
    write_dict(
        &fuzz,
        "dp2",
        "The most frequent DWORDs of the seed captures, and description keys.",
        &dp2,
    );
    write_dict(
        &fuzz,
        "render",
        "The most frequent DWORDs of the seed captures.",
        &dp2,
    );
    write_dict(
        &fuzz,
        "asm",
        "Mnemonics, registers, modifiers, versions, directives and header words.",
        &asm_words(&chosen),
    );
    let smith = [
        "\\x00",
        "\\xff",
        "\\x00\\x00\\x00\\x00",
        "\\xff\\xff\\xff\\xff",
        "\\x7f",
        "\\x80",
    ];
    write_dict(
        &fuzz,
        "smith",
        "Boundary bytes: dxso-smith reads choices and sizes from the input.",
        &smith.map(String::from),
    );
    write_dict(
        &fuzz,
        "decompile",
        "Boundary bytes: dxso-smith reads choices and sizes from the input.",
        &smith.map(String::from),
    );
    let mut counts: Vec<_> = w.counts.into_iter().collect();
    counts.sort();
    for (t, n) in counts {
        println!("{t}: {n} seeds");
    }
}
