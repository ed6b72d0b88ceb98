//! Module-level pieces: types, the constant buffer, textures and samplers, shader constants.

use crate::layout;
use dxso::TextureType;
use naga::FastHashMap as HashMap;
use naga::{
    AddressSpace, ArraySize, Constant, Expression, GlobalVariable, Handle, ImageClass,
    ImageDimension, Literal, Module, ResourceBinding, Scalar, Span, StructMember, Type, TypeInner,
    VectorSize,
};
use std::num::NonZeroU32;

/// The scalar and vector types every translation uses, inserted on first use.
#[derive(Default)]
pub(crate) struct Types {
    cache: HashMap<TypeInner, Handle<Type>>,
}

/// The module under construction and its shared pieces.
pub(crate) struct ModuleCtx {
    pub(crate) module: Module,
    types: Types,
    pub(crate) group: u32,
    pub(crate) vertex: bool,
    /// How many leading members of the constant buffer the shader declares (see
    /// [`ModuleCtx::constant_buffer`]).
    constant_members: usize,
    constant_buffer: Option<Handle<GlobalVariable>>,
    /// Textures and sampler states by sampler number.
    pub(crate) images: HashMap<u32, (Handle<GlobalVariable>, Handle<GlobalVariable>, TextureType)>,
    /// `vec4<bool>` constants by write mask, for masked writes.
    masks: HashMap<u8, Handle<Constant>>,
    /// `def` values by register.
    defs: HashMap<u32, Handle<Constant>>,
    /// Float vector constants by size and bits.
    vectors: HashMap<(u8, [u32; 4]), Handle<Constant>>,
}

pub(crate) const F32: Scalar = Scalar::F32;

impl ModuleCtx {
    /// `constant_members`: the constant buffer's members the shader may read are all below it.
    pub(crate) fn new(group: u32, vertex: bool, constant_members: usize) -> Self {
        ModuleCtx {
            module: Module::default(),
            types: Types::default(),
            group,
            vertex,
            constant_members: constant_members.clamp(1, 6),
            constant_buffer: None,
            images: HashMap::default(),
            masks: HashMap::default(),
            defs: HashMap::default(),
            vectors: HashMap::default(),
        }
    }

