//! The Vulkan device and the plumbing every run shares: error scopes, buffers, readback.

use crate::GpuError;
use std::sync::mpsc;

/// A Vulkan device that runs translated shaders.
pub struct Gpu {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    pub(crate) features: wgpu::Features,
}

impl Gpu {
    /// Opens the first Vulkan adapter (a GPU, or lavapipe).
    pub fn new() -> Result<Gpu, GpuError> {
        pollster::block_on(Self::open())
    }

    async fn open() -> Result<Gpu, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let wanted =
            wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER | wgpu::Features::FLOAT32_FILTERABLE;
        let features = adapter.features() & wanted;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("dxso-gpu"),
                required_features: features,
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::Device(e.to_string()))?;
        Ok(Gpu {
            device,
            queue,
            info: adapter.get_info(),
            features,
        })
    }

    /// The adapter's name and driver (`llvmpipe (LLVM 19.1.7, 256 bits)` for lavapipe).
    pub fn adapter_name(&self) -> String {
        if self.info.driver_info.is_empty() {
            self.info.name.clone()
        } else {
            format!("{} ({})", self.info.name, self.info.driver_info)
        }
    }

    /// Runs `f` inside a validation and out-of-memory error scope; a wgpu error becomes
    /// [`GpuError::Wgpu`].
    pub(crate) fn checked<T>(&self, f: impl FnOnce() -> T) -> Result<T, GpuError> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let out = f();
        let v = pollster::block_on(validation.pop());
        let o = pollster::block_on(oom.pop());
        match v.or(o) {
            Some(e) => Err(GpuError::Wgpu(e.to_string())),
            None => Ok(out),
        }
    }

    pub(crate) fn buffer_init(
        &self,
        label: &str,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        let size = (contents.len().max(16) as u64).next_multiple_of(16);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        if !contents.is_empty() {
            self.queue.write_buffer(&buffer, 0, contents);
        }
        buffer
    }

    /// Waits for the queue and copies `buffer` (which has `MAP_READ`) out.
    pub(crate) fn read_back(&self, buffer: &wgpu::Buffer) -> Result<Vec<u8>, GpuError> {
        let (tx, rx) = mpsc::channel();
        buffer.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: None,
            })
            .map_err(|e| GpuError::Wgpu(e.to_string()))?;
        rx.recv()
            .map_err(|e| GpuError::Wgpu(e.to_string()))?
            .map_err(|e| GpuError::Wgpu(e.to_string()))?;
        let bytes = buffer
            .get_mapped_range(..)
            .map_err(|e| GpuError::Wgpu(e.to_string()))?
            .to_vec();
        buffer.unmap();
        Ok(bytes)
    }

    /// A shader module from a translated naga module.
    pub(crate) fn module(&self, module: naga::Module) -> Result<wgpu::ShaderModule, GpuError> {
        self.checked(|| {
            self.device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some("dxso"),
                    source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(module)),
                })
        })
    }
}
