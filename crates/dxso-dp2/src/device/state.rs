//! Render states, stream bindings, shader constants and the set/delete handle ops.

use super::error::{ExecError, ExecErrorKind};
use super::{Ctx, Device};
use crate::command::Op;
use crate::domain::EdgeStyle;

/// Render state numbers (`D3DRENDERSTATETYPE`) the device interprets.
pub mod rs {
    /// `D3DRS_PATCHEDGESTYLE`: 0 discrete, 1 continuous.
    pub const PATCHEDGESTYLE: u32 = 163;
    /// `D3DRS_PATCHSEGMENTS`: float bits, default 1.0.
    pub const PATCHSEGMENTS: u32 = 164;
    /// `D3DRS_DELETERTPATCH`: the handle to free.
    pub const DELETERTPATCH: u32 = 169;
    /// `D3DRS_POSITIONDEGREE`: N-patch position degree (default cubic).
    pub const POSITIONDEGREE: u32 = 172;
    /// `D3DRS_NORMALDEGREE`: N-patch normal degree (default linear).
    pub const NORMALDEGREE: u32 = 173;
}

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
            }
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
