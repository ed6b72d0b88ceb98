//! Vertex shaders as compute: one invocation per vertex.

use crate::{Gpu, GpuError};
use dxso_exec::{InputRegister, OutputRegister, Outputs, Resources, VertexBatch};
use dxso_naga::{layout, Slot};

/// The executor's name of a translated output.
pub(crate) fn output_register(
    version: dxso::Version,
    v: &dxso_naga::Varying,
) -> Option<OutputRegister> {
    use dxso::RegisterType as R;
    let n = v.register.num as u8;
    Some(match (v.register.ty, n) {
        (R::RastOut, 0) => OutputRegister::Pos,
        (R::RastOut, 1) => OutputRegister::Fog,
        (R::RastOut, 2) => OutputRegister::PointSize,
        (R::AttrOut, n) => OutputRegister::Color(n),
        (R::Output, n) if version.major >= 3 => OutputRegister::O(n),
        (R::Output, n) => OutputRegister::TexCoord(n),
        (R::ColorOut, n) => OutputRegister::Target(n),
        (R::Temp, 0) => OutputRegister::Target(0),
        (R::DepthOut, _) if v.slot == Slot::FragDepth => OutputRegister::Depth,
        _ => return None,
    })
}

/// The values of `register` for `count` invocations (zeros when the batch has none).
pub(crate) fn input_values(
    inputs: &[dxso_exec::Attribute],
    register: InputRegister,
    count: usize,
) -> Result<Option<&[[f32; 4]]>, GpuError> {
    match inputs.iter().find(|a| a.register == register) {
        Some(a) if a.values.len() != count => Err(GpuError::Input(format!(
            "input {register} has {} values for {count} invocations",
            a.values.len()
        ))),
        Some(a) => Ok(Some(&a.values)),
        None => Ok(None),
    }
}

impl Gpu {
    /// Runs every vertex of `batch` through `shader`, as [`dxso_exec::VertexShader::run`] does.
    pub fn run_vertex(
        &self,
        shader: &dxso::Shader,
        batch: &VertexBatch,
        resources: &Resources,
        options: &dxso_exec::Options,
    ) -> Result<Outputs, GpuError> {
        crate::resources::check_options(options)?;
        let written = dxso_exec::VertexShader::with_options(shader, options)?.outputs();
        let mut topts = crate::resources::translation_options(shader, resources, options);
        topts.vertex_as_compute = true;
        let t = dxso_naga::translate(shader, &topts)?;
        let count = batch.count;
        let stride = layout::COMPUTE_INPUT_STRIDE as usize;
        let mut inputs = vec![[0f32; 4]; count.max(1) * stride];
        for n in 0..16u8 {
            if let Some(values) = input_values(&batch.inputs, InputRegister::V(n), count)? {
                for (i, v) in values.iter().enumerate() {
                    inputs[i * stride + n as usize] = *v;
                }
            }
        }
        let outs = t.reflection.outputs.clone();
        let s = outs.len();
        let out_bytes = (count.max(1) * s * 16) as u64;
        let group = t.reflection.bind_group;
        let module = self.module(t.module)?;
        let result = self.checked(|| -> Result<Vec<u8>, GpuError> {
            let constants = self.buffer_init(
                "constants",
                &crate::resources::constant_bytes(true, resources),
                wgpu::BufferUsages::UNIFORM,
            );
            let input_buf = self.buffer_init(
                "inputs",
                bytemuck::cast_slice(&inputs),
                wgpu::BufferUsages::STORAGE,
            );
            let output_buf = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("outputs"),
                size: out_bytes,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size: out_bytes,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let (bgl, bg) = self.bind_group(
                &t.reflection,
                &constants,
                resources,
                &[
                    (layout::INPUT_BUFFER_BINDING, &input_buf, true),
                    (layout::OUTPUT_BUFFER_BINDING, &output_buf, false),
                ],
                wgpu::ShaderStages::COMPUTE,
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
                    label: Some("dxso vertex"),
                    bind_group_layouts: &layouts,
                    immediate_size: 0,
                });
            let pipeline = self
                .device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some("dxso vertex"),
                    layout: Some(&pl),
                    module: &module,
                    entry_point: Some("main"),
                    compilation_options: Default::default(),
                    cache: None,
                });
            let mut enc = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = enc.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(group, &bg, &[]);
                let groups = count.div_ceil(layout::COMPUTE_WORKGROUP_SIZE as usize) as u32;
                pass.dispatch_workgroups(groups, 1, 1);
            }
            enc.copy_buffer_to_buffer(&output_buf, 0, &readback, 0, out_bytes);
            self.queue.submit([enc.finish()]);
            self.read_back(&readback)
        })??;
        let values: &[[f32; 4]] = bytemuck::cast_slice(&result);
        let mut out = Outputs {
            count,
            registers: Vec::new(),
            discarded: Vec::new(),
        };
        for reg in written {
            let Some(k) = outs
                .iter()
                .position(|v| output_register(shader.version, v) == Some(reg))
            else {
                return Err(GpuError::Unsupported(format!(
                    "output {reg} has no place in the translation (an undeclared vs_3_0 output?)"
                )));
            };
            let column = (0..count).map(|i| values[i * s + k]).collect();
            out.registers.push((reg, column));
        }
        Ok(out)
    }
}
