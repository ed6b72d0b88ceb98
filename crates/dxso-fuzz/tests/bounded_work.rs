//! The work the command-line paths do on hostile files is bounded by the input: `fx info`,
//! `fx eval`, `info`, `validate`, `disasm` and `dp2 run` (their library calls) over generated
//! worst cases, each of which claims counts far beyond the bytes that back it.
//!
//! The measure is the CPU time of the test's thread (Linux's `/proc/thread-self/schedstat`,
//! so other processes on a shared machine do not count; wall-clock time elsewhere). That
//! figure advances in scheduler ticks, so each path runs repeatedly until at least 50 ms have
//! passed and the time per run is the total over the runs. The bound is 1 ms per KB of input
//! plus a fixed 20 ms. Ordinary files take a few microseconds per KB on these paths; the test
//! prints each case's figure so that a regression shows before it fails.

use std::time::{Duration, Instant};

/// Allowed time per KB of input.
const PER_KB: Duration = Duration::from_millis(1);
/// Allowed time whatever the size (process noise, first-touch allocation).
const FIXED: Duration = Duration::from_millis(20);
/// Time measured per case, at least.
const MEASURE: Duration = Duration::from_millis(50);

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The CPU time this thread has used, when the system tells it.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The time one run of `f` takes, averaged over runs that add up to [`MEASURE`].
fn per_run(f: &dyn Fn()) -> Duration {
    let (cpu, wall) = (thread_cpu(), Instant::now());
    let spent = || match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall.elapsed(),
    };
    let mut runs = 0u32;
    loop {
        f();
        runs += 1;
        let t = spent();
        if t >= MEASURE || runs >= 100_000 {
            return t / runs;
        }
    }
}

fn check(name: &str, input: &[u8], path: &dyn Fn(&[u8])) {
    let took = per_run(&|| path(input));
    let kb = input.len() as f64 / 1024.0;
    let bound = FIXED + PER_KB.mul_f64(kb);
    println!(
        "{name}: {} bytes, {:.3} ms ({:.4} ms/KB)",
        input.len(),
        took.as_secs_f64() * 1e3,
        took.as_secs_f64() * 1e3 / kb.max(1.0 / 1024.0)
    );
    assert!(
        took <= bound,
        "{name}: {took:?} for {} bytes (bound {bound:?})",
        input.len()
    );
}

// ---- the paths -------------------------------------------------------------------------

/// `dxso fx info --json`: the effect described as one JSON value.
fn fx_info_json(bytes: &[u8]) {
    if let Ok(effect) = dxso_fx::Effect::parse(bytes) {
        let _ = dxso_fx::describe::info(&effect, "hostile", bytes.len()).to_text();
    }
}

/// `dxso fx info`: every parameter's type and value (the listing shortens long values, this
/// writes them whole).
fn fx_info_text(bytes: &[u8]) {
    if let Ok(effect) = dxso_fx::Effect::parse(bytes) {
        for p in &effect.parameters {
            let _ = dxso_fx::describe::type_text(&p.ty);
            let _ = dxso_fx::describe::value_json(&effect, &p.ty, &p.value).to_text();
        }
    }
}

fn fx_eval(bytes: &[u8]) {
    if let Ok(effect) = dxso_fx::Effect::parse(bytes) {
        let rt = dxso_fx::Runtime::new(&effect);
        for (t, tech) in effect.techniques.iter().enumerate() {
            for p in 0..tech.passes.len() {
                if let Ok(view) = rt.pass(t, p) {
                    let _ = dxso_fx::describe::pass_json(&effect, &view).to_text();
                }
            }
        }
        for p in &effect.parameters {
            let _ = rt.get(&p.name());
        }
    }
}

/// `dxso info`: the items walked, the first CTAB and DBUG parsed, the DBUG checked.
fn info(bytes: &[u8]) {
    let Ok(shader) = dxso::decode(bytes) else {
        return;
    };
    for c in shader.comments() {
        if dxso::ctab::is_ctab(&c.data) {
            if let Ok(t) = dxso::ConstantTable::parse(&c.data) {
                let _ = t.to_words();
            }
        }
        if dxso::dbug::is_dbug(&c.data) {
            if let Ok(t) = dxso::DebugInfo::parse(&c.data) {
                let _ = t.check(&shader);
                let _ = t.writes_by_instruction();
            }
        }
    }
}

