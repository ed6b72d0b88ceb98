//! Effects from source: an fx_2_0 [`dxso_fx::Effect`] built from an `.fx` file.
//!
//! The source is parsed once ([`crate::parser::parse_effect`]); its top-level variables become
//! the effect's parameters, typed and laid out as fxc lays them out (source order, `static`
//! variables left out, object ids numbered from 1 in the order parameters, sampler states and
//! pass states are met); each `compile profile entry()` is compiled by the shader compiler
//! with the effect's parameters as its uniforms; states are resolved by name through
//! [`dxso_fx::states::state_by_name`] and their value names through
//! [`dxso_fx::state_values::value_by_name`]. The effect is written with
//! [`dxso_fx::Effect::encode_fresh`].

use crate::ast::*;
use crate::diag::{Code, Diagnostic, Diagnostics, Loc};
use crate::{Options, Profile, Source};
use dxso::ctab::{ParameterClass, ParameterType};
use dxso::ShaderKind;
use dxso_fx::states::{state_by_name, state_info, StateClass};
use dxso_fx::{
    Annotation, Effect, EmbeddedShader, Name, Object, ObjectData, Parameter, Pass, Payload,
    Resource, Shape, State, Target, Technique, TypeDesc, Value,
};

/// A compiled effect.
#[derive(Clone, Debug)]
pub struct CompiledEffect {
    /// The effect.
    pub effect: Effect,
    /// Warnings of the shader compilations.
    pub warnings: Vec<Diagnostic>,
}

impl CompiledEffect {
    /// The effect's bytes (a fresh layout).
    pub fn bytes(&self) -> Vec<u8> {
        self.effect.encode_fresh()
    }
}

mod expression;
mod preshader;
mod selector;

type R<T> = Result<T, Diagnostic>;

/// Compiles an effect source to fx_2_0; `options.entry` and `options.profile` are not used
/// (each `compile` names its own), the rest applies to every shader.
pub fn compile_effect(source: &Source, options: &Options) -> Result<CompiledEffect, Diagnostics> {
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("dxso-hlsl-fx".into())
            .stack_size(crate::STACK_SIZE)
            .spawn_scoped(scope, || compile_effect_here(source, options))
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => compile_effect_here(source, options),
        }
    })
}

fn compile_effect_here(source: &Source, options: &Options) -> Result<CompiledEffect, Diagnostics> {
    let pre = crate::preprocess::preprocess(
        &source.name,
        &source.text,
        &options.defines,
        options.includes.as_ref(),
    )?;
    let program = crate::parser::parse_effect(
        &pre.tokens,
        &pre.files,
        options.packing == crate::MatrixPacking::RowMajor,
    )?;
    let mut b = Builder {
        program: &program,
        options,
        effect: Effect::new(),
        next_id: 1,
        warnings: Vec::new(),
        sampler_resources: Vec::new(),
    };
    match b.build() {
        Ok(()) => Ok(CompiledEffect {
            effect: b.effect,
            warnings: b.warnings,
        }),
        Err(e) => {
            let mut all = b.warnings;
            all.push(e);
            Err(Diagnostics(all))
        }
    }
}

struct Builder<'a> {
    program: &'a Program,
    options: &'a Options,
    effect: Effect,
    next_id: u32,
    warnings: Vec<Diagnostic>,
    /// Large objects of sampler states: written after the pass states' (fxc's order).
    sampler_resources: Vec<Resource>,
}

/// A parameter before it is typed: a variable or a shader variable.
enum Decl<'a> {
    Var(&'a VarDecl),
    Shader(&'a ShaderVar),
}

fn unsupported(loc: &Loc, what: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Code::Unsupported, loc.clone(), what)
}

fn numeric(ty: ParameterType, class: ParameterClass, rows: u32, columns: u32) -> TypeDesc {
    TypeDesc {
        type_raw: ty as u32,
        class_raw: class as u32,
        name: None,
        semantic: None,
        elements: 0,
        shape: Shape::Numeric { rows, columns },
    }
}

fn object(ty: ParameterType) -> TypeDesc {
    TypeDesc {
        type_raw: ty as u32,
        class_raw: ParameterClass::Object as u32,
        name: None,
        semantic: None,
        elements: 0,
        shape: Shape::None,
    }
}

