//! Parameter descriptions of the four `wine_test_effect_parameter_value_blob_*` effects against
//! what native `GetParameterDesc` returns, as Wine's tests record it
//! (`test_effect_parameter_value_result_{float,int,object,special}`): class, type, rows,
//! columns, elements, bytes, and the DWORD offset in the blob where the value starts.

use dxso_fx::Effect;

/// `(name, class, rows, columns, elements, bytes, value DWORD offset)` of the float blob; the
/// int blob has the same rows with `i` for `f` and the int type.
const NUMERIC: [(&str, &str, u32, u32, u32, u64, usize); 42] = [
    ("f", "scalar", 1, 1, 0, 4, 10),
    ("f1", "vector", 1, 1, 0, 4, 20),
    ("f2", "vector", 1, 2, 0, 8, 30),
    ("f3", "vector", 1, 3, 0, 12, 41),
    ("f4", "vector", 1, 4, 0, 16, 53),
    ("f11", "matrix_rows", 1, 1, 0, 4, 66),
    ("f12", "matrix_rows", 1, 2, 0, 8, 76),
    ("f13", "matrix_rows", 1, 3, 0, 12, 87),
    ("f14", "matrix_rows", 1, 4, 0, 16, 99),
    ("f21", "matrix_rows", 2, 1, 0, 8, 112),
    ("f22", "matrix_rows", 2, 2, 0, 16, 123),
    ("f23", "matrix_rows", 2, 3, 0, 24, 136),
    ("f24", "matrix_rows", 2, 4, 0, 32, 151),
    ("f31", "matrix_rows", 3, 1, 0, 12, 168),
    ("f32", "matrix_rows", 3, 2, 0, 24, 180),
    ("f33", "matrix_rows", 3, 3, 0, 36, 195),
    ("f34", "matrix_rows", 3, 4, 0, 48, 213),
    ("f41", "matrix_rows", 4, 1, 0, 16, 234),
    ("f42", "matrix_rows", 4, 2, 0, 32, 247),
    ("f43", "matrix_rows", 4, 3, 0, 48, 264),
    ("f44", "matrix_rows", 4, 4, 0, 64, 285),
    ("f_2", "scalar", 1, 1, 2, 8, 310),
    ("f1_2", "vector", 1, 1, 2, 8, 321),
    ("f2_2", "vector", 1, 2, 2, 16, 333),
    ("f3_2", "vector", 1, 3, 2, 24, 347),
    ("f4_2", "vector", 1, 4, 2, 32, 363),
    ("f11_2", "matrix_rows", 1, 1, 2, 8, 381),
    ("f12_2", "matrix_rows", 1, 2, 2, 16, 393),
    ("f13_2", "matrix_rows", 1, 3, 2, 24, 407),
    ("f14_2", "matrix_rows", 1, 4, 2, 32, 423),
    ("f21_2", "matrix_rows", 2, 1, 2, 16, 441),
    ("f22_2", "matrix_rows", 2, 2, 2, 32, 455),
    ("f23_2", "matrix_rows", 2, 3, 2, 48, 473),
    ("f24_2", "matrix_rows", 2, 4, 2, 64, 495),
    ("f31_2", "matrix_rows", 3, 1, 2, 24, 521),
    ("f32_2", "matrix_rows", 3, 2, 2, 48, 537),
    ("f33_2", "matrix_rows", 3, 3, 2, 72, 559),
    ("f34_2", "matrix_rows", 3, 4, 2, 96, 587),
    ("f41_2", "matrix_rows", 4, 1, 2, 32, 621),
    ("f42_2", "matrix_rows", 4, 2, 2, 64, 639),
    ("f43_2", "matrix_rows", 4, 3, 2, 96, 665),
    ("f44_2", "matrix_rows", 4, 4, 2, 128, 699),
];

/// `test_effect_parameter_value_result_object`: `(name, type, elements)`, all of class object
/// with 0 rows and columns.
const OBJECTS: [(&str, &str, u32); 7] = [
    ("s", "string", 0),
    ("s_2", "string", 2),
    ("tex", "texture2d", 0),
    ("v", "vertexshader", 0),
    ("v_2", "vertexshader", 2),
    ("p", "pixelshader", 0),
    ("p_2", "pixelshader", 2),
];

/// `test_effect_parameter_value_result_special`.
const SPECIAL: [(&str, &str, u32, u32, u32, u64, usize); 6] = [
    ("f3", "vector", 1, 3, 0, 12, 10),
    ("f3min", "vector", 1, 3, 0, 12, 22),
    ("f3max", "vector", 1, 3, 0, 12, 35),
    ("f4", "vector", 1, 4, 0, 16, 48),
    ("f4min", "vector", 1, 4, 0, 16, 61),
    ("f4max", "vector", 1, 4, 0, 16, 75),
];

