//! The interface tells the truth: every input, constant, sampler the program reads is listed,
//! every listed output is written (on the components listed), the loop trip-count product stays
//! within the configured budget, and the differential preset leaves out what it promises to.

use dxso::{Extra, Instruction, Opcode, RegisterType as R, Shader as Program, Version};
use dxso_smith::{Config, Interface, Shader, ALL_VERSIONS};
use std::collections::HashMap;

fn programs(config: &Config, per_version: u64) -> impl Iterator<Item = Shader> + '_ {
    ALL_VERSIONS.into_iter().flat_map(move |v| {
        let c = config.clone().with_version(v);
        (0..per_version).map(move |seed| Shader::from_seed(seed * 7919 + 3, &c))
    })
}

fn is_input(ty: R, v: Version) -> bool {
    match ty {
        R::Input | R::MiscType => true,
        // ps_1_1-ps_1_3 texture registers hold texture results, not interpolated inputs.
        R::Addr => v.is_pixel() && !(v.is_sm1() && v.minor < 4),
        _ => false,
    }
}

fn matrix_rows(op: Opcode) -> u32 {
    match op {
        Opcode::M4x4 | Opcode::M3x4 => 4,
        Opcode::M4x3 | Opcode::M3x3 => 3,
        Opcode::M3x2 => 2,
        _ => 1,
    }
}

/// Everything the listed interface must account for, checked instruction by instruction.
fn check(program: &Shader) -> Result<(), String> {
    let shader = program.shader();
    let i: &Interface = program.interface();
    let v = shader.version;
    let mut written: HashMap<dxso::Register, u8> = HashMap::new();
    let dcl_types: HashMap<u16, u8> = shader
        .instructions()
        .filter_map(|x| match (x.extra, x.dst) {
            (Extra::Dcl(d), Some(dst)) if dst.register.ty == R::Sampler => {
                Some((dst.register.num, d.texture_type_raw))
            }
            _ => None,
        })
        .collect();
    let defi: HashMap<u16, [i32; 4]> = shader
        .instructions()
        .filter_map(|x| match (x.extra, x.dst) {
            (Extra::DefI(vals), Some(d)) => Some((d.register.num, vals)),
            _ => None,
        })
        .collect();
    let mut discards = false;
    for inst in shader.instructions() {
        if matches!(
            inst.opcode,
            Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB
        ) {
            continue;
        }
        if matches!(inst.opcode, Opcode::TexKill) {
            discards = true;
            if is_input(inst.dst.unwrap().register.ty, v)
                && i.input(inst.dst.unwrap().register).is_none()
            {
                return Err(format!("texkill reads unlisted {:?}", inst.dst));
            }
        }
        for (n, s) in inst.srcs.iter().enumerate() {
            let reg = s.register;
            if s.relative.is_some() {
                continue;
            }
            if is_input(reg.ty, v) && i.input(reg).is_none() {
                return Err(format!(
                    "{:?} reads unlisted input {}",
                    inst.opcode,
                    reg.name(v)
                ));
            }
            if reg.ty == R::Const {
                let rows = if n == 1 { matrix_rows(inst.opcode) } else { 1 };
                for k in 0..rows {
                    let idx = reg.index() + k;
                    if !i.float_constants.iter().any(|c| c.index == idx) {
                        return Err(format!("{:?} reads unlisted c{idx}", inst.opcode));
                    }
                }
            }
            if reg.ty == R::Sampler {
                let Some(s) = i.samplers.iter().find(|s| s.index == reg.num) else {
                    return Err(format!("unlisted sampler s{}", reg.num));
                };
                if Some(&(s.texture_type as u8)) != dcl_types.get(&reg.num) {
                    return Err(format!(
                        "sampler s{} listed as {:?}",
                        reg.num, s.texture_type
                    ));
                }
            }
            if reg.ty == R::ConstInt {
                let Some(c) = i.int_constants.iter().find(|c| c.index == reg.num) else {
                    return Err(format!("unlisted i{}", reg.num));
                };
                if defi.get(&reg.num) != Some(&c.defined) {
                    return Err(format!("i{} listed as {:?}", reg.num, c.defined));
                }
            }
            if reg.ty == R::ConstBool && !i.bool_constants.iter().any(|c| c.index == reg.num) {
                return Err(format!("unlisted b{}", reg.num));
            }
        }
        if let Some(d) = inst.dst {
            if d.relative.is_none() && inst.opcode != Opcode::TexKill {
                *written.entry(d.register).or_default() |= d.mask.0;
            }
        }
    }
    for o in &i.outputs {
        if o.register.ty == R::DepthOut && v.is_sm1() {
            continue;
        }
        let w = written.get(&o.register).copied().unwrap_or(0);
        if o.mask.0 & !w != 0 {
            return Err(format!(
                "listed output {} {:?} is not written",
                o.register.name(v),
                o.mask
            ));
        }
    }
    if discards != i.may_discard {
        return Err(format!(
            "may_discard {} but texkill present: {discards}",
            i.may_discard
        ));
    }
    Ok(())
}