fn scalar_type(s: Scalar) -> ParameterType {
    match s {
        Scalar::Bool => ParameterType::Bool,
        Scalar::Int | Scalar::Uint => ParameterType::Int,
        Scalar::Half | Scalar::Float | Scalar::Double => ParameterType::Float,
    }
}

fn object_type(k: ObjectKind) -> ParameterType {
    match k {
        ObjectKind::Sampler | ObjectKind::SamplerState => ParameterType::Sampler,
        ObjectKind::Sampler1D => ParameterType::Sampler1D,
        ObjectKind::Sampler2D => ParameterType::Sampler2D,
        ObjectKind::Sampler3D => ParameterType::Sampler3D,
        ObjectKind::SamplerCube => ParameterType::SamplerCube,
        ObjectKind::Texture(1) => ParameterType::Texture1D,
        ObjectKind::Texture(2) => ParameterType::Texture2D,
        ObjectKind::Texture(3) => ParameterType::Texture3D,
        ObjectKind::Texture(4) => ParameterType::TextureCube,
        ObjectKind::Texture(_) => ParameterType::Texture,
    }
}

impl Builder<'_> {
    fn build(&mut self) -> R<()> {
        let mut decls = Vec::new();
        let mut shaders = self.program.effect.shaders.iter().peekable();
        for (i, g) in self.program.globals.iter().enumerate() {
            while let Some(s) = shaders.next_if(|s| s.position <= i) {
                decls.push(Decl::Shader(s));
            }
            if let Global::Vars(vars) = g {
                decls.extend(vars.iter().filter(|v| !v.quals.is_static).map(Decl::Var));
            }
        }
        decls.extend(shaders.map(Decl::Shader));
        for d in decls {
            let p = match d {
                Decl::Var(v) => self.parameter(v)?,
                Decl::Shader(s) => self.shader_parameter(s)?,
            };
            self.effect.parameters.push(p);
        }
        for (ti, t) in self.program.effect.techniques.iter().enumerate() {
            let tech = self.technique(ti as u32, t)?;
            self.effect.techniques.push(tech);
        }
        self.effect
            .resources
            .extend(std::mem::take(&mut self.sampler_resources));
        self.effect.object_count = self.next_id;
        self.effect.shader_count = self.next_id.saturating_sub(1);
        Ok(())
    }

    fn id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn type_desc(&self, ty: &Type, loc: &Loc) -> R<TypeDesc> {
        let mut desc = match &ty.kind {
            TypeKind::Scalar(s) => numeric(scalar_type(*s), ParameterClass::Scalar, 1, 1),
            TypeKind::Vector(s, n) => {
                numeric(scalar_type(*s), ParameterClass::Vector, 1, u32::from(*n))
            }
            // fxc describes every matrix parameter of an effect as rows, whatever its packing
            // in the shaders' constant tables, with its values row by row as written.
            TypeKind::Matrix(s, r, c) => numeric(
                scalar_type(*s),
                ParameterClass::MatrixRows,
                u32::from(*r),
                u32::from(*c),
            ),
            TypeKind::Object(k) => object(object_type(*k)),
            TypeKind::String => object(ParameterType::String),
            TypeKind::Struct(i) => {
                let def = self
                    .program
                    .structs
                    .get(*i)
                    .ok_or_else(|| unsupported(loc, "unknown struct"))?;
                let mut members = Vec::new();
                for m in &def.members {
                    let mut t = self.type_desc(&m.ty, &m.loc)?;
                    t.name = Some(Name::new(&m.name));
                    t.semantic = m.semantic.as_deref().map(Name::new);
                    members.push(t);
                }
                TypeDesc {
                    type_raw: ParameterType::Void as u32,
                    class_raw: ParameterClass::Struct as u32,
                    name: None,
                    semantic: None,
                    elements: 0,
                    shape: Shape::Struct(members),
                }
            }
            TypeKind::Void => return Err(unsupported(loc, "a parameter cannot be void")),
        };
        let mut elements: u32 = 1;
        for &d in &ty.array {
            elements = elements
                .checked_mul(d)
                .filter(|&n| n <= 1 << 16)
                .ok_or_else(|| {
                    Diagnostic::error(Code::Limit, loc.clone(), "parameter array too large")
                })?;
        }
        desc.elements = if ty.array.is_empty() { 0 } else { elements };
        Ok(desc)
    }

    fn parameter(&mut self, v: &VarDecl) -> R<Parameter> {
        let mut ty = self.type_desc(&v.ty, &v.loc)?;
        ty.name = Some(Name::new(&v.name));
        ty.semantic = v.semantic.as_deref().map(Name::new);
        let annotations = match self
            .program
            .effect
            .annotations
            .iter()
            .find(|(n, _)| *n == v.name)
        {
            Some((_, a)) => self.annotations(a)?,
            None => Vec::new(),
        };
        let value = match ty.class() {
            Some(ParameterClass::Object) => {
                let n = ty.element_count() as usize;
                match ty.ty() {
                    Some(t) if dxso_fx::types::is_sampler(t) => {
                        let states = self
                            .program
                            .effect
                            .sampler_states
                            .iter()
                            .find(|(n, _)| *n == v.name)
                            .map(|(_, s)| s.as_slice())
                            .unwrap_or(&[]);
                        let index = self.effect.parameters.len() as u32;
                        let mut blocks = Vec::new();
                        for e in 0..n {
                            let element = if ty.elements == 0 { 0 } else { e as u32 };
                            blocks.push(self.sampler_block(index, element, states)?);
                        }
                        Value::Samplers(blocks)
                    }
                    Some(ParameterType::String) => {
                        let mut texts = Vec::new();
                        string_values(v.init.as_ref(), &v.loc, &mut texts)?;
                        if texts.len() > n {
                            return Err(Diagnostic::error(
                                Code::CannotConvert,
                                v.loc.clone(),
                                format!(
                                    "'{}' has {n} element(s) but {} strings",
                                    v.name,
                                    texts.len()
                                ),
                            ));
                        }
                        texts.resize(n, String::new());
                        let mut ids = Vec::new();
                        for text in &texts {
                            let id = self.id();
                            self.push_string(id, text);
                            ids.push(id);
                        }
                        Value::Objects(ids)
                    }
                    _ => {
                        let ids: Vec<u32> = (0..n).map(|_| self.id()).collect();
                        for &id in &ids {
                            self.effect.objects.push(Object {
                                id,
                                data: ObjectData::Bytes(Vec::new()),
                            });
                        }
                        Value::Objects(ids)
                    }
                }
            }
            _ => {
                let words = ty.data_words().ok_or_else(|| {
                    unsupported(&v.loc, "structs with object members are not supported")
                })? as usize;
                let mut value = vec![0u32; words];
                if let Some(init) = &v.init {
                    let kinds = ty.word_types();
                    let mut nums = Vec::new();
                    flatten(init, &mut nums)?;
                    for (i, n) in nums.into_iter().enumerate().take(words) {
                        value[i] = word(kinds.get(i).copied().flatten(), n);
                    }
                }
                Value::Data(value)
            }
        };
        Ok(Parameter {
            ty,
            value,
            flags: u32::from(v.quals.shared) * PARAMETER_SHARED,
            annotations,
        })
    }

    fn push_string(&mut self, id: u32, text: &str) {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        self.effect.objects.push(Object {
            id,
            data: ObjectData::Bytes(bytes),
        });
    }

    fn annotations(&mut self, list: &[AnnotationDecl]) -> R<Vec<Annotation>> {
        let mut out = Vec::new();
        for a in list {
            let mut ty = self.type_desc(&a.ty, &a.loc)?;
            ty.name = Some(Name::new(&a.name));
            let value = match (&a.value, ty.ty()) {
                (AnnotationValue::Str(s), Some(ParameterType::String)) => {
                    let id = self.id();
                    self.push_string(id, s);
                    Value::Objects(vec![id])
                }
                (AnnotationValue::Init(init), _) if ty.data_words().is_some() => {
                    let words = ty.data_words().unwrap_or(0) as usize;
                    let kinds = ty.word_types();
                    let mut nums = Vec::new();
                    flatten(init, &mut nums)?;
                    let mut value = vec![0u32; words];
                    for (i, n) in nums.into_iter().enumerate().take(words) {
                        value[i] = word(kinds.get(i).copied().flatten(), n);
                    }
                    Value::Data(value)
                }
                _ => {
                    return Err(Diagnostic::error(
                        Code::CannotConvert,
                        a.loc.clone(),
                        format!("annotation '{}': the value does not fit its type", a.name),
                    ))
                }
            };
            out.push(Annotation { ty, value });
        }
        Ok(out)
    }

    fn sampler_block(
        &mut self,
        parameter: u32,
        element: u32,
        states: &[StateAssign],
    ) -> R<Vec<State>> {
        let mut out = Vec::new();
        for (si, s) in states.iter().enumerate() {
            let target = Target::Sampler {
                parameter,
                element,
                state: si as u32,
            };
            let (state, resource) = self.state(s, target, true)?;
            out.push(state);
            if let Some(r) = resource {
                self.sampler_resources.push(r);
            }
        }
        Ok(out)
    }

    fn technique(&mut self, ti: u32, t: &TechniqueDecl) -> R<Technique> {
        let annotations = self.annotations(&t.annotations)?;
        let mut passes = Vec::new();
        let mut resources = Vec::new();
        for (pi, p) in t.passes.iter().enumerate() {
            let annotations = self.annotations(&p.annotations)?;
            let mut states = Vec::new();
            for (si, s) in p.states.iter().enumerate() {
                let target = Target::Pass {
                    technique: ti,
                    pass: pi as u32,
                    state: si as u32,
                    element: u32::MAX,
                };
                let (state, resource) = self.state(s, target, false)?;
                states.push(state);
                resources.extend(resource);
            }
            passes.push(Pass {
                // fxc writes an unnamed pass's name as an empty string.
                name: Some(Name::new(p.name.as_deref().unwrap_or(""))),
                annotations,
                states,
            });
        }
        // fxc lists a pass's large objects from its last state to its first.
        self.effect.resources.extend(resources.into_iter().rev());
        Ok(Technique {
            name: t.name.as_deref().map(Name::new),
            annotations,
            passes,
        })
    }

    /// One state assignment: the state and, for a value computed at run time, its large
    /// object.
    fn state(
        &mut self,
        s: &StateAssign,
        target: Target,
        in_sampler: bool,
    ) -> R<(State, Option<Resource>)> {
        let operation = state_by_name(&s.name)
            .filter(|&op| {
                // `Texture` inside a sampler block and in a pass are one operation; sampler
                // states (AddressU..DMAPOffset) are only for sampler blocks.
                let class = state_info(op).map(|i| i.class);
                in_sampler || class != Some(StateClass::Sampler)
            })
            .ok_or_else(|| {
                Diagnostic::error(
                    Code::Undeclared,
                    s.loc.clone(),
                    format!("unknown state '{}'", s.name),
                )
            })?;
        let info = state_info(operation).expect("state_by_name returns table operations");
        let index = if in_sampler && info.class == StateClass::Texture {
            // fxc writes 256 as the index of a sampler block's `Texture`.
            256
        } else {
            s.index.unwrap_or(0)
        };
        let shader_type = match info.class {
            StateClass::VertexShader => Some(ParameterType::VertexShader),
            StateClass::PixelShader => Some(ParameterType::PixelShader),
            _ => None,
        };
        let object_type = shader_type.or(match info.class {
            StateClass::Texture => Some(ParameterType::Texture),
            StateClass::SetSampler => Some(ParameterType::Sampler),
            _ => None,
        });
        match (&s.value, object_type) {
            (StateRhs::Compile(_) | StateRhs::Asm(_), Some(t)) if shader_type.is_some() => {
                let code = match &s.value {
                    StateRhs::Compile(c) => ShaderCode::Compile(c.clone()),
                    StateRhs::Asm(a) => ShaderCode::Asm(a.clone()),
                    StateRhs::Expr(_) | StateRhs::List(..) => unreachable!("matched above"),
                };
                let shader = self.shader_code(&code, t == ParameterType::VertexShader)?;
                let id = self.id();
                let state = State {
                    operation,
                    index,
                    ty: object(t),
                    value: Value::Objects(vec![id]),
                };
                let resource = Resource {
                    target,
                    usage: 0,
                    payload: Payload::Shader(Some(shader)),
                };
                Ok((state, Some(resource)))
            }
            (StateRhs::List(items, _), None) => {
                let mut nums = Vec::new();
                let mut any_float = false;
                for e in items {
                    state_numbers(e, &s.name, &mut nums, &mut any_float)?;
                }
                Ok((
                    self.literal_state(operation, index, info.class, &nums, any_float),
                    None,
                ))
            }
            (StateRhs::List(_, loc), Some(_)) => Err(Diagnostic::error(
                Code::CannotConvert,
                loc.clone(),
                format!("state '{}' takes an object, not a list of numbers", s.name),
            )),
            (
                StateRhs::Compile(CompileExpr { loc, .. }) | StateRhs::Asm(AsmBlock { loc, .. }),
                _,
            ) => Err(Diagnostic::error(
                Code::CannotConvert,
                loc.clone(),
                format!("state '{}' does not take a shader", s.name),
            )),
            (StateRhs::Expr(e), Some(_))
                if shader_type.is_some()
                    && matches!(&e.kind, ExprKind::Ident(n) if n.eq_ignore_ascii_case("null")) =>
            {
                // `NULL`: fxc writes the number 0 (typed as its literal states are), no large
                // object.
                Ok((
                    State {
                        operation,
                        index,
                        ty: numeric(ParameterType::Int, ParameterClass::MatrixRows, 1, 1),
                        value: Value::Data(vec![0]),
                    },
                    None,
                ))
            }
            (StateRhs::Expr(e), Some(t))
                if shader_type.is_some() && reference_name(e).is_none() =>
            {
                let ExprKind::Index(base, element) = &e.kind else {
                    return Err(unsupported(
                        &e.loc,
                        format!("state '{}': a shader, a shader parameter or an element of a shader array", s.name),
                    ));
                };
                let ExprKind::Ident(array) = &base.kind else {
                    return Err(unsupported(
                        &base.loc,
                        "only a shader array can be indexed here",
                    ));
                };
                match self.effect.parameter(array) {
                    Some((_, p)) if p.ty.ty() == Some(t) => {}
                    _ => {
                        return Err(Diagnostic::error(
                            Code::CannotConvert,
                            base.loc.clone(),
                            format!(
                                "'{array}' is not an array of the shaders state '{}' takes",
                                s.name
                            ),
                        ))
                    }
                }
                // fxc's own form for parameters and array elements; any other expression of
                // parameters through the state-expression compiler.
                let program = match selector::index_program(element, &self.effect.parameters) {
                    Ok(p) => p,
                    Err(simple) if self.mentions_parameter(element) => {
                        let binding = |name: &str| self.c_binding(name);
                        match expression::state_expression(
                            element,
                            &self.effect.parameters,
                            &binding,
                        ) {
                            Ok((p, 1)) => p,
                            Ok(_) => {
                                return Err(Diagnostic::error(
                                    Code::CannotConvert,
                                    element.loc.clone(),
                                    "an array index is one number",
                                ))
                            }
                            Err(_) => return Err(simple),
                        }
                    }
                    Err(simple) => return Err(simple),
                };
                let mut name = array.as_bytes().to_vec();
                name.push(0);
                while name.len() % 4 != 0 {
                    name.push(0);
                }
                let id = self.id();
                Ok((
                    State {
                        operation,
                        index,
                        ty: object(t),
                        value: Value::Objects(vec![id]),
                    },
                    Some(Resource {
                        target,
                        usage: 2,
                        payload: Payload::Selector { name, program },
                    }),
                ))
            }
            (StateRhs::Expr(e), Some(t)) => {
                let name = reference_name(e).ok_or_else(|| {
                    unsupported(
                        &e.loc,
                        format!(
                            "state '{}': only a parameter (or an element of one by a literal \
                             index) is supported as its value",
                            s.name
                        ),
                    )
                })?;
                let base = name.split('[').next().unwrap_or("");
                if self.effect.parameter(base).is_none() {
                    return Err(Diagnostic::error(
                        Code::Undeclared,
                        e.loc.clone(),
                        format!("undeclared identifier '{base}'"),
                    ));
                }
                let id = self.id();
                let ty = object(t);
                let value = if t == ParameterType::Sampler {
                    Value::Samplers(vec![Vec::new()])
                } else {
                    Value::Objects(vec![id])
                };
                let mut bytes = name.into_bytes();
                bytes.push(0);
                Ok((
                    State {
                        operation,
                        index,
                        ty,
                        value,
                    },
                    Some(Resource {
                        target,
                        usage: 1,
                        payload: Payload::Parameter(bytes),
                    }),
                ))
            }
            (StateRhs::Expr(e), None) => {
                let mut nums = Vec::new();
                let mut any_float = false;
                let literal = state_numbers(e, &s.name, &mut nums, &mut any_float);
                match literal {
                    Ok(()) => Ok((
                        self.literal_state(operation, index, info.class, &nums, any_float),
                        None,
                    )),
                    // Names that are no value of the state: an expression of parameters (the
                    // expression compiler names an unknown one).
                    Err(_) if names_anything(e) => {
                        let binding = |name: &str| self.c_binding(name);
                        let (program, n) =
                            expression::state_expression(e, &self.effect.parameters, &binding)?;
                        let (rows, columns) = if n == 16 { (4, 4) } else { (n as u32, 1) };
                        let state = State {
                            operation,
                            index,
                            ty: numeric(
                                ParameterType::Float,
                                ParameterClass::MatrixRows,
                                rows,
                                columns,
                            ),
                            value: Value::Data(vec![0; n]),
                        };
                        let resource = Resource {
                            target,
                            usage: 0,
                            payload: Payload::Expression(program),
                        };
                        Ok((state, Some(resource)))
                    }
                    Err(d) => Err(d),
                }
            }
        }
    }

    /// Whether `e` names an effect parameter anywhere.
    fn mentions_parameter(&self, e: &Expr) -> bool {
        let mut found = false;
        visit_idents(e, &mut |n| found |= self.effect.parameter(n).is_some());
        found
    }

    /// The `c` register a global is bound to with `register(cN)`, if any.
    fn c_binding(&self, name: &str) -> Option<u32> {
        self.program.globals.iter().find_map(|g| match g {
            Global::Vars(vars) => vars.iter().find(|v| v.name == name).and_then(|v| {
                let b = v.binding.as_ref()?;
                std::iter::once(b)
                    .chain(&b.more)
                    .find(|b| b.set == 'c')
                    .map(|b| b.index)
            }),
            _ => None,
        })
    }

    /// A state set to literal numbers, typed as fxc types them.
    fn literal_state(
        &self,
        operation: u32,
        index: u32,
        class: StateClass,
        nums: &[f64],
        any_float: bool,
    ) -> State {
        // Shader constants are floats whatever literals set them.
        let ty = if any_float || class == StateClass::ShaderConstant {
            ParameterType::Float
        } else {
            ParameterType::Int
        };
        let class = if class == StateClass::ShaderConstant {
            ParameterClass::MatrixColumns
        } else {
            ParameterClass::MatrixRows
        };
        let words = nums.iter().map(|&n| word(Some(ty), n)).collect::<Vec<_>>();
        State {
            operation,
            index,
            ty: numeric(ty, class, words.len() as u32, 1),
            value: Value::Data(words),
        }
    }

    fn shader_code(&mut self, code: &ShaderCode, vertex: bool) -> R<EmbeddedShader> {
        match code {
            ShaderCode::Compile(c) => self.compile(c, vertex),
            ShaderCode::Asm(a) => assemble_block(a, vertex),
        }
    }

    fn compile(&mut self, c: &CompileExpr, vertex: bool) -> R<EmbeddedShader> {
        let profile: Profile = c.profile.parse().map_err(|_| {
            Diagnostic::error(
                Code::Unsupported,
                c.loc.clone(),
                format!("unknown profile '{}'", c.profile),
            )
        })?;
        if profile.is_vertex() != vertex {
            return Err(Diagnostic::error(
                Code::CannotConvert,
                c.loc.clone(),
                format!(
                    "a {} shader state cannot take a {} profile",
                    if vertex { "vertex" } else { "pixel" },
                    c.profile
                ),
            ));
        }
        let mut options = self.options.clone();
        options.entry = c.entry.clone();
        options.profile = profile;
        // An error without a place (a missing entry point) is placed at the `compile`.
        let place = |mut d: Diagnostic| {
            if d.loc.file.is_empty() {
                d.loc = c.loc.clone();
            }
            d
        };
        let mut module =
            crate::lower::lower_with_args(self.program, &options, &mut self.warnings, &c.args)
                .map_err(place)?;
        let preshader = if options.preshaders {
            preshader::hoist(&mut module, profile)
        } else {
            None
        };
        let mut shader = crate::codegen::generate(&module, &options).map_err(place)?;
        if let Some(p) = preshader {
            // The preshader's comment follows the constant table, as fxc writes it.
            let mut data = vec![dxso_fx::program::PRES_FOURCC];
            data.extend(p.to_words());
            let at = shader
                .items
                .iter()
                .position(|i| !matches!(i, dxso::Item::Comment(_)))
                .unwrap_or(shader.items.len());
            shader
                .items
                .insert(at, dxso::Item::Comment(dxso::Comment { data }));
        }
        Ok(EmbeddedShader { shader })
    }

    fn shader_parameter(&mut self, s: &ShaderVar) -> R<Parameter> {
        let t = if s.vertex {
            ParameterType::VertexShader
        } else {
            ParameterType::PixelShader
        };
        let mut ty = object(t);
        ty.name = Some(Name::new(&s.name));
        ty.elements = s.elements.unwrap_or(0);
        let mut ids = Vec::new();
        for v in &s.values {
            let id = self.id();
            ids.push(id);
            let data = match v {
                Some(c) => ObjectData::Shader(self.shader_code(c, s.vertex)?),
                None => ObjectData::Bytes(Vec::new()),
            };
            self.effect.objects.push(Object { id, data });
        }
        Ok(Parameter {
            ty,
            value: Value::Objects(ids),
            flags: u32::from(s.shared) * PARAMETER_SHARED,
            annotations: Vec::new(),
        })
    }
}