struct Expect<'a> {
    name: String,
    class: &'a str,
    ty: &'a str,
    rows: u32,
    columns: u32,
    elements: u32,
    bytes: Option<u64>,
    value_at: Option<usize>,
}

/// Checks each expected description; returns `(fields met, fields checked, misses)`.
fn check(file: &str, bytes: &[u8], expects: &[Expect]) -> (usize, usize, Vec<String>) {
    let effect = Effect::parse(bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (mut met, mut total, mut misses) = (0, 0, Vec::new());
    assert_eq!(
        effect.parameters.len(),
        expects.len(),
        "{file}: parameter count"
    );
    for (p, e) in effect.parameters.iter().zip(expects) {
        let mut field = |ok: bool, what: &str, got: String| {
            total += 1;
            if ok {
                met += 1;
            } else {
                misses.push(format!("{file} {}: {what} got {got}", e.name));
            }
        };
        field(p.name() == e.name, "name", p.name().into_owned());
        field(
            p.semantic().is_none(),
            "semantic",
            format!("{:?}", p.semantic()),
        );
        field(
            p.ty.class_name() == e.class,
            "class",
            p.ty.class_name().into_owned(),
        );
        field(
            p.ty.type_name() == e.ty,
            "type",
            p.ty.type_name().into_owned(),
        );
        field(p.ty.rows() == e.rows, "rows", p.ty.rows().to_string());
        field(
            p.ty.columns() == e.columns,
            "columns",
            p.ty.columns().to_string(),
        );
        field(
            p.ty.elements == e.elements,
            "elements",
            p.ty.elements.to_string(),
        );
        field(
            p.annotations.is_empty(),
            "annotations",
            p.annotations.len().to_string(),
        );
        field(
            p.ty.members().is_empty(),
            "struct members",
            p.ty.members().len().to_string(),
        );
        field(p.flags == 0, "flags", p.flags.to_string());
        if let Some(b) = e.bytes {
            field(
                p.ty.data_bytes() == Some(b),
                "bytes",
                format!("{:?}", p.ty.data_bytes()),
            );
        }
        if let Some(at) = e.value_at {
            let n = e.bytes.unwrap_or(0) as usize / 4;
            let ok = p.value.data() == words.get(at..at + n);
            field(
                ok,
                "value at the native offset",
                format!("{:?}", p.value.data()),
            );
        }
    }
    (met, total, misses)
}

#[test]
fn parameter_descriptions_match_native() {
    let Some(dir) = dxso_corpus::corpus_or_skip("parameter_descriptions_match_native") else {
        return;
    };
    let read = |name: &str| std::fs::read(dir.join("effects").join(name)).unwrap();
    let numeric = |prefix: &str, ty: &'static str| -> Vec<Expect<'static>> {
        NUMERIC
            .iter()
            .map(
                |&(name, class, rows, columns, elements, bytes, at)| Expect {
                    name: format!("{prefix}{}", &name[1..]),
                    class,
                    ty,
                    rows,
                    columns,
                    elements,
                    bytes: Some(bytes),
                    value_at: Some(at),
                },
            )
            .collect()
    };
    let objects: Vec<Expect> = OBJECTS
        .iter()
        .map(|&(name, ty, elements)| Expect {
            name: name.to_string(),
            class: "object",
            ty,
            rows: 0,
            columns: 0,
            elements,
            bytes: None,
            value_at: None,
        })
        .collect();
    let special: Vec<Expect> = SPECIAL
        .iter()
        .map(
            |&(name, class, rows, columns, elements, bytes, at)| Expect {
                name: name.to_string(),
                class,
                ty: "float",
                rows,
                columns,
                elements,
                bytes: Some(bytes),
                value_at: Some(at),
            },
        )
        .collect();
    let sets = [
        (
            "wine_test_effect_parameter_value_blob_float.fxb",
            numeric("f", "float"),
        ),
        (
            "wine_test_effect_parameter_value_blob_int.fxb",
            numeric("i", "int"),
        ),
        ("wine_test_effect_parameter_value_blob_object.fxb", objects),
        ("wine_test_effect_parameter_value_blob_special.fxb", special),
    ];
    let (mut params, mut met, mut total, mut misses) = (0, 0, 0, Vec::new());
    for (file, expects) in &sets {
        let (m, t, mut x) = check(file, &read(file), expects);
        params += expects.len();
        met += m;
        total += t;
        misses.append(&mut x);
    }
    println!("parameter descriptions: {params} parameters, {met}/{total} native fields met");
    assert_eq!(params, 97, "the four blobs hold 97 parameters");
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}
