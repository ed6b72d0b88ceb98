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
    /// Where.
    pub loc: Loc,
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