/// The largest product of nested loop trip counts one invocation can reach, calls included.
fn max_nested_iterations(shader: &Program) -> u64 {
    let insts: Vec<&Instruction> = shader.instructions().collect();
    let defi: HashMap<u16, i32> = insts
        .iter()
        .filter_map(|x| match (x.extra, x.dst) {
            (Extra::DefI(vals), Some(d)) => Some((d.register.num, vals[0])),
            _ => None,
        })
        .collect();
    let labels: HashMap<u16, usize> = insts
        .iter()
        .enumerate()
        .filter(|(_, x)| x.opcode == Opcode::Label)
        .map(|(k, x)| (x.srcs[0].register.num, k + 1))
        .collect();
    fn walk(
        start: usize,
        insts: &[&Instruction],
        defi: &HashMap<u16, i32>,
        labels: &HashMap<u16, usize>,
        depth: usize,
    ) -> u64 {
        assert!(depth < 16, "call chain too deep");
        let mut stack: Vec<u64> = vec![1];
        let mut worst = 1;
        for inst in &insts[start..] {
            let here = *stack.last().unwrap();
            match inst.opcode {
                Opcode::Loop | Opcode::Rep => {
                    let i = inst.srcs.last().unwrap().register.num;
                    let count = defi.get(&i).copied().unwrap_or(i32::MAX).max(1) as u64;
                    stack.push(here * count);
                    worst = worst.max(here * count);
                }
                Opcode::EndLoop | Opcode::EndRep => {
                    stack.pop();
                }
                Opcode::Call | Opcode::CallNz => {
                    let target = labels[&inst.srcs[0].register.num];
                    worst = worst.max(here * walk(target, insts, defi, labels, depth + 1));
                }
                Opcode::Ret if stack.len() == 1 => break,
                Opcode::Label => break,
                _ => {}
            }
        }
        worst
    }
    walk(0, &insts, &defi, &labels, 0)
}

#[test]
fn interfaces_list_what_programs_use() {
    let mut n = 0;
    for config in [Config::default(), Config::differential()] {
        for program in programs(&config, 150) {
            n += 1;
            if let Err(e) = check(&program) {
                panic!("{e}\n{}", dxso_text::print(program.shader()));
            }
        }
    }
    println!("{n}/{n} interfaces account for every register their program uses");
}

#[test]
fn loops_stay_within_the_iteration_budget() {
    let mut n = 0;
    let mut deepest = 0;
    for max in [1u32, 8, 64, 256] {
        let config = Config {
            max_loop_iterations: max,
            max_nesting: 5,
            ..Config::default()
        };
        for program in programs(&config, 60) {
            let worst = max_nested_iterations(program.shader());
            deepest = deepest.max(worst);
            assert!(
                worst <= max as u64,
                "trip-count product {worst} over the budget {max}:\n{}",
                dxso_text::print(program.shader())
            );
            n += 1;
        }
    }
    println!("{n} programs within their loop budget (largest product seen: {deepest})");
    assert!(
        deepest > 8,
        "expected some nested loops to reach past 8 iterations, found {deepest}"
    );
}

