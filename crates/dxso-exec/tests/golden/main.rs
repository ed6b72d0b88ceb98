//! Golden tests: per opcode and relevant version, shaders written in assembly with their
//! results computed by hand from `docs/SEMANTICS.md`.

mod arith;
mod flow;
mod harness;
mod pixel;
mod sm2;

#[test]
fn golden_cases() {
    let cases: Vec<harness::Case> = [arith::cases(), flow::cases(), pixel::cases(), sm2::cases()]
        .into_iter()
        .flatten()
        .collect();
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(e) = case.check() {
            failures.push(format!(
                "{}: {e}\n    {}",
                case.name,
                case.src.replace('\n', "; ")
            ));
        }
    }
    println!(
        "golden cases: {}/{} pass",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} golden cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Every opcode that executes has at least one golden case (the opcode table is the list).
#[test]
fn every_opcode_has_a_case() {
    let cases: Vec<harness::Case> = [arith::cases(), flow::cases(), pixel::cases(), sm2::cases()]
        .into_iter()
        .flatten()
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for case in &cases {
        if let Ok(shader) = dxso_text::parse::parse(&case.src) {
            for inst in shader.instructions() {
                seen.insert(inst.opcode);
            }
        }
    }
    let missing: Vec<&str> = dxso::Opcode::ALL
        .iter()
        .filter(|op| !seen.contains(op) && **op != dxso::Opcode::TexM3x3Diff)
        .map(|op| op.info().mnemonic)
        .collect();
    println!(
        "opcodes covered: {}/{}",
        seen.len(),
        dxso::Opcode::ALL.len() - 1
    );
    assert!(
        missing.is_empty(),
        "opcodes without a golden case: {missing:?}"
    );
}