    pub(crate) fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        if let Some(&h) = self.types.cache.get(&inner) {
            return h;
        }
        let h = self.module.types.insert(
            Type {
                name: None,
                inner: inner.clone(),
            },
            Span::UNDEFINED,
        );
        self.types.cache.insert(inner, h);
        h
    }

    pub(crate) fn scalar(&mut self, scalar: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Scalar(scalar))
    }

    pub(crate) fn vec(&mut self, size: VectorSize, scalar: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Vector { size, scalar })
    }

    pub(crate) fn vec4f(&mut self) -> Handle<Type> {
        self.vec(VectorSize::Quad, F32)
    }

    pub(crate) fn array(
        &mut self,
        base: Handle<Type>,
        len: Option<u32>,
        stride: u32,
    ) -> Handle<Type> {
        let size = match len.and_then(NonZeroU32::new) {
            Some(n) => ArraySize::Constant(n),
            None => ArraySize::Dynamic,
        };
        self.ty(TypeInner::Array { base, size, stride })
    }

    fn binding(&self, binding: u32) -> Option<ResourceBinding> {
        Some(ResourceBinding {
            group: self.group,
            binding,
        })
    }

    /// The constant buffer (see [`crate::layout`]); created on first use. Only the leading
    /// members the shader may read are declared (the offsets are the layout's whatever the
    /// count): every writer and validator then has less to do, and GLSL, whose blocks have no
    /// explicit offsets, keeps the layout because only trailing members are left out.
    pub(crate) fn constant_buffer(&mut self) -> Handle<GlobalVariable> {
        if let Some(h) = self.constant_buffer {
            return h;
        }
        let l = layout::constant_buffer_layout(self.vertex);
        let count = self.constant_members;
        let v4f = self.vec4f();
        let member = |name: &str, ty, offset| StructMember {
            name: Some(name.into()),
            ty,
            binding: None,
            offset,
        };
        let floats = self.array(v4f, Some(l.float_count), 16);
        let mut members = Vec::with_capacity(count);
        members.push(member("c", floats, l.floats));
        if count > 1 {
            let v4i = self.vec(VectorSize::Quad, Scalar::I32);
            let ints = self.array(v4i, Some(layout::INT_CONSTANTS), 16);
            members.push(member("i", ints, l.ints));
        }
        if count > 2 {
            let v4u = self.vec(VectorSize::Quad, Scalar::U32);
            let bools = self.array(v4u, Some(layout::BOOL_CONSTANTS / 4), 16);
            members.push(member("b", bools, l.bools));
        }
        if count > 3 {
            let bump = self.array(v4f, Some(layout::BUMP_STAGES), 16);
            members.push(member("bumpenv", bump, l.bumpenv));
            if count > 4 {
                members.push(member("bumplum", bump, l.bumplum));
            }
        }
        if count > 5 {
            members.push(member("viewport", v4f, l.viewport));
        }
        // The declared struct ends where the first member left out would start.
        let span = [l.ints, l.bools, l.bumpenv, l.bumplum, l.viewport, l.size][count - 1];
        let ty = self.module.types.insert(
            Type {
                name: Some("Constants".into()),
                inner: TypeInner::Struct { members, span },
            },
            Span::UNDEFINED,
        );
        let h = self.module.global_variables.append(
            GlobalVariable {
                name: Some("constants".into()),
                space: AddressSpace::Uniform,
                binding: self.binding(layout::CONSTANT_BUFFER_BINDING),
                ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        );
        self.constant_buffer = Some(h);
        h
    }

    /// The texture and sampler globals of sampler `n`.
    pub(crate) fn image(
        &mut self,
        n: u32,
        texture_type: TextureType,
    ) -> (Handle<GlobalVariable>, Handle<GlobalVariable>) {
        if let Some(&(t, s, _)) = self.images.get(&n) {
            return (t, s);
        }
        let dim = image_dimension(texture_type);
        let image_ty = self.ty(TypeInner::Image {
            dim,
            arrayed: false,
            class: ImageClass::Sampled {
                kind: naga::ScalarKind::Float,
                multi: false,
            },
        });
        let sampler_ty = self.ty(TypeInner::Sampler { comparison: false });
        let t = self.module.global_variables.append(
            GlobalVariable {
                name: Some(format!("texture{n}")),
                space: AddressSpace::Handle,
                binding: self.binding(layout::texture_binding(n)),
                ty: image_ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        );
        let s = self.module.global_variables.append(
            GlobalVariable {
                name: Some(format!("sampler{n}")),
                space: AddressSpace::Handle,
                binding: self.binding(layout::sampler_binding(n)),
                ty: sampler_ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        );
        self.images.insert(n, (t, s, texture_type));
        (t, s)
    }

    /// A module constant of type `ty` holding `components` (f32, i32, u32 or bool literals).
    pub(crate) fn composite_constant(
        &mut self,
        name: Option<String>,
        ty: Handle<Type>,
        components: &[Literal],
    ) -> Handle<Constant> {
        let components = components
            .iter()
            .map(|&l| {
                self.module
                    .global_expressions
                    .append(Expression::Literal(l), Span::UNDEFINED)
            })
            .collect();
        let init = self
            .module
            .global_expressions
            .append(Expression::Compose { ty, components }, Span::UNDEFINED);
        self.module
            .constants
            .append(Constant { name, ty, init }, Span::UNDEFINED)
    }

    /// A `vec4<f32>` constant.
    pub(crate) fn vec4_constant(&mut self, v: [f32; 4]) -> Handle<Constant> {
        if v.iter().all(|x| x.to_bits() == v[0].to_bits()) {
            return self.splat_constant(VectorSize::Quad, v[0]);
        }
        let key = (4u8, v.map(f32::to_bits));
        if let Some(&h) = self.vectors.get(&key) {
            return h;
        }
        let ty = self.vec4f();
        let h = self.composite_constant(None, ty, &v.map(Literal::F32));
        self.vectors.insert(key, h);
        h
    }

    /// A float vector constant with every component `v`.
    pub(crate) fn splat_constant(&mut self, size: VectorSize, v: f32) -> Handle<Constant> {
        let n = size as u8;
        let key = (n, [v.to_bits(); 4]);
        if let Some(&h) = self.vectors.get(&key) {
            return h;
        }
        let ty = self.vec(size, F32);
        // A splat, not a composite of equal literals: the writers print one literal.
        let value = self
            .module
            .global_expressions
            .append(Expression::Literal(Literal::F32(v)), Span::UNDEFINED);
        let init = self
            .module
            .global_expressions
            .append(Expression::Splat { size, value }, Span::UNDEFINED);
        let h = self.module.constants.append(
            Constant {
                name: None,
                ty,
                init,
            },
            Span::UNDEFINED,
        );
        self.vectors.insert(key, h);
        h
    }

    /// A `vec4<i32>` constant (`defi`).
    pub(crate) fn ivec4_constant(&mut self, v: [i32; 4]) -> Handle<Constant> {
        let ty = self.vec(VectorSize::Quad, Scalar::I32);
        self.composite_constant(None, ty, &v.map(Literal::I32))
    }

    /// The `vec4<bool>` constant that is true in the components of `mask`.
    pub(crate) fn mask(&mut self, mask: u8) -> Handle<Constant> {
        if let Some(&h) = self.masks.get(&mask) {
            return h;
        }
        let ty = self.vec(VectorSize::Quad, Scalar::BOOL);
        let lits = [0, 1, 2, 3].map(|i| Literal::Bool(mask & (1 << i) != 0));
        let h = self.composite_constant(None, ty, &lits);
        self.masks.insert(mask, h);
        h
    }

    /// The bits of `def c<n>` as a `vec4<u32>` (for values naga has no literal for).
    pub(crate) fn def_bits(&mut self, n: u32, bits: [u32; 4]) -> Handle<Constant> {
        if let Some(&h) = self.defs.get(&n) {
            return h;
        }
        let ty = self.vec(VectorSize::Quad, Scalar::U32);
        let h = self.composite_constant(Some(format!("c{n}_bits")), ty, &bits.map(Literal::U32));
        self.defs.insert(n, h);
        h
    }

    /// The constant of `def c<n>`.
    pub(crate) fn def(&mut self, n: u32, bits: [u32; 4]) -> Handle<Constant> {
        if let Some(&h) = self.defs.get(&n) {
            return h;
        }
        let ty = self.vec4f();
        let lits = bits.map(|b| Literal::F32(f32::from_bits(b)));
        let h = self.composite_constant(Some(format!("c{n}")), ty, &lits);
        self.defs.insert(n, h);
        h
    }
}

/// The naga image dimension sampled for a D3D9 texture type (1D and untyped samplers are 2D).
pub(crate) fn image_dimension(texture_type: TextureType) -> ImageDimension {
    match texture_type {
        TextureType::Cube => ImageDimension::Cube,
        TextureType::Volume => ImageDimension::D3,
        _ => ImageDimension::D2,
    }
}