/// Whether `e` reads any identifier.
fn names_anything(e: &Expr) -> bool {
    let mut any = false;
    visit_idents(e, &mut |_| any = true);
    any
}

/// Calls `f` with every identifier `e` reads.
fn visit_idents(e: &Expr, f: &mut dyn FnMut(&str)) {
    match &e.kind {
        ExprKind::Ident(n) => f(n),
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::Member(a, _) => visit_idents(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Assign(_, a, b) => {
            visit_idents(a, f);
            visit_idents(b, f);
        }
        ExprKind::Ternary(a, b, c) => {
            visit_idents(a, f);
            visit_idents(b, f);
            visit_idents(c, f);
        }
        ExprKind::Call(_, args) | ExprKind::Construct(_, args) => {
            args.iter().for_each(|a| visit_idents(a, f))
        }
        ExprKind::Method(a, _, args) => {
            visit_idents(a, f);
            args.iter().for_each(|a| visit_idents(a, f));
        }
        _ => {}
    }
}

/// `D3DX_PARAMETER_SHARED`: the parameter flag of `shared` parameters.
const PARAMETER_SHARED: u32 = 1;

/// The strings of a string parameter's initialiser (`"a"` or `{"a", "b"}`).
fn string_values(init: Option<&Init>, loc: &Loc, out: &mut Vec<String>) -> R<()> {
    match init {
        None => Ok(()),
        Some(Init::Str(s, _)) => {
            out.push(s.clone());
            Ok(())
        }
        Some(Init::List(items, _)) => items
            .iter()
            .try_for_each(|i| string_values(Some(i), loc, out)),
        Some(_) => Err(Diagnostic::error(
            Code::CannotConvert,
            loc.clone(),
            "a string parameter takes string literals",
        )),
    }
}

/// An `asm { }` block assembled as D3DXAssembleShader does inside an effect: `vs_1_0` is
/// written as `vs_1_1` (Direct3D 9 has no vs_1_0), and the shader must be valid.
fn assemble_block(a: &AsmBlock, vertex: bool) -> R<EmbeddedShader> {
    let place = |line: u32, message: String| {
        let mut loc = a.loc.clone();
        loc.line = a.first_line + line.saturating_sub(1);
        loc.col = 1;
        loc.col_end = 1;
        Diagnostic::error(Code::Syntax, loc, message)
    };
    let mut shader = dxso_text::parse(&a.text).map_err(|d| match d.errors.first() {
        Some(e) => place(e.line, format!("assembly: {}", e.message)),
        None => place(1, "assembly: the block does not assemble".into()),
    })?;
    let v = shader.version;
    if v.kind == ShaderKind::Vertex && v.major == 1 && v.minor == 0 {
        shader.version.minor = 1;
    }
    if (shader.version.kind == ShaderKind::Vertex) != vertex {
        return Err(Diagnostic::error(
            Code::CannotConvert,
            a.loc.clone(),
            format!(
                "a {} shader state cannot take a {} assembly block",
                if vertex { "vertex" } else { "pixel" },
                shader.version
            ),
        ));
    }
    let report = dxso::validate(&shader);
    if let Some(e) = report.errors().next() {
        return Err(Diagnostic::error(
            Code::Syntax,
            a.loc.clone(),
            format!("assembly block: {e}"),
        ));
    }
    Ok(EmbeddedShader { shader })
}

/// `name`, `(name)` or `name[literal]`: the text of a parameter reference.
fn reference_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Index(base, idx) => match (&base.kind, &idx.kind) {
            (ExprKind::Ident(n), ExprKind::Int(i)) => Some(format!("{n}[{i}]")),
            _ => None,
        },
        _ => None,
    }
}

