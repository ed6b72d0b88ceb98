//! Stream bindings, shader constants, texture bindings and sampler states, and the set/delete
//! handle ops (the render-state table is [`super::rs`], the texture-stage table [`super::tss`]).

use super::error::{ExecError, ExecErrorKind};
use super::{rs, tss, Ctx, Device};
use crate::command::{Op, StageState};
use crate::domain::EdgeStyle;
use crate::texture::Texture;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stream {
    Buffer {
        handle: u32,
        offset: u32,
        stride: u32,
    },
    UserMemory {
        stride: u32,
    },
}

/// Shader constant registers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConstantFile {
    /// Float registers.
    pub float: Vec<[f32; 4]>,
    /// Integer registers.
    pub int: Vec<[i32; 4]>,
    /// Boolean registers.
    pub bool: Vec<u32>,
}

impl Device {
    /// Applies TEXTURESTAGESTATE records: TEXTUREMAP binds (or, with 0, unbinds) the texture
    /// buffer of that handle, read when it is bound; ADDRESS sets ADDRESSU and ADDRESSV.
    pub(super) fn stage_states(
        &mut self,
        ctx: &mut Ctx,
        records: &[StageState],
    ) -> Result<(), ExecError> {
        for (i, r) in records.iter().enumerate() {
            ctx.record = i;
            let (stage, state) = (r.stage as u32, r.state as u32);
            if !tss::is_stage(stage) {
                return Err(ctx.err(ExecErrorKind::NoSuchStage(stage)));
            }
            match state {
                tss::TEXTUREMAP if r.value == 0 => {
                    self.textures.remove(&stage);
                }
                tss::TEXTUREMAP => {
                    let bytes = self
                        .buffers
                        .get(&r.value)
                        .ok_or_else(|| ctx.err(ExecErrorKind::NoSuchBuffer(r.value)))?;
                    let texture = Texture::parse(bytes).map_err(|error| {
                        ctx.err(ExecErrorKind::BadTexture {
                            handle: r.value,
                            error,
                        })
                    })?;
                    self.textures.insert(stage, (r.value, Arc::new(texture)));
                }
                tss::ADDRESS => {
                    self.stage_values.insert((stage, tss::ADDRESSU), r.value);
                    self.stage_values.insert((stage, tss::ADDRESSV), r.value);
                }
                _ => {
                    self.stage_values.insert((stage, state), r.value);
                    self.ffp.set_texture_stage_state(stage, state, r.value);
                }
            }
        }
        Ok(())
    }

    pub(super) fn constants_for(&mut self, op: Op) -> &mut ConstantFile {
        match op {
            Op::SetPixelShaderConst | Op::SetPixelShaderConstI | Op::SetPixelShaderConstB => {
                &mut self.ps_constants
            }
            _ => &mut self.vs_constants,
        }
    }

    pub(super) fn stream_slot(
        &mut self,
        ctx: &Ctx,
        stream: u32,
    ) -> Result<&mut Option<Stream>, ExecError> {
        self.streams
            .get_mut(stream as usize)
            .ok_or_else(|| ctx.err(ExecErrorKind::NoSuchStream(stream)))
    }

    pub(super) fn handle_op(&mut self, ctx: &Ctx, op: Op, h: u32) -> Result<(), ExecError> {
        match op {
            Op::SetVertexShaderDecl => {
                if h != 0 && !self.decls.contains_key(&h) {
                    return Err(ctx.err(ExecErrorKind::NoSuchDecl(h)));
                }
                self.decl = (h != 0).then_some(h);
                self.fvf = None;
            }
            Op::SetVertexShader => {
                self.fvf = None;
                self.ffp.fvf = h;
                if h != 0 {
                    let fvf =
                        dxso_ffp::Fvf::decode(h).map_err(|e| ctx.err(ExecErrorKind::BadFvf(e)))?;
                    self.fvf = Some((h, fvf_elements(&fvf)));
                    self.decl = None;
                }
            }
            Op::CreateLight => super::light_index(ctx, h)?,
            Op::DeleteVertexShaderDecl => {
                self.decls.remove(&h);
                if self.decl == Some(h) {
                    self.decl = None;
                }
            }
            Op::SetVertexShaderFunc => self.vertex_shader = (h != 0).then_some(h),
            Op::DeleteVertexShaderFunc => {
                self.vertex_shaders.remove(&h);
            }
            Op::SetPixelShader => self.pixel_shader = (h != 0).then_some(h),
            Op::DeletePixelShader => {
                self.pixel_shaders.remove(&h);
            }
            _ => {}
        }
        Ok(())
    }

    pub(super) fn edge_style(&self, ctx: &Ctx) -> Result<EdgeStyle, ExecError> {
        let v = self.render_state(rs::PATCHEDGESTYLE).unwrap_or(0);
        EdgeStyle::from_u32(v).ok_or_else(|| ctx.err(ExecErrorKind::BadEdgeStyle(v)))
    }

    pub(super) fn patch_segments(&self, ctx: &Ctx) -> Result<f32, ExecError> {
        let s = f32::from_bits(self.render_state(rs::PATCHSEGMENTS).unwrap_or(0x3F80_0000));
        if s.is_nan() {
            return Err(ctx.err(ExecErrorKind::NanSegments));
        }
        Ok(s)
    }
}

pub(super) fn store<T: Clone + Default>(
    ctx: &Ctx,
    file: &mut Vec<T>,
    register: u32,
    values: &[T],
    max: u32,
) -> Result<(), ExecError> {
    let end = register as u64 + values.len() as u64;
    if end > max as u64 {
        return Err(ctx.err(ExecErrorKind::ConstantOutOfRange {
            register,
            count: values.len(),
            max,
        }));
    }
    if file.len() < end as usize {
        file.resize(end as usize, T::default());
    }
    file[register as usize..end as usize].clone_from_slice(values);
    Ok(())
}

/// The declaration an FVF code stands for: stream 0, its components in FVF order. A
/// pre-transformed position is also declared as a POSITION (x, y, z) at the same offset, the
/// element the device assembles meshes by.
pub(super) fn fvf_elements(fvf: &dxso_ffp::Fvf) -> Vec<crate::decl::VertexElement> {
    use crate::decl::DeclType;
    use dxso_ffp::fvf::ElementType;
    let mut out = Vec::new();
    if fvf.position == dxso_ffp::fvf::Position::Xyzrhw {
        out.push(crate::decl::VertexElement {
            stream: 0,
            offset: 0,
            ty: DeclType::Float3 as u8,
            method: 0,
            usage: dxso::DeclUsage::Position as u8,
            usage_index: 0,
        });
    }
    out.extend(fvf.elements().iter().map(|e| crate::decl::VertexElement {
        stream: 0,
        offset: e.offset as u16,
        ty: match e.ty {
            ElementType::Float(n) => DeclType::Float1 as u8 + (n - 1),
            ElementType::D3dColor => DeclType::D3dColor as u8,
            ElementType::Ubyte4 => DeclType::Ubyte4 as u8,
        },
        method: 0,
        usage: e.usage as u8,
        usage_index: e.index,
    }));
    out
}