#[test]
fn differential_preset_leaves_out_what_it_promises() {
    use Opcode::*;
    let mut n = 0;
    for program in programs(&Config::differential(), 150) {
        n += 1;
        for inst in program.shader().instructions() {
            assert!(
                !matches!(
                    inst.opcode,
                    Rcp | Rsq | Log | LogP | Pow | Nrm | Lit | Exp | ExpP | SinCos
                ),
                "{:?} in a differential program",
                inst.opcode
            );
            if let Extra::Def(bits) = inst.extra {
                // Small exact values (the address constant holds indices up to 8.4).
                assert!(
                    bits.iter().all(|b| f32::from_bits(*b).abs() <= 9.0),
                    "{bits:?}"
                );
            }
            assert!(
                inst.srcs
                    .iter()
                    .all(|s| !matches!(s.modifier, dxso::SrcModifier::Dz | dxso::SrcModifier::Dw)),
                "_dz/_dw in a differential program"
            );
            if inst.opcode == Tex && !program.shader().version.is_sm1() {
                assert_ne!(inst.control, 1, "texldp in a differential program");
            }
        }
        assert_eq!(program.interface().assumed_input_bound, Some(4.0));
    }
    println!("{n} differential programs without transcendentals, divisions or large constants");
}

/// `texld`/`texldp`/`texldb`/`dsx`/`dsy` never sit under `if_cc`, `if p0`, or inside a loop that
/// a `break_cc`/`breakp` may leave (checked per function; a subroutine's callers are not
/// followed here).
fn gradients_outside_divergence(shader: &Program) -> Result<(), String> {
    let insts: Vec<&Instruction> = shader.instructions().collect();
    let v = shader.version;
    // For each loop opened at index k, whether a divergent break leaves it.
    let mut divergent_loop: HashMap<usize, bool> = HashMap::new();
    let mut open: Vec<usize> = Vec::new();
    for (k, inst) in insts.iter().enumerate() {
        match inst.opcode {
            Opcode::Loop | Opcode::Rep => open.push(k),
            Opcode::EndLoop | Opcode::EndRep => {
                open.pop();
            }
            Opcode::BreakC | Opcode::BreakP => {
                if let Some(&l) = open.last() {
                    divergent_loop.insert(l, true);
                }
            }
            Opcode::Label => open.clear(),
            _ => {}
        }
    }
    let mut stack: Vec<bool> = Vec::new();
    for (k, inst) in insts.iter().enumerate() {
        let divergent = stack.iter().any(|d| *d);
        match inst.opcode {
            Opcode::Ifc => stack.push(true),
            Opcode::If => stack.push(inst.srcs[0].register.ty == R::Predicate),
            Opcode::Loop | Opcode::Rep => {
                stack.push(divergent_loop.get(&k).copied().unwrap_or(false))
            }
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => {
                stack.pop();
            }
            Opcode::Label => stack.clear(),
            Opcode::Dsx | Opcode::Dsy if divergent => {
                return Err(format!("{:?} at {k}", inst.opcode))
            }
            Opcode::Tex if divergent && !v.is_sm1() => return Err(format!("texld at {k}")),
            _ => {}
        }
    }
    Ok(())
}

#[test]
fn gradients_stay_out_of_divergent_flow() {
    let mut n = 0;
    for v in [Version::ps(2, 1), Version::ps(3, 0)] {
        let config = Config {
            max_instructions: 120,
            max_nesting: 4,
            ..Config::for_version(v)
        };
        for seed in 0..400 {
            let program = Shader::from_seed(seed, &config);
            if let Err(e) = gradients_outside_divergence(program.shader()) {
                panic!(
                    "gradient under divergent flow ({e}):\n{}",
                    dxso_text::print(program.shader())
                );
            }
            n += 1;
        }
    }
    println!("{n}/{n} ps_2_x/ps_3_0 programs keep gradients out of divergent flow");
}
