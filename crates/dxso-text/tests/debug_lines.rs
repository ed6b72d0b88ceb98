//! The DBUG block in the listing: a table built in code prints its `#line` directives and
//! variable annotations where Microsoft's disassembler puts them, `PrintOptions::debug` turns
//! them off, and the assembler reads the listing back (the `#line` directives renumber its
//! diagnostics, the annotations are comments).

use dxso::ctab::TypeInfo;
use dxso::dbug::{DebugInfo, InstructionInfo, Variable, VariableWrite};
use dxso::{Comment, Item, Shader};
use dxso_text::{parse, print_with, PrintOptions};

const CODE: &str = "ps_2_0\ndcl t0\nmov r0, t0\nadd r0, r0, t0\nmul r0, r0, t0\nmov oC0, r0\n";

fn vector(columns: u16) -> TypeInfo {
    TypeInfo {
        class_raw: 1,
        type_raw: 3,
        rows: 1,
        columns,
        elements: 1,
        members: vec![],
    }
}

fn write(instruction: u32, components: [u16; 4]) -> VariableWrite {
    VariableWrite {
        instruction,
        components,
    }
}

/// `CODE` with a debug table: `dcl` has no source, then lines 10 (a.fx), 12 and 20 (a.fx),
/// 5 (b.fxh); variables of every naming kind, two of them written by one instruction.
fn shader_with_debug_info() -> Shader {
    let mut shader = parse(CODE).unwrap();
    const NONE: u16 = VariableWrite::NONE;
    let lines = [
        (0, InstructionInfo::NO_FILE),
        (10, 0),
        (12, 0),
        (20, 0),
        (5, 1),
    ];
    let info = DebugInfo {
        header_size: dxso::dbug::HEADER_SIZE,
        creator: Some("dxso test".into()),
        source_code: None,
        files: vec!["C:\\src\\a.fx".into(), "C:\\src\\b.fxh".into()],
        instructions: lines
            .iter()
            .map(|&(line, file)| InstructionInfo {
                line,
                file,
                offset: 0,
            })
            .collect(),
        variables: vec![
            Variable {
                scope: Some("main".into()),
                name: "pin".into(),
                ty: vector(4),
                writes: vec![write(0, [0, 1, 2, 3])],
            },
            Variable {
                scope: None,
                name: "tint".into(),
                ty: vector(3),
                writes: vec![write(2, [0, 1, 2, NONE])],
            },
            Variable {
                scope: Some("Fog".into()),
                name: "amount".into(),
                ty: vector(1),
                writes: vec![write(2, [NONE, NONE, NONE, 0])],
            },
            Variable {
                scope: None,
                name: "main".into(),
                ty: vector(4),
                writes: vec![write(4, [0, 1, 2, 3])],
            },
        ],
        entry_point: Some("main".into()),
        layout: None,
    };
    shader.items.insert(
        0,
        Item::Comment(Comment {
            data: info.to_words(),
        }),
    );
    shader
}

const BODY: &str = r#"    ps_2_0
    dcl t0  // pin<0,1,2,3>

#line 10 "C:\src\a.fx"
    mov r0, t0
    add r0, r0, t0  // ::tint<0,1,2>, Fog::amount<0>

#line 20
    mul r0, r0, t0

#line 5 "C:\src\b.fxh"
    mov oC0, r0  // ::main<0,1,2,3>
"#;

fn options(debug: bool) -> PrintOptions {
    PrintOptions {
        header: false,
        footer: false,
        debug,
        ..Default::default()
    }
}

#[test]
fn debug_lines_go_where_microsoft_puts_them() {
    let listing = print_with(&shader_with_debug_info(), &options(true));
    assert_eq!(listing, BODY);
}

#[test]
fn no_debug_prints_the_plain_body() {
    let shader = shader_with_debug_info();
    let plain = print_with(&shader, &options(false));
    assert!(!plain.contains("#line") && !plain.contains("//"), "{plain}");
    let mut without = shader.clone();
    without.items.retain(|i| !matches!(i, Item::Comment(_)));
    assert_eq!(plain, print_with(&without, &options(true)));
}

#[test]
fn an_unreadable_table_prints_no_debug_lines() {
    let mut shader = shader_with_debug_info();
    let Item::Comment(c) = &mut shader.items[0] else {
        unreachable!()
    };
    c.data.truncate(5);
    let listing = print_with(&shader, &options(true));
    assert!(
        !listing.contains("#line") && !listing.contains("//"),
        "{listing}"
    );
}

#[test]
fn the_listing_assembles_and_line_directives_renumber_diagnostics() {
    let shader = shader_with_debug_info();
    let back = parse(&print_with(&shader, &options(true))).unwrap();
    let mut code = shader.clone();
    code.items.retain(|i| !matches!(i, Item::Comment(_)));
    assert_eq!(back, code);

    // A mistake on the line after `#line 20`: reported as a.fx line 20.
    let broken = BODY.replace("mul r0, r0, t0", "mul r0, r0, q0");
    let errors = parse(&broken).unwrap_err().errors;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        (errors[0].file.as_str(), errors[0].line),
        ("C:\\src\\a.fx", 20)
    );
}

#[test]
fn hostile_names_cannot_break_out_of_their_line() {
    let mut shader = shader_with_debug_info();
    let Item::Comment(c) = &shader.items[0] else {
        unreachable!()
    };
    let mut info = DebugInfo::parse(&c.data).unwrap();
    info.layout = None;
    info.files[0] = "a\"b\nmov r9, r9".into();
    info.variables[1].name = "x\nmov r8, r8".into();
    shader.items[0] = Item::Comment(Comment {
        data: info.to_words(),
    });
    let listing = print_with(&shader, &options(true));
    assert!(
        listing.contains("#line 10 \"a?b?mov r9, r9\"\n"),
        "{listing}"
    );
    assert!(listing.contains("// ::x?mov r8, r8<0,1,2>"), "{listing}");
    let mut code = shader.clone();
    code.items.retain(|i| !matches!(i, Item::Comment(_)));
    assert_eq!(parse(&listing).unwrap(), code);
}