/// The numbers of a literal state value: numbers, value names, lists, `|` of value names.
fn state_numbers(e: &Expr, state: &str, out: &mut Vec<f64>, float: &mut bool) -> R<()> {
    match &e.kind {
        ExprKind::Int(i) => out.push(*i as f64),
        ExprKind::Float(f) => {
            *float = true;
            out.push(*f);
        }
        ExprKind::Bool(b) => out.push(f64::from(u8::from(*b))),
        ExprKind::Ident(n) => match dxso_fx::state_values::value_by_name(state, n) {
            Some(v) => out.push(f64::from(v)),
            None => {
                return Err(Diagnostic::error(
                    Code::Undeclared,
                    e.loc.clone(),
                    format!("'{n}' is not a value of state '{state}'"),
                ))
            }
        },
        ExprKind::Unary(UnOp::Neg, inner) => {
            let start = out.len();
            state_numbers(inner, state, out, float)?;
            out[start..].iter_mut().for_each(|v| *v = -*v);
        }
        ExprKind::Binary(BinOp::BitOr, a, b) => {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            state_numbers(a, state, &mut x, float)?;
            state_numbers(b, state, &mut y, float)?;
            match (x.as_slice(), y.as_slice()) {
                ([x], [y]) => out.push(((*x as i64) | (*y as i64)) as f64),
                _ => return Err(unsupported(&e.loc, "'|' takes two numbers")),
            }
        }
        ExprKind::Construct(_, args) => {
            for a in args {
                state_numbers(a, state, out, float)?;
            }
        }
        _ => {
            return Err(unsupported(
                &e.loc,
                format!(
                    "state '{state}': the value is neither numbers nor an expression of parameters"
                ),
            ))
        }
    }
    Ok(())
}

