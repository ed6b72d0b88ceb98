//! Pixel shaders: quads stacked in the two left columns of `Rgba32Float` targets, drawn by
//! one triangle.

use crate::vertex::{input_values, output_register};
use crate::{Gpu, GpuError};
use dxso_exec::{InputRegister, OutputRegister, Outputs, QuadBatch, Resources};
use dxso_naga::{layout, Slot};

/// The color location of the status target (`dxso_naga::Options::pixel_status_location`),
/// after the four `oC#`.
const STATUS_LOCATION: u32 = 4;
const ROW_ALIGN: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
/// Two columns of quads, two of margin for the covering triangle.
const TARGET_WIDTH: u32 = 4;

/// One triangle inside the target (so no clipping splits it) whose pixels include the two
/// left columns of the top half: corners (0, 0), (4, 0), (0, h) in pixels of a 4 x h target
/// whose top half holds the quads.
/// Every quad of the runner is then covered by one primitive: no helper invocations, which
/// lavapipe runs with storage loads that read zero.
const COVER: &str =
    "@vertex fn main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    var c = array<vec2<f32>, 3>(vec2(-1.0, 1.0), vec2(1.0, 1.0), vec2(-1.0, -1.0));
    return vec4<f32>(c[i], 0.5, 1.0);
}";

/// The executor's name of a translated input.
fn input_register(v: &dxso_naga::Varying) -> InputRegister {
    use dxso::RegisterType as R;
    match (v.register.ty, v.register.num) {
        (R::Addr, n) => InputRegister::T(n as u8),
        (R::MiscType, 0) => InputRegister::Pos,
        (R::MiscType, _) => InputRegister::Face,
        (_, n) => InputRegister::V(n as u8),
    }
}

