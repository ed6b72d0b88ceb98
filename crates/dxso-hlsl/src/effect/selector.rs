//! Array selectors: the FXLC expression that computes which element of a shader array a state
//! takes (`VertexShader = (VSArray[VSIndices[ShaderIndex]]);`). The index is an expression of
//! scalar parameters and of elements of scalar array parameters, as FNA's stock effects write
//! it; its inputs get `c` registers in the order they are met (an array before its index) and
//! the constant table lists them by name, as fxc writes them.

use crate::ast::{Expr, ExprKind};
use crate::diag::{Code, Diagnostic};
use dxso::ctab::{Constant, ConstantTable, ParameterClass, ParameterType, TypeInfo};
use dxso_fx::program::{EXPRESSION_VERSION, FXLC_FOURCC};
use dxso_fx::{Parameter, Program, Shape, Value};

/// FXLC `mov` of one component.
const MOV_1: u32 = 0x1000_0001;
/// The words compilers write after the last FXLC instruction.
const FXLC_TAIL: [u32; 3] = [0xf0f0_f0f0, 0x0f0f_0f0f, 0x0000_ffff];
const COMMENT: u32 = 0xFFFE;
/// `D3DXRS_FLOAT4`.
const REGISTER_SET_FLOAT4: u16 = 2;
const TABLE_CONSTANT: u32 = 2;
const TABLE_OUTPUT: u32 = 4;
const TABLE_TEMPORARY: u32 = 7;

/// An operand: `(index register, register)` as `(table, component offset)` pairs.
type Operand = (Option<(u32, u32)>, (u32, u32));

struct Selector<'a> {
    parameters: &'a [Parameter],
    /// Inputs: parameter index, first register, registers.
    inputs: Vec<(usize, u32, u32)>,
    code: Vec<u32>,
    instructions: u32,
    temps: u32,
}

fn error(e: &Expr, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::Unsupported, e.loc.clone(), message)
}

impl Selector<'_> {
    /// The register of a scalar parameter or the first of a scalar array's elements.
    fn input(&mut self, e: &Expr, name: &str, array: bool) -> Result<u32, Diagnostic> {
        let (index, p) = self
            .parameters
            .iter()
            .enumerate()
            .find(|(_, p)| p.name() == name)
            .ok_or_else(|| {
                Diagnostic::error(
                    Code::Undeclared,
                    e.loc.clone(),
                    format!("undeclared identifier '{name}'"),
                )
            })?;
        let scalar = matches!(
            p.ty.shape,
            Shape::Numeric {
                rows: 1,
                columns: 1
            }
        );
        if !scalar || (p.ty.elements > 0) != array {
            return Err(error(
                e,
                format!(
                    "'{name}': an array index may use scalar parameters and elements of scalar \
                     arrays"
                ),
            ));
        }
        if let Some(&(_, first, _)) = self.inputs.iter().find(|(i, _, _)| *i == index) {
            return Ok(first);
        }
        let first = self
            .inputs
            .iter()
            .map(|&(_, f, n)| f + n)
            .max()
            .unwrap_or(0);
        self.inputs
            .push((index, first, p.ty.element_count().max(1)));
        Ok(first)
    }

    fn operand(&mut self, e: &Expr) -> Result<Operand, Diagnostic> {
        match &e.kind {
            ExprKind::Ident(n) => {
                let r = self.input(e, n, false)?;
                Ok((None, (TABLE_CONSTANT, 4 * r)))
            }
            ExprKind::Index(base, idx) => {
                let ExprKind::Ident(n) = &base.kind else {
                    return Err(error(base, "only a parameter can be indexed here"));
                };
                let first = self.input(base, n, true)?;
                if let ExprKind::Int(k) = idx.kind {
                    let k = u32::try_from(k).map_err(|_| error(idx, "negative index"))?;
                    return Ok((None, (TABLE_CONSTANT, 4 * (first + k))));
                }
                let inner = self.operand(idx)?;
                let index = match inner {
                    (None, reg) => reg,
                    relative => {
                        // An index that is itself indexed goes through a temporary.
                        let t = (TABLE_TEMPORARY, 4 * self.temps);
                        self.temps += 1;
                        self.mov(relative, t);
                        t
                    }
                };
                Ok((Some(index), (TABLE_CONSTANT, 4 * first)))
            }
            _ => Err(error(
                e,
                "an array index may use parameters and array elements only",
            )),
        }
    }

    fn mov(&mut self, input: Operand, output: (u32, u32)) {
        self.code.extend([MOV_1, 1]);
        match input.0 {
            Some((t, o)) => self.code.extend([1, t, o]),
            None => self.code.push(0),
        }
        self.code.extend([input.1 .0, input.1 .1]);
        self.code.extend([0, output.0, output.1]);
        self.instructions += 1;
    }
}

/// The program computing the element index `index` selects, from the effect's parameters.
pub(super) fn index_program(index: &Expr, parameters: &[Parameter]) -> Result<Program, Diagnostic> {
    let mut s = Selector {
        parameters,
        inputs: Vec::new(),
        code: Vec::new(),
        instructions: 0,
        temps: 0,
    };
    let operand = s.operand(index)?;
    s.mov(operand, (TABLE_OUTPUT, 0));
    let mut constants: Vec<Constant> = s
        .inputs
        .iter()
        .map(|&(i, first, count)| {
            let p = &parameters[i];
            let ty = match p.ty.ty() {
                Some(ParameterType::Float) => ParameterType::Float,
                Some(ParameterType::Bool) => ParameterType::Bool,
                _ => ParameterType::Int,
            };
            let default = match &p.value {
                Value::Data(words) => words
                    .iter()
                    .flat_map(|&w| {
                        let v = match ty {
                            ParameterType::Float => f32::from_bits(w),
                            _ => w as i32 as f32,
                        };
                        [v.to_bits(), 0, 0, 0]
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Constant {
                name: p.name().as_ref().into(),
                register_set_raw: REGISTER_SET_FLOAT4,
                register_index: first as u16,
                register_count: count as u16,
                reserved: 0,
                ty: TypeInfo {
                    class_raw: ParameterClass::Scalar as u16,
                    type_raw: ty as u16,
                    rows: 1,
                    columns: 1,
                    elements: if p.ty.elements > 0 { count as u16 } else { 1 },
                    members: Vec::new(),
                },
                default_value: Some(default),
            }
        })
        .collect();
    constants.sort_by(|a, b| a.name.0.cmp(&b.name.0));
    let table = ConstantTable {
        creator: format!("dxso-hlsl {}", env!("CARGO_PKG_VERSION"))
            .as_str()
            .into(),
        version: EXPRESSION_VERSION,
        flags: 0,
        target: "".into(),
        header_size: 28,
        constants,
        layout: None,
    };
    let mut words = vec![EXPRESSION_VERSION];
    let mut section = |payload: Vec<u32>| {
        words.push(COMMENT | ((payload.len() as u32) << 16));
        words.extend(payload);
    };
    section(table.to_words());
    section(vec![dxso_fx::program::CLIT_FOURCC, 0]);
    let mut fxlc = vec![FXLC_FOURCC, s.instructions];
    fxlc.extend(&s.code);
    fxlc.extend(FXLC_TAIL);
    section(fxlc);
    Program::parse_words(&words, 0).map_err(|e| {
        Diagnostic::error(
            Code::Unsupported,
            index.loc.clone(),
            format!("internal: the selector program does not read back: {e}"),
        )
    })
}
