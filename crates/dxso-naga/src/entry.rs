//! The entry point: which inputs and outputs a shader has, where they are bound, and the
//! prologue and epilogue that move them between the stage interface and the registers.

use crate::body::{Body, Reg};
use crate::layout;
use crate::reflect::{Slot, Stage, Varying};
use crate::{Error, Plan};
use dxso::{DeclUsage, Register, RegisterType, ShaderKind};
use naga::{
    AddressSpace, BinaryOperator as B, Binding, BuiltIn, Expression, FunctionArgument,
    FunctionResult, GlobalVariable, Handle, Interpolation, Sampling, Scalar, Span, Statement,
    StorageAccess, StructMember, Type, TypeInner, VectorSize,
};

type H = Handle<Expression>;

/// One stage input and the register components it fills.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Input {
    pub(crate) varying: Varying,
    pub(crate) target: Reg,
    pub(crate) mask: u8,
    pub(crate) centroid: bool,
}

/// One stage output and the register it comes from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Output {
    pub(crate) varying: Varying,
    pub(crate) source: Option<Reg>,
}

fn varying(register: Register, usage: DeclUsage, usage_index: u8, slot: Slot) -> Varying {
    Varying {
        register,
        usage,
        usage_index,
        slot,
    }
}

fn location(usage: DeclUsage, index: u8) -> Slot {
    Slot::Location(layout::varying_location(usage, index))
}

/// The inputs of the shader, sorted by slot.
pub(crate) fn inputs(plan: &Plan) -> Result<Vec<Input>, Error> {
    let s = &plan.info;
    let v = plan.version;
    let mut out = Vec::new();
    let full = |varying, target| Input {
        varying,
        target,
        mask: 0xF,
        centroid: false,
    };
    match v.kind {
        ShaderKind::Vertex => {
            let mut regs: std::collections::BTreeSet<u32> = s
                .inputs
                .keys()
                .filter(|k| k.0 == RegisterType::Input)
                .map(|k| k.1)
                .collect();
            regs.extend(
                s.read
                    .iter()
                    .filter(|k| k.0 == RegisterType::Input)
                    .map(|k| k.1),
            );
            for n in regs {
                if n >= 16 {
                    return Err(Error::Register {
                        register: format!("v{n}"),
                    });
                }
                let (usage, index) = s
                    .inputs
                    .get(&(RegisterType::Input, n))
                    .and_then(|d| d.first())
                    .map_or((DeclUsage::TexCoord, n as u8), |d| (d.usage, d.index));
                let r = Register::new(RegisterType::Input, n as u16);
                out.push(full(
                    varying(r, usage, index, Slot::Location(n)),
                    Reg::File(RegisterType::Input, n),
                ));
            }
        }
        ShaderKind::Pixel if v.major >= 3 => {
            for (&(ty, n), decls) in &s.inputs {
                if ty != RegisterType::Input {
                    continue;
                }
                for d in decls {
                    let r = Register::new(ty, n as u16);
                    out.push(Input {
                        varying: varying(r, d.usage, d.index, location(d.usage, d.index)),
                        target: Reg::File(ty, n),
                        mask: if d.mask == 0 { 0xF } else { d.mask },
                        centroid: d.centroid,
                    });
                }
            }
            // Inputs read without a declaration (hand-written shaders) are texture coordinates.
            for &(ty, n) in &s.read {
                if ty == RegisterType::Input && !s.inputs.contains_key(&(ty, n)) {
                    let r = Register::new(ty, n as u16);
                    let usage = DeclUsage::TexCoord;
                    out.push(full(
                        varying(r, usage, n as u8, location(usage, n as u8)),
                        Reg::File(ty, n),
                    ));
                }
            }
            for n in 0..2 {
                if s.read.contains(&(RegisterType::MiscType, n)) {
                    let r = Register::new(RegisterType::MiscType, n as u16);
                    let (usage, slot) = if n == 0 {
                        (DeclUsage::Position, Slot::Position)
                    } else {
                        (DeclUsage::Sample, Slot::FrontFacing)
                    };
                    out.push(full(
                        varying(r, usage, 0, slot),
                        Reg::File(RegisterType::MiscType, n),
                    ));
                }
            }
        }
        ShaderKind::Pixel => {
            let ps13 = v.major < 2 && v.minor < 4;
            let mut colors = std::collections::BTreeSet::new();
            let mut coords = std::collections::BTreeSet::new();
            for &(ty, n) in s.read.iter().chain(s.inputs.keys()) {
                match ty {
                    RegisterType::Input => {
                        colors.insert(n);
                    }
                    RegisterType::Addr if v.major >= 2 || !ps13 => {
                        coords.insert(n);
                    }
                    _ => {}
                }
            }
            coords.extend(s.texcoords.iter().copied());
            if ps13 {
                // ps_1_1-1_3: t# are written by texture instructions; their coordinates are
                // separate inputs, read by those instructions.
                coords = s.texcoords.clone();
            }
            let centroid = |ty, n| {
                s.inputs
                    .get(&(ty, n))
                    .and_then(|d| d.first())
                    .is_some_and(|d| d.centroid)
            };
            for n in colors {
                if n >= 2 {
                    return Err(Error::Register {
                        register: format!("v{n}"),
                    });
                }
                let r = Register::new(RegisterType::Input, n as u16);
                out.push(Input {
                    centroid: centroid(RegisterType::Input, n),
                    ..full(
                        varying(
                            r,
                            DeclUsage::Color,
                            n as u8,
                            location(DeclUsage::Color, n as u8),
                        ),
                        Reg::File(RegisterType::Input, n),
                    )
                });
            }
            for n in coords {
                if n >= 8 {
                    return Err(Error::Register {
                        register: format!("t{n}"),
                    });
                }
                let r = Register::new(RegisterType::Addr, n as u16);
                out.push(Input {
                    centroid: centroid(RegisterType::Addr, n),
                    ..full(
                        varying(
                            r,
                            DeclUsage::TexCoord,
                            n as u8,
                            location(DeclUsage::TexCoord, n as u8),
                        ),
                        Reg::TexCoord(n),
                    )
                });
            }
        }
    }
    out.sort_by_key(|i| slot_order(i.varying.slot));
    distinct_slots(v, out.iter().map(|i| &i.varying))?;
    Ok(out)
}

