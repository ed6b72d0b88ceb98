//! A small, correct Direct3D 9 software pipeline.
//!
//! A DP2 stream runs on a [`dxso_dp2::Device`] (patch tessellation and the patch cache
//! included); every draw it reports goes through vertex fetch by meaning, the vertex shader in
//! batches, clipping, Direct3D 9's rasterisation rules (pixel centres at
//! integer coordinates, the top-left fill rule, 1/256-pixel snapping), 2x2 quads with
//! perspective-correct inputs, the pixel shader in batches of quads, and the
//! output merger (alpha test, stencil test and operations (two-sided, 8 bits),
//! depth test with all eight comparisons, blending, colour write mask) into an RGBA8
//! [`Target`] that becomes a PNG ([`Image`]). CLEAR,
//! VIEWPORTINFO, ZRANGE, render states, shader constants, textures and sampler states come
//! from the stream. Tiles render in parallel ([`rayon`]); the picture does not depend on the
//! thread count.
//!
//! Shaders are behind the [`VertexStage`] and [`PixelStage`] traits, made by a
//! [`StageEngine`]: [`ExecEngine`] runs them with `dxso-exec`, and plain
//! Rust ([`FnVertex`], [`FnPixel`]) drives the pipeline in tests. A draw whose stream binds no
//! shader (and the caller gives none) runs Direct3D 9's fixed-function pipeline: `dxso-ffp`
//! generates its shaders from the device's fixed-function state, cached by key. An
//! [`ExecEngine`] given a [`trace::Trace`] records what each of its shaders ran on (constants,
//! samplers, inputs), for replay on another engine.
//!
//! ```
//! use dxso_render::{FnPixel, FnVertex, RenderLimits, Renderer, Semantic};
//! use dxso::DeclUsage;
//! use dxso_dp2::{command::Op, decl::*, CaptureBuilder};
//! use std::sync::Arc;
//!
//! // One triangle across the screen, coloured by a Rust pixel shader.
//! let mut b = CaptureBuilder::new();
//! b.float_buffer(1, &[-1.0, -1.0, 0.5, 0.0, 1.0, 0.5, 1.0, -1.0, 0.5]);
//! let position = VertexElement { stream: 0, offset: 0, ty: DeclType::Float3 as u8,
//!     method: DeclMethod::Default as u8, usage: DeclUsage::Position as u8, usage_index: 0 };
//! b.create_vertex_decl(1, &[position]).set_vertex_decl(1).set_stream_source(0, 1, 12);
//! b.draw_primitive(Op::DrawPrimitive, 4, 0, 1);
//! let vs = FnVertex::new(vec![Semantic::POSITION], vec![], |v, _| (v[0], vec![]));
//! let ps = FnPixel::new(vec![], |_| [Some([1.0, 0.5, 0.0, 1.0]); 4]);
//! let mut r = Renderer::new(16, 16, None, RenderLimits::default())?
//!     .with_shaders(Some(Arc::new(vs)), Some(Arc::new(ps)));
//! r.render_capture(&b.finish())?;
//! assert_eq!(r.image().get(8, 8), [255, 128, 0, 255]);
//! # Ok::<(), dxso_render::RenderError>(())
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod clip;
mod color;
mod error;
mod exec;
mod ffp;
mod output;
mod pipeline;
mod raster;
mod setup;
mod shading;
mod state;
mod target;
pub mod teapot;
pub mod trace;

pub use error::RenderError;
pub use exec::{ExecEngine, ExecPixel, ExecVertex};
pub use pipeline::{RenderLimits, Renderer, Stats};
pub use shading::{
    DrawResources, FnPixel, FnVertex, PixelInputs, PixelOutputs, PixelProgram, PixelSignature,
    PixelStage, Quad, SamplerBinding, Semantic, ShadeError, StageEngine, VertexInputs,
    VertexOutputs, VertexProgram, VertexSignature, VertexStage,
};
pub use state::Viewport;
pub use target::{parse_size, Image, Target, MAX_SIDE};

// The README's examples run as doctests, so the crate's front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
