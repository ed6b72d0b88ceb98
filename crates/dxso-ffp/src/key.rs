//! The shader key: everything about a fixed-function state that changes the generated code
//! (values that only change constants are left out), hashable so shaders can be cached by it.

use crate::d3d::{fog, mcs, rs, ta, tci, top, ttff, vbf};
use crate::error::FfpError;
use crate::fvf::{Fvf, Position};
use crate::state::{FfpState, TextureKind, MAX_ACTIVE_LIGHTS, MAX_STAGES};

/// How the vertex fog factor is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexFog {
    /// No fog, or table fog (computed per pixel).
    None,
    /// The specular colour's alpha is the factor (pre-transformed vertices, or no fog mode).
    Specular,
    /// Computed from the camera-space distance: `D3DFOGMODE` and whether it is range fog.
    Computed {
        /// `D3DFOG_EXP`, `EXP2` or `LINEAR`.
        mode: u32,
        /// Distance is the length of the camera-space position, not its z.
        range: bool,
    },
}

/// The coordinates one texture stage reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexCoordKey {
    /// The stage (and the output `TEXCOORD` index).
    pub stage: u8,
    /// The input coordinate set (low word of TEXCOORDINDEX).
    pub set: u8,
    /// `D3DTSS_TCI_*` generation (high word of TEXCOORDINDEX).
    pub generate: u32,
    /// `D3DTTFF_COUNTn` (0: not transformed).
    pub count: u8,
    /// `D3DTTFF_PROJECTED`: divide by the last counted component.
    pub projected: bool,
}

/// What the vertex shader computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VsKey {
    /// The vertex's components.
    pub fvf: Fvf,
    /// World matrices blended (1: no blending).
    pub blend_matrices: u8,
    /// Matrices are picked by the vertex's blend indices.
    pub indexed: bool,
    /// LIGHTING on (and the vertices are not pre-transformed).
    pub lighting: bool,
    /// The enabled lights' types, in index order.
    pub lights: Vec<u32>,
    /// NORMALIZENORMALS.
    pub normalize: bool,
    /// LOCALVIEWER.
    pub local_viewer: bool,
    /// SPECULARENABLE (specular lighting is computed).
    pub specular: bool,
    /// Diffuse, specular, ambient and emissive sources (`D3DMCS_*`), resolved against the FVF.
    pub sources: [u32; 4],
    /// The vertex fog factor.
    pub fog: VertexFog,
    /// The pixel shader computes table fog and needs the depth varying.
    pub table_fog: bool,
    /// Texture coordinates per sampling stage.
    pub tex: Vec<TexCoordKey>,
    /// The vertex shader writes the point size (POINTSCALEENABLE or a PSIZE component).
    pub point_size: bool,
    /// POINTSCALEENABLE.
    pub point_scale: bool,
}

/// One stage of the texture cascade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StageKey {
    /// `D3DTOP` of the colour channels.
    pub color_op: u32,
    /// ARG0, ARG1, ARG2 of the colour channels.
    pub color_args: [u32; 3],
    /// `D3DTOP` of alpha.
    pub alpha_op: u32,
    /// ARG0, ARG1, ARG2 of alpha.
    pub alpha_args: [u32; 3],
    /// RESULTARG is TEMP.
    pub result_temp: bool,
    /// The texture sampled, if one is bound.
    pub texture: Option<TextureKind>,
    /// The coordinates are projected (`texldp`).
    pub projected: bool,
}

/// Which fog the pixel shader blends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PixelFog {
    /// None.
    None,
    /// The interpolated vertex factor (specular alpha).
    Vertex,
    /// Table fog of this `D3DFOGMODE`, from the pixel's depth; `w` when the projection is
    /// perspective (W-fog), else z.
    Table {
        /// `D3DFOG_EXP`, `EXP2` or `LINEAR`.
        mode: u32,
        /// Depth is w.
        w: bool,
    },
}

/// What the pixel shader computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PsKey {
    /// The active stages, in order.
    pub stages: Vec<StageKey>,
    /// SPECULARENABLE: the specular colour is added after the cascade.
    pub specular: bool,
    /// Fog.
    pub fog: PixelFog,
}