/// Refuses two varyings at one slot (the same usage and index declared twice, or an unknown
/// usage read as a texture coordinate another register has), which naga would reject.
fn distinct_slots<'a>(
    version: dxso::Version,
    sorted: impl Iterator<Item = &'a Varying>,
) -> Result<(), Error> {
    let mut prev: Option<&Varying> = None;
    for v in sorted {
        if let Some(p) = prev.filter(|p| p.slot == v.slot) {
            return Err(Error::SharedSlot {
                first: p.register.name(version),
                second: v.register.name(version),
            });
        }
        prev = Some(v);
    }
    Ok(())
}

fn slot_order(slot: Slot) -> (u8, u32) {
    match slot {
        Slot::Position => (0, 0),
        Slot::Location(l) => (1, l),
        Slot::FrontFacing => (2, 0),
        Slot::FragDepth => (3, 0),
    }
}

/// The outputs: position first, then locations, then depth.
pub(crate) fn outputs(plan: &Plan) -> Result<Vec<Output>, Error> {
    let s = &plan.info;
    let v = plan.version;
    let mut out = Vec::new();
    let written = |ty, n| s.written.contains(&(ty, n));
    match v.kind {
        ShaderKind::Vertex => {
            let mut position = None;
            if v.major >= 3 {
                for (&n, decls) in &s.outputs {
                    let r = Register::new(RegisterType::Output, n as u16);
                    for d in decls {
                        let src = Some(Reg::File(RegisterType::Output, n));
                        if d.usage == DeclUsage::Position && d.index == 0 {
                            position = Some(Output {
                                varying: varying(r, d.usage, 0, Slot::Position),
                                source: src,
                            });
                            continue;
                        }
                        out.push(Output {
                            varying: varying(r, d.usage, d.index, location(d.usage, d.index)),
                            source: src,
                        });
                    }
                }
            } else {
                let rast = |n: u32| Register::new(RegisterType::RastOut, n as u16);
                if written(RegisterType::RastOut, 0) {
                    position = Some(Output {
                        varying: varying(rast(0), DeclUsage::Position, 0, Slot::Position),
                        source: Some(Reg::File(RegisterType::RastOut, 0)),
                    });
                }
                for (n, usage) in [(1, DeclUsage::Fog), (2, DeclUsage::PSize)] {
                    if written(RegisterType::RastOut, n) {
                        out.push(Output {
                            varying: varying(rast(n), usage, 0, location(usage, 0)),
                            source: Some(Reg::File(RegisterType::RastOut, n)),
                        });
                    }
                }
                for &(ty, n) in &s.written {
                    let usage = match ty {
                        RegisterType::AttrOut => DeclUsage::Color,
                        RegisterType::Output => DeclUsage::TexCoord,
                        _ => continue,
                    };
                    if n > 15 {
                        return Err(Error::Register {
                            register: format!("{}{n}", ty.prefix(v)),
                        });
                    }
                    out.push(Output {
                        varying: varying(
                            Register::new(ty, n as u16),
                            usage,
                            n as u8,
                            location(usage, n as u8),
                        ),
                        source: Some(Reg::File(ty, n)),
                    });
                }
            }
            out.insert(
                0,
                position.unwrap_or(Output {
                    varying: varying(
                        Register::new(RegisterType::RastOut, 0),
                        DeclUsage::Position,
                        0,
                        Slot::Position,
                    ),
                    source: None,
                }),
            );
        }
        ShaderKind::Pixel => {
            if v.major < 2 {
                out.push(Output {
                    varying: varying(
                        Register::new(RegisterType::Temp, 0),
                        DeclUsage::Color,
                        0,
                        Slot::Location(0),
                    ),
                    source: Some(Reg::File(RegisterType::Temp, 0)),
                });
            } else {
                for n in 0..4 {
                    if written(RegisterType::ColorOut, n) {
                        out.push(Output {
                            varying: varying(
                                Register::new(RegisterType::ColorOut, n as u16),
                                DeclUsage::Color,
                                n as u8,
                                Slot::Location(n),
                            ),
                            source: Some(Reg::File(RegisterType::ColorOut, n)),
                        });
                    }
                }
            }
            if s.writes_depth {
                out.push(Output {
                    varying: varying(
                        Register::new(RegisterType::DepthOut, 0),
                        DeclUsage::Depth,
                        0,
                        Slot::FragDepth,
                    ),
                    source: Some(Reg::File(RegisterType::DepthOut, 0)),
                });
            }
            if let Some(l) = plan.options.pixel_status_location {
                // (1, depth, 0, 0) for a runner: which pixels survived, their depth unclamped.
                out.push(Output {
                    varying: varying(
                        Register::new(RegisterType::DepthOut, 0),
                        DeclUsage::Sample,
                        0,
                        Slot::Location(l),
                    ),
                    source: Some(Reg::Killed),
                });
            }
        }
    }
    out[usize::from(v.is_vertex())..].sort_by_key(|o| slot_order(o.varying.slot));
    distinct_slots(v, out.iter().map(|o| &o.varying))?;
    Ok(out)
}