fn validate(bytes: &[u8]) {
    if let Ok(shader) = dxso::decode(bytes) {
        let _ = dxso::validate(&shader).diagnostics.len();
    }
}

fn disasm(bytes: &[u8]) {
    if let Ok(shader) = dxso::decode(bytes) {
        let _ = dxso_text::print(&shader);
    }
}

fn dp2_run(bytes: &[u8]) {
    if let Ok(capture) = dxso_dp2::Capture::parse(bytes) {
        let _ = dxso_dp2::run(&capture, dxso_dp2::Limits::for_input(bytes.len()));
    }
}

// ---- the worst cases -----------------------------------------------------------------

/// An effect whose one parameter is `levels` nested structs of `u32::MAX` elements each,
/// `width` members per level, ending in empty vectors: no data, unbounded element counts.
fn nested_empty_structs(levels: u32, width: u32) -> Vec<u8> {
    const M: u32 = u32::MAX;
    let mut ty = vec![3, 1, 0, 0, M, 0, 4];
    for _ in 0..levels {
        let mut s = vec![0, 5, 0, 0, M, width];
        for _ in 0..width {
            s.extend_from_slice(&ty);
        }
        ty = s;
    }
    let mut data = vec![0u32];
    data.extend(ty);
    let len = 4 * data.len() as u32;
    let mut w = vec![0xFEFF_0901, len];
    w.extend(data);
    // One parameter at type offset 4, value offset 0; one technique with one empty pass.
    w.extend([1, 1, 0, 0, 4, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    words(&w)
}

/// An effect whose parameter is a struct of `members` empty members and one texture, with
/// `elements` elements: each element holds one object id, the members nothing.
fn struct_of_empty_members_and_objects(members: u32, elements: u32) -> Vec<u8> {
    let mut data = vec![0u32];
    let mut ty = vec![0, 5, 0, 0, elements, members + 1];
    for _ in 0..members {
        ty.extend([3, 0, 0, 0, 0, 0, 0]);
    }
    ty.extend([7, 4, 0, 0, 0]); // texture2d, object class
    let value_at = 4 * (data.len() + ty.len()) as u32;
    data.extend(ty);
    data.resize(data.len() + elements as usize, 0);
    let len = 4 * data.len() as u32;
    let mut w = vec![0xFEFF_0901, len];
    w.extend(data);
    w.extend([1, 1, 0, 1, 4, value_at, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    words(&w)
}

/// An effect whose parameter is a struct of one float and `members` empty members, with
/// `elements` elements: one word per element, and many members to walk for each.
fn struct_of_one_float_and_empty_members(members: u32, elements: u32) -> Vec<u8> {
    let mut data = vec![0u32];
    let mut ty = vec![0, 5, 0, 0, elements, members + 1];
    ty.extend([3, 0, 0, 0, 0, 1, 1]); // float, scalar, 1x1
    for _ in 0..members {
        ty.extend([3, 0, 0, 0, 0, 0, 0]);
    }
    let value_at = 4 * (data.len() + ty.len()) as u32;
    data.extend(ty);
    data.resize(data.len() + elements as usize, 0x3F80_0000);
    let len = 4 * data.len() as u32;
    let mut w = vec![0xFEFF_0901, len];
    w.extend(data);
    w.extend([1, 1, 0, 0, 4, value_at, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    words(&w)
}

/// A vs_3_0 shader of `n` instructions, every source relatively addressed, with a CTAB whose
/// one constant is a struct nested 30 deep, 65535 elements at every level.
fn deep_ctab_shader(n: usize) -> Vec<u8> {
    // The table (byte offsets after the FOURCC): header (28 bytes), one constant info (20),
    // a type info (16) per level and the leaf, a member info (8) per level, then a name.
    let levels = 30u32;
    let info = 28u32;
    let types = info + 20;
    let members = types + 16 * (levels + 1);
    let name = members + 8 * levels;
    let mut t = vec![28, name, 0xFFFE_0300, 1, info, 0, name];
    // Float registers from c0, one register, type at `types`, no default.
    t.extend([name, 2, 1, types, 0]);
    for level in 0..levels {
        // Struct class, void type; 1x1; 65535 elements of one member.
        t.extend([5, 1 | (1 << 16), 65535 | (1 << 16), members + 8 * level]);
    }
    // Vector class, float type; one row of four columns; 65535 elements.
    t.extend([1 | (3 << 16), 1 | (4 << 16), 65535, 0]);
    for level in 0..levels {
        t.extend([name, types + 16 * (level + 1)]);
    }
    t.push(u32::from_le_bytes(*b"s\0\0\0"));
    let mut w = vec![0xFFFE_0300];
    w.push(0xFFFE | ((t.len() as u32 + 1) << 16));
    w.push(u32::from_le_bytes(*b"CTAB"));
    w.extend(t);
    // dcl_position o0; mova a0.x, c0.x; then mov o0, c0[a0.x] n times.
    w.extend([0x0200_001F, 0x8000_0000, 0xE00F_0000]);
    w.extend([0x0200_002E, 0xB001_0000, 0xA000_0000]);
    for _ in 0..n {
        w.extend([0x0300_0001, 0xE00F_0000, 0xA0E4_2000, 0xB000_0000]);
    }
    w.push(0x0000_FFFF);
    words(&w)
}

/// A capture whose commands draw cached patches again and again at the most segments: few
/// bytes, each claiming a whole tessellated patch.
fn cached_patch_storm(draws: u32) -> Vec<u8> {
    let mut b = dxso_dp2::CaptureBuilder::new();
    dxso_dp2::teapot::add_setup(&mut b, 256.0);
    dxso_dp2::teapot::add_created_pass(&mut b);
    for _ in 0..draws {
        b.draw_rect_patch(dxso_dp2::teapot::FIRST_HANDLE, None, None);
    }
    b.finish().to_bytes()
}

#[test]
fn fx_paths_are_bounded_by_the_input() {
    // (name, input, whether the parser accepts it: a refusal must be quick too, but a worst
    // case meant to be accepted and refused would measure nothing).
    for (name, input, parses) in [
        ("nested empty structs 3x2", nested_empty_structs(3, 2), true),
        ("nested empty structs 8x3", nested_empty_structs(8, 3), true),
        (
            "empty members and objects (past the record budget)",
            struct_of_empty_members_and_objects(2000, 20_000),
            false,
        ),
        (
            "empty members and objects",
            struct_of_empty_members_and_objects(12, 60_000),
            true,
        ),
        (
            "one float and empty members",
            struct_of_one_float_and_empty_members(2000, 20_000),
            true,
        ),
    ] {
        let parsed = dxso_fx::Effect::parse(&input);
        assert_eq!(parsed.is_ok(), parses, "{name}: {:?}", parsed.err());
        check(&format!("fx info --json: {name}"), &input, &fx_info_json);
        check(&format!("fx info: {name}"), &input, &fx_info_text);
        check(&format!("fx eval: {name}"), &input, &fx_eval);
    }
}

#[test]
fn shader_paths_are_bounded_by_the_input() {
    for n in [10, 20_000] {
        let input = deep_ctab_shader(n);
        let shader = dxso::decode(&input).expect("the worst case decodes");
        let table = shader
            .comments()
            .find(|c| dxso::ctab::is_ctab(&c.data))
            .map(|c| dxso::ConstantTable::parse(&c.data))
            .expect("the worst case has a CTAB")
            .expect("its CTAB parses");
        assert_eq!(table.constants[0].ty.elements, 65535);
        let name = format!("deep CTAB, {n} relative reads");
        check(&format!("info: {name}"), &input, &info);
        check(&format!("validate: {name}"), &input, &validate);
        check(&format!("disasm: {name}"), &input, &disasm);
    }
}

#[test]
fn dp2_run_is_bounded_by_the_input() {
    for draws in [1, 200, 2000] {
        let input = cached_patch_storm(draws);
        dxso_dp2::Capture::parse(&input).expect("the worst case parses");
        check(
            &format!("dp2 run: {draws} cached patches"),
            &input,
            &dp2_run,
        );
    }
}