/// The whole key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ShaderKey {
    /// The vertex shader's part.
    pub vs: VsKey,
    /// The pixel shader's part.
    pub ps: PsKey,
}

fn bad(state: &str, value: u32) -> FfpError {
    FfpError::BadState {
        state: state.to_string(),
        value,
    }
}

fn check_arg(name: &str, stage: usize, arg: u32) -> Result<(), FfpError> {
    if arg & !(ta::SELECTMASK | ta::COMPLEMENT | ta::ALPHAREPLICATE) != 0
        || arg & ta::SELECTMASK > ta::CONSTANT
    {
        return Err(bad(&format!("stage {stage} {name}"), arg));
    }
    Ok(())
}

impl ShaderKey {
    /// The key of `state`, checking every value the code depends on.
    pub fn from_state(state: &FfpState) -> Result<ShaderKey, FfpError> {
        let fvf = Fvf::decode(state.fvf)?;
        let pretransformed = fvf.position == Position::Xyzrhw;
        let blend = state.rs(rs::VERTEXBLEND);
        let indexed = state.rs_on(rs::INDEXEDVERTEXBLENDENABLE) && !pretransformed;
        let weights = match blend {
            vbf::DISABLE => None,
            vbf::WEIGHTS0 => Some(0),
            vbf::WEIGHTS1 | vbf::WEIGHTS2 | vbf::WEIGHTS3 => Some(blend as u8),
            vbf::TWEENING => return Err(FfpError::Unsupported("VERTEXBLEND TWEENING")),
            v => return Err(bad("VERTEXBLEND", v)),
        };
        let (blend_matrices, indexed) = match weights {
            _ if pretransformed => (1, false),
            None => (1, false),
            Some(n) => {
                if fvf.weights() < n {
                    return Err(FfpError::Unsupported(
                        "VERTEXBLEND asks for more weights than the FVF carries",
                    ));
                }
                if indexed && fvf.indices.is_none() {
                    return Err(FfpError::Unsupported(
                        "INDEXEDVERTEXBLENDENABLE without blend indices in the FVF",
                    ));
                }
                (n + 1, indexed)
            }
        };
        let lighting = state.rs_on(rs::LIGHTING) && !pretransformed;
        let lights: Vec<u32> = if lighting {
            let l: Vec<u32> = state.active_lights().map(|l| l.ty).collect();
            if l.len() > MAX_ACTIVE_LIGHTS {
                return Err(FfpError::TooManyLights(l.len()));
            }
            for &t in &l {
                if !(1..=3).contains(&t) {
                    return Err(bad("light type", t));
                }
            }
            l
        } else {
            Vec::new()
        };
        let color_vertex = state.rs_on(rs::COLORVERTEX);
        let mut sources = [0; 4];
        for (i, n) in [
            rs::DIFFUSEMATERIALSOURCE,
            rs::SPECULARMATERIALSOURCE,
            rs::AMBIENTMATERIALSOURCE,
            rs::EMISSIVEMATERIALSOURCE,
        ]
        .into_iter()
        .enumerate()
        {
            let v = state.rs(n);
            sources[i] = match v {
                mcs::MATERIAL => mcs::MATERIAL,
                mcs::COLOR1 if color_vertex && fvf.diffuse => mcs::COLOR1,
                mcs::COLOR2 if color_vertex && fvf.specular => mcs::COLOR2,
                mcs::COLOR1 | mcs::COLOR2 => mcs::MATERIAL,
                v => return Err(bad("material source", v)),
            };
        }
        let fog_mode = |n: u32, name: &str| -> Result<u32, FfpError> {
            let v = state.rs(n);
            if v > fog::LINEAR {
                return Err(bad(name, v));
            }
            Ok(v)
        };
        let table = fog_mode(rs::FOGTABLEMODE, "FOGTABLEMODE")?;
        let vertex = fog_mode(rs::FOGVERTEXMODE, "FOGVERTEXMODE")?;
        let fog_on = state.rs_on(rs::FOGENABLE);
        let projection = state.transform(crate::d3d::ts::PROJECTION);
        // W-fog: a perspective projection (its last column is not (0, 0, 0, 1)).
        let w_fog = !pretransformed
            && (projection[3] != 0.0
                || projection[7] != 0.0
                || projection[11] != 0.0
                || projection[15] != 1.0);
        let (vfog, pfog) = if !fog_on {
            (VertexFog::None, PixelFog::None)
        } else if table != fog::NONE {
            (
                VertexFog::None,
                PixelFog::Table {
                    mode: table,
                    w: w_fog,
                },
            )
        } else if vertex != fog::NONE && !pretransformed {
            (
                VertexFog::Computed {
                    mode: vertex,
                    range: state.rs_on(rs::RANGEFOGENABLE),
                },
                PixelFog::Vertex,
            )
        } else {
            (VertexFog::Specular, PixelFog::Vertex)
        };

        let mut stages = Vec::new();
        let mut tex = Vec::new();
        for (n, s) in state.stages.iter().enumerate().take(MAX_STAGES) {
            if s.color_op == top::DISABLE {
                break;
            }
            for (name, op) in [("COLOROP", s.color_op), ("ALPHAOP", s.alpha_op)] {
                if !(top::DISABLE..=top::LERP).contains(&op) {
                    return Err(bad(&format!("stage {n} {name}"), op));
                }
            }
            for (i, a) in s.color_args.iter().enumerate() {
                check_arg(&format!("COLORARG{i}"), n, *a)?;
            }
            for (i, a) in s.alpha_args.iter().enumerate() {
                check_arg(&format!("ALPHAARG{i}"), n, *a)?;
            }
            let result_temp = match s.result_arg & ta::SELECTMASK {
                ta::CURRENT => false,
                ta::TEMP => true,
                _ => return Err(bad(&format!("stage {n} RESULTARG"), s.result_arg)),
            };
            let flags = s.transform_flags;
            let count = (flags & 0xFF) as u8;
            if count > 4 || flags & !(0xFF | ttff::PROJECTED) != 0 {
                return Err(bad(&format!("stage {n} TEXTURETRANSFORMFLAGS"), flags));
            }
            let projected = flags & ttff::PROJECTED != 0;
            let generate = s.tex_coord_index & 0xFFFF_0000;
            if generate > tci::SPHEREMAP {
                return Err(bad(&format!("stage {n} TEXCOORDINDEX"), s.tex_coord_index));
            }
            let set = (s.tex_coord_index & 0xFFFF) as u8;
            if s.tex_coord_index & 0xFFFF >= 8 {
                return Err(bad(&format!("stage {n} TEXCOORDINDEX"), s.tex_coord_index));
            }
            if s.texture.is_some() {
                tex.push(TexCoordKey {
                    stage: n as u8,
                    set,
                    generate: if pretransformed {
                        tci::PASSTHRU
                    } else {
                        generate
                    },
                    count: if pretransformed { 0 } else { count },
                    projected,
                });
            }
            stages.push(StageKey {
                color_op: s.color_op,
                color_args: s.color_args,
                alpha_op: s.alpha_op,
                alpha_args: s.alpha_args,
                result_temp,
                texture: s.texture,
                projected: projected && (count > 1 || pretransformed),
            });
        }
        let point_scale = state.rs_on(crate::d3d::rs::POINTSCALEENABLE) && !pretransformed;
        let specular = state.rs_on(rs::SPECULARENABLE);
        Ok(ShaderKey {
            vs: VsKey {
                blend_matrices,
                indexed,
                lighting,
                lights,
                normalize: state.rs_on(rs::NORMALIZENORMALS),
                local_viewer: state.rs_on(rs::LOCALVIEWER),
                specular,
                sources,
                fog: vfog,
                table_fog: matches!(pfog, PixelFog::Table { .. }),
                tex,
                point_size: point_scale || fvf.psize,
                point_scale,
                fvf,
            },
            ps: PsKey {
                stages,
                specular,
                fog: pfog,
            },
        })
    }
}