/// How the entry point receives its inputs and hands back its outputs.
pub(crate) struct Interface {
    pub(crate) inputs: Vec<Input>,
    pub(crate) outputs: Vec<Output>,
    /// The compute invocation index, or the pixel index in the input buffer.
    buffer_index: Option<H>,
    output_buffer: Option<Handle<GlobalVariable>>,
    result_ty: Option<Handle<Type>>,
}

impl Body<'_> {
    /// Declares the entry point's arguments and moves the inputs into the registers.
    pub(crate) fn prologue(
        &mut self,
        inputs: Vec<Input>,
        outputs: Vec<Output>,
    ) -> Result<Interface, Error> {
        let stage = self.plan.stage;
        let v4f = self.m.vec4f();
        let mut interface = Interface {
            inputs,
            outputs,
            buffer_index: None,
            output_buffer: None,
            result_ty: None,
        };
        let from_buffer = stage == Stage::Compute
            || (stage == Stage::Fragment && self.plan.options.pixel_inputs_from_buffer);
        let mut input_values: Vec<H> = Vec::new();
        if from_buffer {
            let u32t = self.m.scalar(Scalar::U32);
            let arr = self.m.array(v4f, None, 16);
            let inputs_g = self.storage_buffer(
                "inputs",
                arr,
                layout::INPUT_BUFFER_BINDING,
                StorageAccess::LOAD,
            );
            let (index, stride) = if stage == Stage::Compute {
                let uvec3 = self.m.vec(VectorSize::Tri, Scalar::U32);
                let gid = self.argument(
                    "global_id",
                    uvec3,
                    Binding::BuiltIn(BuiltIn::GlobalInvocationId),
                );
                let i = self.index(gid, 0);
                let outs = self.storage_buffer(
                    "outputs",
                    arr,
                    layout::OUTPUT_BUFFER_BINDING,
                    StorageAccess::LOAD | StorageAccess::STORE,
                );
                interface.output_buffer = Some(outs);
                // Invocations past the end of the output buffer do nothing.
                let s = self.func.u32(interface.outputs.len() as u32);
                let first = self.bin(B::Multiply, i, s);
                let p = self.func.pre(Expression::GlobalVariable(outs));
                let len = self.e(Expression::ArrayLength(p));
                let past = self.bin(B::GreaterEqual, first, len);
                self.if_then(past, |b| {
                    b.func.stmt(Statement::Return { value: None });
                    Ok(())
                })?;
                (i, layout::COMPUTE_INPUT_STRIDE)
            } else {
                let fc = self.frag_coord();
                let xy = self.swizzle(fc, VectorSize::Bi, [0, 1, 2, 3]);
                let uxy = self.e(Expression::As {
                    expr: xy,
                    kind: naga::ScalarKind::Uint,
                    convert: Some(4),
                });
                let x = self.index(uxy, 0);
                let y = self.index(uxy, 1);
                let w = self.func.u32(layout::PIXEL_BUFFER_WIDTH);
                let yw = self.bin(B::Multiply, y, w);
                let i = self.bin(B::Add, yw, x);
                let k = interface.inputs.len();
                (i, k as u32)
            };
            let _ = u32t;
            interface.buffer_index = Some(index);
            let stride_e = self.func.u32(stride);
            let base = self.bin(B::Multiply, index, stride_e);
            let arr_p = self.func.pre(Expression::GlobalVariable(inputs_g));
            let mut k = 0u32;
            for input in &interface.inputs {
                // vPos and vFace come from the buffer too: the runner gives them per pixel.
                let value = match input.varying.slot {
                    Slot::Location(_) | Slot::Position | Slot::FrontFacing => {
                        let off = match input.varying.slot {
                            Slot::Location(l) if stage == Stage::Compute => l,
                            _ => k,
                        };
                        k += 1;
                        let o = self.func.u32(off);
                        let at = self.bin(B::Add, base, o);
                        let p = self.e(Expression::Access {
                            base: arr_p,
                            index: at,
                        });
                        self.load(p)
                    }
                    Slot::FragDepth => unreachable!("depth is an output"),
                };
                input_values.push(value);
            }
        } else {
            for input in interface.inputs.clone() {
                let value = match input.varying.slot {
                    Slot::Location(l) => {
                        let fragment = stage == Stage::Fragment;
                        let binding = Binding::Location {
                            location: l,
                            interpolation: fragment.then_some(Interpolation::Perspective),
                            sampling: fragment.then_some(if input.centroid {
                                Sampling::Centroid
                            } else {
                                Sampling::Center
                            }),
                            blend_src: None,
                            per_primitive: false,
                        };
                        let name = input.varying.register.name(self.plan.version);
                        let name = format!(
                            "{}_{}{}",
                            name,
                            input.varying.usage.name(),
                            input.varying.usage_index
                        );
                        self.argument(&name, v4f, binding)
                    }
                    Slot::Position => self.vpos(),
                    Slot::FrontFacing => self.vface(),
                    Slot::FragDepth => unreachable!("depth is an output"),
                };
                input_values.push(value);
            }
        }
        self.fill_registers(&interface.inputs, &input_values)?;
        if self.plan.info.discards {
            let p = self.reg_ptr(Reg::Killed);
            let f = self.func.bool(false);
            self.store(p, f);
        }
        if stage != Stage::Compute {
            interface.result_ty = self.result_type(&interface.outputs);
        }
        Ok(interface)
    }

    fn argument(&mut self, name: &str, ty: Handle<Type>, binding: Binding) -> H {
        let index = self.func.f.arguments.len() as u32;
        self.func.f.arguments.push(FunctionArgument {
            name: Some(name.into()),
            ty,
            binding: Some(binding),
        });
        self.func.pre(Expression::FunctionArgument(index))
    }

    fn storage_buffer(
        &mut self,
        name: &str,
        ty: Handle<Type>,
        binding: u32,
        access: StorageAccess,
    ) -> Handle<GlobalVariable> {
        self.m.module.global_variables.append(
            GlobalVariable {
                name: Some(name.into()),
                space: AddressSpace::Storage { access },
                binding: Some(naga::ResourceBinding {
                    group: self.m.group,
                    binding,
                }),
                ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        )
    }

    fn frag_coord(&mut self) -> H {
        if let Some(&h) = self.fixed.get(&Reg::File(RegisterType::MiscType, 100)) {
            return h;
        }
        let v4f = self.m.vec4f();
        let h = self.argument(
            "frag_coord",
            v4f,
            Binding::BuiltIn(BuiltIn::Position { invariant: false }),
        );
        self.fixed.insert(Reg::File(RegisterType::MiscType, 100), h);
        h
    }

    /// `vPos`: the pixel's integer position (`frag_coord.xy - 0.5`), z and w zero.
    fn vpos(&mut self) -> H {
        let fc = self.frag_coord();
        let xy = self.swizzle(fc, VectorSize::Bi, [0, 1, 2, 3]);
        let half = self.fconst_w(0.5, Some(VectorSize::Bi));
        let p = self.bin(B::Subtract, xy, half);
        let zero = self.func.f32(0.0);
        self.compose4(vec![p, zero, zero])
    }

    /// `vFace`: +1 front-facing, -1 back-facing, in all four components.
    fn vface(&mut self) -> H {
        let bool_t = self.m.scalar(Scalar::BOOL);
        let ff = self.argument(
            "front_facing",
            bool_t,
            Binding::BuiltIn(BuiltIn::FrontFacing),
        );
        let one = self.func.f32(1.0);
        let minus = self.func.f32(-1.0);
        let f = self.select(ff, one, minus);
        self.splat(f)
    }

    /// Moves input values into the registers they fill (several when packed).
    fn fill_registers(&mut self, inputs: &[Input], values: &[H]) -> Result<(), Error> {
        let mut per_reg: Vec<(Reg, H)> = Vec::new();
        for (input, &value) in inputs.iter().zip(values) {
            match per_reg.iter_mut().find(|(r, _)| *r == input.target) {
                Some((_, acc)) => {
                    let c = self.m.mask(input.mask);
                    let m = self.constant(c);
                    *acc = self.select(m, value, *acc);
                }
                None => per_reg.push((input.target, value)),
            }
        }
        let relative_inputs = self.plan.info.relative.contains(&RegisterType::Input);
        for (reg, value) in per_reg {
            self.pin(reg, value);
            let needs_memory = self.regs.private
                || (relative_inputs && matches!(reg, Reg::File(RegisterType::Input, _)));
            if needs_memory {
                let p = self.reg_ptr(reg);
                self.store(p, value);
            }
        }
        Ok(())
    }

    fn result_type(&mut self, outputs: &[Output]) -> Option<Handle<Type>> {
        if outputs.is_empty() {
            return None;
        }
        let v4f = self.m.vec4f();
        let f32t = self.m.scalar(Scalar::F32);
        let vertex = self.plan.stage == Stage::Vertex;
        let mut offset = 0;
        let members = outputs
            .iter()
            .map(|o| {
                let (ty, size, binding) = match o.varying.slot {
                    Slot::Position => (
                        v4f,
                        16,
                        Binding::BuiltIn(BuiltIn::Position { invariant: false }),
                    ),
                    Slot::FragDepth => (f32t, 4, Binding::BuiltIn(BuiltIn::FragDepth)),
                    Slot::Location(location) => (
                        v4f,
                        16,
                        Binding::Location {
                            location,
                            interpolation: vertex.then_some(Interpolation::Perspective),
                            sampling: vertex.then_some(Sampling::Center),
                            blend_src: None,
                            per_primitive: false,
                        },
                    ),
                    Slot::FrontFacing => unreachable!("front facing is an input"),
                };
                let m = StructMember {
                    name: Some(format!(
                        "{}_{}{}",
                        o.varying.register.name(self.plan.version),
                        o.varying.usage.name(),
                        o.varying.usage_index
                    )),
                    ty,
                    binding: Some(binding),
                    offset,
                };
                offset += size;
                m
            })
            .collect();
        let name = if vertex {
            "VertexOutput"
        } else {
            "FragmentOutput"
        };
        Some(self.m.module.types.insert(
            Type {
                name: Some(name.into()),
                inner: TypeInner::Struct {
                    members,
                    span: offset.div_ceil(16) * 16,
                },
            },
            Span::UNDEFINED,
        ))
    }

    /// Reads the outputs, discards a killed pixel, and returns (main's `ret` and its end).
    pub(crate) fn epilogue(&mut self, interface: &Interface) -> Result<(), Error> {
        let mut values = Vec::with_capacity(interface.outputs.len());
        for o in &interface.outputs {
            let v = match o.source {
                None => self.vconst([0.0; 4]),
                Some(Reg::File(RegisterType::DepthOut, _)) => {
                    let p = self.reg_ptr(Reg::File(RegisterType::DepthOut, 0));
                    self.load(p)
                }
                Some(Reg::Killed) => {
                    let depth = if self.plan.info.writes_depth {
                        let p = self.reg_ptr(Reg::File(RegisterType::DepthOut, 0));
                        self.load(p)
                    } else {
                        self.func.f32(0.0)
                    };
                    let one = self.func.f32(1.0);
                    let zero = self.func.f32(0.0);
                    let alive = if self.plan.info.discards {
                        let p = self.reg_ptr(Reg::Killed);
                        let k = self.load(p);
                        self.select(k, zero, one)
                    } else {
                        one
                    };
                    self.compose4(vec![alive, depth, zero, zero])
                }
                Some(r) => self.read_output(r)?,
            };
            let v = if o.varying.slot == Slot::Position {
                self.clip_space(v)
            } else {
                v
            };
            values.push(v);
        }
        // With a status output the runner learns of the discard from it, and every output is
        // still written (the executor reports a discarded pixel's outputs too).
        let status = self.plan.options.pixel_status_location.is_some();
        if self.plan.info.discards && self.plan.stage == Stage::Fragment && !status {
            self.discard_if_killed();
        }
        if let Some(outs) = interface.output_buffer {
            let index = interface.buffer_index.expect("compute has an index");
            let s = self.func.u32(interface.outputs.len() as u32);
            let base = self.bin(B::Multiply, index, s);
            let arr = self.func.pre(Expression::GlobalVariable(outs));
            for (k, v) in values.into_iter().enumerate() {
                let o = self.func.u32(k as u32);
                let at = self.bin(B::Add, base, o);
                let p = self.e(Expression::Access {
                    base: arr,
                    index: at,
                });
                self.store(p, v);
            }
            self.func.stmt(Statement::Return { value: None });
            return Ok(());
        }
        let value = interface.result_ty.map(|ty| {
            self.e(Expression::Compose {
                ty,
                components: values,
            })
        });
        self.func.stmt(Statement::Return { value });
        Ok(())
    }

    /// An output register's final value: in hand, or from memory (its array element when
    /// the file is indexed; relative writes forget what was in hand).
    fn read_output(&mut self, r: Reg) -> Result<H, Error> {
        self.read_reg(r)
    }

    /// Applies [`crate::ClipSpace`] to the position.
    fn clip_space(&mut self, pos: H) -> H {
        let clip = self.plan.options.clip;
        if self.plan.stage == Stage::Compute {
            return pos;
        }
        let mut pos = pos;
        if clip.half_pixel_offset {
            let vp = self.member(5);
            let vp = self.load(vp);
            let w = self.index(pos, 3);
            let x = self.index(pos, 0);
            let y = self.index(pos, 1);
            let ix = self.index(vp, 0);
            let iy = self.index(vp, 1);
            let dx = self.bin(B::Multiply, w, ix);
            let dy = self.bin(B::Multiply, w, iy);
            let x = self.bin(B::Subtract, x, dx);
            let y = self.bin(B::Add, y, dy);
            let z = self.index(pos, 2);
            pos = self.compose4(vec![x, y, z, w]);
        }
        if clip.flip_y || clip.depth == crate::DepthRange::MinusOneToOne {
            let x = self.index(pos, 0);
            let mut y = self.index(pos, 1);
            let mut z = self.index(pos, 2);
            let w = self.index(pos, 3);
            if clip.flip_y {
                y = self.e(Expression::Unary {
                    op: naga::UnaryOperator::Negate,
                    expr: y,
                });
            }
            if clip.depth == crate::DepthRange::MinusOneToOne {
                let two = self.func.f32(2.0);
                let z2 = self.bin(B::Multiply, z, two);
                z = self.bin(B::Subtract, z2, w);
            }
            pos = self.compose4(vec![x, y, z, w]);
        }
        pos
    }

    /// Sets the result of the entry function.
    pub(crate) fn set_result(&mut self, interface: &Interface) {
        self.func.f.result = interface
            .result_ty
            .map(|ty| FunctionResult { ty, binding: None });
    }
}
