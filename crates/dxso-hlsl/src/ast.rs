//! The syntax tree the parser builds.

use crate::diag::Loc;

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `bool`.
    Bool,
    /// `int` (and `dword`).
    Int,
    /// `uint`.
    Uint,
    /// `half`: computed as `float` in shader models 1-3.
    Half,
    /// `float`.
    Float,
    /// `double`: computed as `float` in shader models 1-3.
    Double,
}

/// A sampler or texture object type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// `sampler` (untyped).
    Sampler,
    /// `sampler1D`.
    Sampler1D,
    /// `sampler2D`.
    Sampler2D,
    /// `sampler3D`.
    Sampler3D,
    /// `samplerCUBE`.
    SamplerCube,
    /// `SamplerState` (D3D10 syntax fxc accepts for shader model 2-3).
    SamplerState,
    /// `texture` and `Texture1D/2D/3D/Cube`.
    Texture(u8),
}

/// A type as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// `void`.
    Void,
    /// A scalar.
    Scalar(Scalar),
    /// `floatN`.
    Vector(Scalar, u8),
    /// `floatRxC`: rows, columns.
    Matrix(Scalar, u8, u8),
    /// A sampler or texture.
    Object(ObjectKind),
    /// A struct, by index into [`Program::structs`].
    Struct(usize),
    /// A `string` (annotations only).
    String,
}

/// A type with its array dimensions and matrix packing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    /// The element type.
    pub kind: TypeKind,
    /// Array lengths, outermost first (empty for a non-array).
    pub array: Vec<u32>,
    /// `row_major` (`Some(true)`), `column_major` (`Some(false)`), or the default.
    pub row_major: Option<bool>,
}

impl Type {
    /// A non-array type.
    pub fn of(kind: TypeKind) -> Self {
        Type {
            kind,
            array: Vec::new(),
            row_major: None,
        }
    }
}

/// Storage and parameter qualifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Qualifiers {
    /// `static`.
    pub is_static: bool,
    /// `uniform`.
    pub uniform: bool,
    /// `const`.
    pub is_const: bool,
    /// `extern`, `shared`, `volatile`: no effect on code.
    pub external: bool,
    /// `shared`: an effect parameter shared between the effects of one pool.
    pub shared: bool,
    /// `in` (or `inout`).
    pub input: bool,
    /// `out` (or `inout`).
    pub output: bool,
}

/// A `register(c3)` binding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    /// The register set letter (`c`, `s`, `t`, `b`, `i`).
    pub set: char,
    /// The register index.
    pub index: u32,
    /// The profile named first (`register(ps, c0)`: `ps`), lower-cased: the binding applies
    /// only to shaders of profiles it begins.
    pub profile: Option<String>,
    /// Further bindings of the same variable (`: register(vs, c0) : register(ps, c2)`).
    pub more: Vec<Binding>,
    /// Where.
    pub loc: Loc,
}

impl Binding {
    /// The binding that applies to a shader of `profile` (`vs_2_0`), if any.
    pub fn for_profile(&self, profile: &str) -> Option<&Binding> {
        std::iter::once(self).chain(&self.more).find(|b| {
            b.profile
                .as_ref()
                .as_ref()
                .map_or(true, |p| profile.starts_with(p.as_str()))
        })
    }
}

/// An initialiser.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// `= expr`.
    Expr(Expr),
    /// `= { a, b, ... }`.
    List(Vec<Init>, Loc),
    /// `= sampler_state { ... }` (states are for effects; shaders ignore them).
    SamplerState,
    /// `= "text"`: a string parameter's value (effects only).
    Str(String, Loc),
}

/// A variable, parameter or struct member declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// The name.
    pub name: String,
    /// The type.
    pub ty: Type,
    /// Qualifiers.
    pub quals: Qualifiers,
    /// `: SEMANTIC`, upper-cased.
    pub semantic: Option<String>,
    /// `: register(...)`.
    pub binding: Option<Binding>,
    /// `= ...`.
    pub init: Option<Init>,
    /// Where the name is.
    pub loc: Loc,
}