/// Flattens a literal initialiser into numbers.
fn flatten(init: &Init, out: &mut Vec<f64>) -> R<()> {
    match init {
        Init::Expr(e) => literal(e, out),
        Init::List(items, _) => items.iter().try_for_each(|i| flatten(i, out)),
        Init::SamplerState => Ok(()),
        Init::Str(_, loc) => Err(Diagnostic::error(
            Code::CannotConvert,
            loc.clone(),
            "a numeric parameter cannot take a string",
        )),
    }
}

fn literal(e: &Expr, out: &mut Vec<f64>) -> R<()> {
    match &e.kind {
        ExprKind::Int(i) => out.push(*i as f64),
        ExprKind::Float(f) => out.push(*f),
        ExprKind::Bool(b) => out.push(f64::from(u8::from(*b))),
        ExprKind::Unary(UnOp::Neg, inner) => {
            let start = out.len();
            literal(inner, out)?;
            out[start..].iter_mut().for_each(|v| *v = -*v);
        }
        ExprKind::Unary(UnOp::Plus, inner) => literal(inner, out)?,
        ExprKind::Construct(_, args) => args.iter().try_for_each(|a| literal(a, out))?,
        _ => {
            return Err(unsupported(
                &e.loc,
                "a parameter's default value must be literal numbers",
            ))
        }
    }
    Ok(())
}

/// A number as a data word of type `ty`.
fn word(ty: Option<ParameterType>, n: f64) -> u32 {
    match ty {
        Some(ParameterType::Float) => (n as f32).to_bits(),
        Some(ParameterType::Bool) => u32::from(n != 0.0),
        _ => n as i64 as i32 as u32,
    }
}