impl Gpu {
    /// Runs every quad of `batch` through `shader`, as [`dxso_exec::PixelShader::run`] does.
    pub fn run_pixel(
        &self,
        shader: &dxso::Shader,
        batch: &QuadBatch,
        resources: &Resources,
        options: &dxso_exec::Options,
    ) -> Result<Outputs, GpuError> {
        crate::resources::check_options(options)?;
        let written = dxso_exec::PixelShader::with_options(shader, options)?.outputs();
        let pixels = batch.pixels();
        if !batch.coverage.is_empty() && batch.coverage.len() != pixels {
            return Err(GpuError::Input(format!(
                "coverage has {} entries for {pixels} pixels",
                batch.coverage.len()
            )));
        }
        let rows = 2 * batch.quads.max(1) as u32;
        let height = 2 * rows;
        let max = self.device.limits().max_texture_dimension_2d;
        if height > max {
            return Err(GpuError::Unsupported(format!(
                "{} quads in one run (at most {})",
                batch.quads,
                max / 4
            )));
        }
        let mut topts = crate::resources::translation_options(shader, resources, options);
        topts.pixel_inputs_from_buffer = true;
        topts.pixel_status_location = Some(STATUS_LOCATION);
        let t = dxso_naga::translate(shader, &topts)?;
        let k = t.reflection.inputs.len();
        let mut inputs = vec![[0f32; 4]; pixels.max(1) * k.max(1)];
        for (slot, v) in t.reflection.inputs.iter().enumerate() {
            if let Some(values) = input_values(&batch.inputs, input_register(v), pixels)? {
                for (p, value) in values.iter().enumerate() {
                    inputs[p * k + slot] = *value;
                }
            }
        }
        let targets: Vec<u32> = t
            .reflection
            .outputs
            .iter()
            .filter_map(|o| match o.slot {
                Slot::Location(l) => Some(l),
                _ => None,
            })
            .collect();
        let writes_depth = t
            .reflection
            .outputs
            .iter()
            .any(|o| o.slot == Slot::FragDepth);
        let group = t.reflection.bind_group;
        let module = self.module(t.module)?;
        let cover = self.checked(|| {
            self.device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some("cover"),
                    source: wgpu::ShaderSource::Wgsl(COVER.into()),
                })
        })?;
        let row_bytes = (TARGET_WIDTH * 16).next_multiple_of(ROW_ALIGN);
        let images = self.checked(|| -> Result<Vec<(u32, Vec<u8>)>, GpuError> {
            let constants = self.buffer_init(
                "constants",
                &crate::resources::constant_bytes(false, resources),
                wgpu::BufferUsages::UNIFORM,
            );
            let input_buf = self.buffer_init(
                "inputs",
                bytemuck::cast_slice(&inputs),
                wgpu::BufferUsages::STORAGE,
            );
            let (bgl, bg) = self.bind_group(
                &t.reflection,
                &constants,
                resources,
                &[(layout::INPUT_BUFFER_BINDING, &input_buf, true)],
                wgpu::ShaderStages::FRAGMENT,
            )?;
            let empty = self
                .device
                .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: Some("empty"),
                    entries: &[],
                });
            let layouts: Vec<Option<&wgpu::BindGroupLayout>> = (0..=group)
                .map(|g| Some(if g == group { &bgl } else { &empty }))
                .collect();
            let pl = self
                .device
                .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("dxso pixel"),
                    bind_group_layouts: &layouts,
                    immediate_size: 0,
                });
            let size = wgpu::Extent3d {
                width: TARGET_WIDTH,
                height,
                depth_or_array_layers: 1,
            };
            let max = targets.iter().copied().max().unwrap_or(0) as usize;
            let mut states = vec![None; max + 1];
            let mut textures = Vec::new();
            for &l in &targets {
                states[l as usize] = Some(wgpu::ColorTargetState {
                    format: wgpu::TextureFormat::Rgba32Float,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                });
                let tex = self.device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("target"),
                    size,
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Rgba32Float,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                    view_formats: &[],
                });
                textures.push((l, tex));
            }
            let depth = writes_depth.then(|| {
                self.device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("depth"),
                    size,
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Depth32Float,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
            });
            let pipeline = self
                .device
                .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some("dxso pixel"),
                    layout: Some(&pl),
                    vertex: wgpu::VertexState {
                        module: &cover,
                        entry_point: Some("main"),
                        compilation_options: Default::default(),
                        buffers: &[],
                    },
                    primitive: wgpu::PrimitiveState::default(),
                    depth_stencil: depth.as_ref().map(|_| wgpu::DepthStencilState {
                        format: wgpu::TextureFormat::Depth32Float,
                        depth_write_enabled: Some(true),
                        depth_compare: Some(wgpu::CompareFunction::Always),
                        stencil: Default::default(),
                        bias: Default::default(),
                    }),
                    multisample: Default::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &module,
                        entry_point: Some("main"),
                        compilation_options: Default::default(),
                        targets: &states,
                    }),
                    multiview_mask: None,
                    cache: None,
                });
            let views: Vec<(u32, wgpu::TextureView)> = textures
                .iter()
                .map(|(l, t)| (*l, t.create_view(&Default::default())))
                .collect();
            let mut attachments = vec![None; max + 1];
            for (l, view) in &views {
                attachments[*l as usize] = Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                });
            }
            let depth_view = depth.as_ref().map(|d| d.create_view(&Default::default()));
            let mut enc = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("dxso pixel"),
                    color_attachments: &attachments,
                    depth_stencil_attachment: depth_view.as_ref().map(|view| {
                        wgpu::RenderPassDepthStencilAttachment {
                            view,
                            depth_ops: Some(wgpu::Operations {
                                load: wgpu::LoadOp::Clear(1.0),
                                store: wgpu::StoreOp::Store,
                            }),
                            stencil_ops: None,
                        }
                    }),
                    ..Default::default()
                });
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(group, &bg, &[]);
                pass.draw(0..3, 0..1);
            }
            let mut readbacks = Vec::new();
            for (l, tex) in &textures {
                let buf = self.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("readback"),
                    size: (row_bytes * height) as u64,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                enc.copy_texture_to_buffer(
                    tex.as_image_copy(),
                    wgpu::TexelCopyBufferInfo {
                        buffer: &buf,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: 0,
                            bytes_per_row: Some(row_bytes),
                            rows_per_image: Some(height),
                        },
                    },
                    size,
                );
                readbacks.push((*l, buf));
            }
            self.queue.submit([enc.finish()]);
            readbacks
                .iter()
                .map(|(l, b)| self.read_back(b).map(|bytes| (*l, bytes)))
                .collect()
        })??;
        let texel = |image: &[u8], p: usize| -> [f32; 4] {
            let (q, r) = (p / 4, p % 4);
            let (x, y) = (r % 2, 2 * q + r / 2);
            let at = y * row_bytes as usize + x * 16;
            let v: &[f32] = bytemuck::cast_slice(&image[at..at + 16]);
            [v[0], v[1], v[2], v[3]]
        };
        let image = |l: u32| {
            images
                .iter()
                .find(|(x, _)| *x == l)
                .map(|(_, b)| b.as_slice())
        };
        let status =
            image(STATUS_LOCATION).ok_or_else(|| GpuError::Wgpu("no status target".into()))?;
        let mut out = Outputs {
            count: pixels,
            registers: Vec::new(),
            discarded: (0..pixels)
                .map(|p| texel(status, p)[0] == 0.0 || batch.coverage.get(p) == Some(&false))
                .collect(),
        };
        for reg in written {
            let column: Vec<[f32; 4]> = if reg == OutputRegister::Depth {
                (0..pixels)
                    .map(|p| [texel(status, p)[1], 0.0, 0.0, 0.0])
                    .collect()
            } else {
                let Some(v) = t
                    .reflection
                    .outputs
                    .iter()
                    .find(|v| output_register(shader.version, v) == Some(reg))
                else {
                    return Err(GpuError::Unsupported(format!("output {reg} has no target")));
                };
                let Slot::Location(l) = v.slot else {
                    return Err(GpuError::Unsupported(format!("output {reg} has no target")));
                };
                let img = image(l).ok_or_else(|| GpuError::Wgpu(format!("no target {l}")))?;
                (0..pixels).map(|p| texel(img, p)).collect()
            };
            out.registers.push((reg, column));
        }
        Ok(out)
    }
}