/// A struct definition.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    /// The name (empty for an anonymous struct).
    pub name: String,
    /// Members in order.
    pub members: Vec<VarDecl>,
}

/// A function definition or declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// The name.
    pub name: String,
    /// The return type.
    pub ret: Type,
    /// `: SEMANTIC` of the return value.
    pub ret_semantic: Option<String>,
    /// Parameters.
    pub params: Vec<VarDecl>,
    /// The body, `None` for a prototype.
    pub body: Option<Vec<Stmt>>,
    /// Where the name is.
    pub loc: Loc,
}

/// A top-level declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Global {
    /// Variables.
    Vars(Vec<VarDecl>),
    /// A function.
    Function(Function),
}

/// A whole translation unit.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// Structs by index.
    pub structs: Vec<StructDef>,
    /// Declarations in order.
    pub globals: Vec<Global>,
    /// What only an effect holds (empty unless parsed with [`crate::parser::parse_effect`]).
    pub effect: EffectSyntax,
}

/// The effect (fx_2_0) parts of a source, kept beside the globals the shader compiler reads.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EffectSyntax {
    /// Annotations of global variables, by variable name.
    pub annotations: Vec<(String, Vec<AnnotationDecl>)>,
    /// `sampler_state { ... }` blocks of global samplers, by variable name.
    pub sampler_states: Vec<(String, Vec<StateAssign>)>,
    /// `VertexShader`/`PixelShader` variables.
    pub shaders: Vec<ShaderVar>,
    /// Techniques in order.
    pub techniques: Vec<TechniqueDecl>,
}

/// An annotation: `float x = 1;` or `string UIName = "Color";` inside `< >`.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnotationDecl {
    /// The declared type.
    pub ty: Type,
    /// The name.
    pub name: String,
    /// The value.
    pub value: AnnotationValue,
    /// Where the name is.
    pub loc: Loc,
}

/// The value of an annotation.
#[derive(Clone, Debug, PartialEq)]
pub enum AnnotationValue {
    /// A string literal (quotes removed).
    Str(String),
    /// A numeric initialiser.
    Init(Init),
}

/// A state assignment in a pass or a `sampler_state` block: `NAME[index] = value;`.
#[derive(Clone, Debug, PartialEq)]
pub struct StateAssign {
    /// The state name as written.
    pub name: String,
    /// `[index]`, if written.
    pub index: Option<u32>,
    /// The value.
    pub value: StateRhs,
    /// Where the name is.
    pub loc: Loc,
}

/// The right-hand side of a state assignment.
#[derive(Clone, Debug, PartialEq)]
pub enum StateRhs {
    /// `compile profile entry(args)`.
    Compile(CompileExpr),
    /// `asm { ... }`.
    Asm(AsmBlock),
    /// `{ 1, 2, 3, 4 }`: literal numbers (inner braces only group).
    List(Vec<Expr>, Loc),
    /// An expression: a literal, a value name (`Linear`), a parameter (`<t>` is kept as its
    /// name), or an expression of parameters.
    Expr(Expr),
}

/// `compile vs_2_0 main(args)`.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileExpr {
    /// The profile as written.
    pub profile: String,
    /// The entry-point function.
    pub entry: String,
    /// The arguments.
    pub args: Vec<Expr>,
    /// Where `compile` is.
    pub loc: Loc,
}

/// `asm { vs_2_0 ... }`: a shader written in Microsoft's assembly inside an effect.
#[derive(Clone, Debug, PartialEq)]
pub struct AsmBlock {
    /// The assembly text between the braces, one source line per line.
    pub text: String,
    /// Where `asm` is.
    pub loc: Loc,
    /// The source line of the text's first line (for placing the assembler's findings).
    pub first_line: u32,
}

/// A shader value in an effect: compiled from a function or assembled from a block.
#[derive(Clone, Debug, PartialEq)]
pub enum ShaderCode {
    /// `compile profile entry(args)`.
    Compile(CompileExpr),
    /// `asm { ... }`.
    Asm(AsmBlock),
}

/// A `VertexShader`/`PixelShader` global: `VertexShader vs[2] = { compile ..., ... };`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderVar {
    /// The name.
    pub name: String,
    /// `true` for `VertexShader`.
    pub vertex: bool,
    /// The array length, if an array.
    pub elements: Option<u32>,
    /// One value per element (`None` for `NULL`).
    pub values: Vec<Option<ShaderCode>>,
    /// `shared`: the parameter is shared between effects of one pool.
    pub shared: bool,
    /// How many entries of [`Program::globals`] came before it (parameters keep source order).
    pub position: usize,
    /// Where the name is.
    pub loc: Loc,
}

/// A `technique` block.
#[derive(Clone, Debug, PartialEq)]
pub struct TechniqueDecl {
    /// The name, if written.
    pub name: Option<String>,
    /// Its annotations.
    pub annotations: Vec<AnnotationDecl>,
    /// Its passes.
    pub passes: Vec<PassDecl>,
    /// Where the keyword is.
    pub loc: Loc,
}

/// A `pass` block.
#[derive(Clone, Debug, PartialEq)]
pub struct PassDecl {
    /// The name, if written.
    pub name: Option<String>,
    /// Its annotations.
    pub annotations: Vec<AnnotationDecl>,
    /// Its states in order.
    pub states: Vec<StateAssign>,
}

/// A loop or branch attribute (`[unroll]`, `[loop]`, `[branch]`, `[flatten]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The name, lower-cased.
    pub name: String,
    /// Arguments (`[unroll(4)]`).
    pub args: Vec<Expr>,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// An expression.
    Expr(Expr),
    /// Local variables.
    Vars(Vec<VarDecl>),
    /// `{ ... }`.
    Block(Vec<Stmt>),
    /// `if`.
    If {
        /// Attributes.
        attrs: Vec<Attribute>,
        /// Condition.
        cond: Expr,
        /// Then.
        then: Box<Stmt>,
        /// Else.
        otherwise: Option<Box<Stmt>>,
    },
    /// `for`.
    For {
        /// Attributes.
        attrs: Vec<Attribute>,
        /// Initialiser.
        init: Option<Box<Stmt>>,
        /// Condition.
        cond: Option<Expr>,
        /// Step.
        step: Option<Expr>,
        /// Body.
        body: Box<Stmt>,
        /// Where the keyword is.
        loc: Loc,
    },
    /// `while`.
    While {
        /// Attributes.
        attrs: Vec<Attribute>,
        /// Condition.
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
        /// Where the keyword is.
        loc: Loc,
    },
    /// `do ... while`.
    DoWhile {
        /// Attributes.
        attrs: Vec<Attribute>,
        /// Body.
        body: Box<Stmt>,
        /// Condition.
        cond: Expr,
        /// Where the keyword is.
        loc: Loc,
    },
    /// `return`.
    Return(Option<Expr>, Loc),
    /// `break`.
    Break(Loc),
    /// `continue`.
    Continue(Loc),
    /// `discard`.
    Discard(Loc),
    /// `;`.
    Empty,
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-`.
    Neg,
    /// `+`.
    Plus,
    /// `!`.
    Not,
    /// `~`.
    BitNot,
    /// `++x`.
    PreInc,
    /// `--x`.
    PreDec,
    /// `x++`.
    PostInc,
    /// `x--`.
    PostDec,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    /// `,`.
    Comma,
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What.
    pub kind: ExprKind,
    /// Where.
    pub loc: Loc,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// `true`/`false`.
    Bool(bool),
    /// A name.
    Ident(String),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b`, `a += b` (the operator of a compound assignment).
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `f(args)`.
    Call(String, Vec<Expr>),
    /// `float3(args)`.
    Construct(Type, Vec<Expr>),
    /// `(float3)x`.
    Cast(Type, Box<Expr>),
    /// `x.name` (a swizzle or a member).
    Member(Box<Expr>, String),
    /// `x[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// `obj.Method(args)`.
    Method(Box<Expr>, String, Vec<Expr>),
}
