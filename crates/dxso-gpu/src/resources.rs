//! The executor's resources as device objects: the constant buffer in `dxso_naga::layout`'s
//! layout, textures, sampler states, and the bind group that holds them.

use crate::{Gpu, GpuError};
use dxso_exec::{AddressMode, Dimension, Filter, Format, Resources, Sampler};
use dxso_naga::{layout, Reflection};

/// The constant buffer of `layout::constant_buffer_layout`.
pub(crate) fn constant_bytes(vertex: bool, resources: &Resources) -> Vec<u8> {
    let l = layout::constant_buffer_layout(vertex);
    let mut out = vec![0u8; l.size as usize];
    let put = |out: &mut [u8], at: u32, words: &[u32]| {
        for (i, w) in words.iter().enumerate() {
            let o = at as usize + 4 * i;
            out[o..o + 4].copy_from_slice(&w.to_le_bytes());
        }
    };
    for (n, v) in resources
        .constants
        .float
        .iter()
        .take(l.float_count as usize)
        .enumerate()
    {
        put(&mut out, l.floats + 16 * n as u32, &v.map(f32::to_bits));
    }
    for (n, v) in resources
        .constants
        .int
        .iter()
        .take(layout::INT_CONSTANTS as usize)
        .enumerate()
    {
        put(&mut out, l.ints + 16 * n as u32, &v.map(|i| i as u32));
    }
    for (n, &b) in resources
        .constants
        .bool
        .iter()
        .take(layout::BOOL_CONSTANTS as usize)
        .enumerate()
    {
        put(&mut out, l.bools + 4 * n as u32, &[b as u32]);
    }
    for (n, s) in resources
        .samplers
        .iter()
        .take(layout::BUMP_STAGES as usize)
        .enumerate()
    {
        put(
            &mut out,
            l.bumpenv + 16 * n as u32,
            &s.stage.bump_env_mat.map(f32::to_bits),
        );
        put(
            &mut out,
            l.bumplum + 16 * n as u32,
            &[
                s.stage.bump_env_lscale.to_bits(),
                s.stage.bump_env_loffset.to_bits(),
            ],
        );
    }
    out
}

/// Refuses executor options the translation does not follow.
pub(crate) fn check_options(exec: &dxso_exec::Options) -> Result<(), GpuError> {
    if exec.float_constants.is_some() {
        return Err(GpuError::Unsupported(
            "a float constant file size other than the stage's (256 vertex, 224 pixel)".into(),
        ));
    }
    Ok(())
}

/// The executor's ps_1_x range as the translation names it.
fn ps1_range(range: dxso_exec::Ps1Range) -> dxso_naga::Ps1Range {
    match range {
        dxso_exec::Ps1Range::Drivers => dxso_naga::Ps1Range::Drivers,
        dxso_exec::Ps1Range::EarlyHardware => dxso_naga::Ps1Range::EarlyHardware,
        dxso_exec::Ps1Range::Limit(m) => dxso_naga::Ps1Range::Limit(m),
    }
}

/// The translation options a run needs besides the runner's own: ps_1_x texture types and
/// projected stages from the sampler bindings, the executor's float rules.
pub(crate) fn translation_options(
    shader: &dxso::Shader,
    resources: &Resources,
    exec: &dxso_exec::Options,
) -> dxso_naga::Options {
    let mut o = dxso_naga::Options {
        ps1_range: ps1_range(exec.ps1_range),
        zero_times_anything: exec.zero_times_anything,
        ..dxso_naga::Options::default()
    };
    if shader.version.is_pixel() && shader.version.major < 2 {
        for (n, s) in resources.samplers.iter().take(8).enumerate() {
            let dim = s
                .dimension
                .or_else(|| s.texture.as_ref().map(|t| t.dimension()));
            o.ps1_texture_types[n] = match dim {
                Some(Dimension::Cube) => dxso::TextureType::Cube,
                Some(Dimension::Volume) => dxso::TextureType::Volume,
                _ => dxso::TextureType::Texture2D,
            };
            o.ps1_projection[n] = s.stage.projection_divisor().map(|c| c as u8);
        }
    }
    o
}

fn view_dimension(tt: dxso::TextureType) -> wgpu::TextureViewDimension {
    match tt {
        dxso::TextureType::Cube => wgpu::TextureViewDimension::Cube,
        dxso::TextureType::Volume => wgpu::TextureViewDimension::D3,
        _ => wgpu::TextureViewDimension::D2,
    }
}

fn dimension_of(tt: dxso::TextureType) -> Dimension {
    match tt {
        dxso::TextureType::Cube => Dimension::Cube,
        dxso::TextureType::Volume => Dimension::Volume,
        _ => Dimension::D2,
    }
}

fn address(m: AddressMode) -> Result<wgpu::AddressMode, GpuError> {
    Ok(match m {
        AddressMode::Wrap => wgpu::AddressMode::Repeat,
        AddressMode::Mirror => wgpu::AddressMode::MirrorRepeat,
        AddressMode::Clamp => wgpu::AddressMode::ClampToEdge,
        AddressMode::Border => wgpu::AddressMode::ClampToBorder,
        AddressMode::MirrorOnce => {
            return Err(GpuError::Unsupported(
                "the mirroronce address mode (wgpu has no mirror-clamp-to-edge)".into(),
            ))
        }
    })
}

fn filter(f: Filter) -> wgpu::FilterMode {
    match f {
        Filter::None | Filter::Point => wgpu::FilterMode::Nearest,
        _ => wgpu::FilterMode::Linear,
    }
}

impl Gpu {
    /// The texture view and sampler of `binding` for sampler type `tt`.
    fn sampler_objects(
        &self,
        binding: Option<&Sampler>,
        tt: dxso::TextureType,
    ) -> Result<(wgpu::TextureView, wgpu::Sampler), GpuError> {
        let state = binding.map(|s| s.state).unwrap_or_default();
        let texture = binding.and_then(|s| s.texture.as_deref());
        if let Some(t) = texture {
            if t.dimension() != dimension_of(tt) {
                return Err(GpuError::Input(format!(
                    "a {} texture is bound to a {} sampler",
                    t.dimension().name(),
                    dimension_of(tt).name()
                )));
            }
        }
        if state.mip_lod_bias != 0.0 {
            return Err(GpuError::Unsupported(
                "mipmaplodbias (wgpu samplers have no LOD bias)".into(),
            ));
        }
        let modes = [state.address_u, state.address_v, state.address_w];
        let border = if modes.contains(&AddressMode::Border) {
            if !self
                .features
                .contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER)
            {
                return Err(GpuError::Unsupported(
                    "border addressing on this device".into(),
                ));
            }
            Some(match state.border_color {
                0 => wgpu::SamplerBorderColor::TransparentBlack,
                0xFF00_0000 => wgpu::SamplerBorderColor::OpaqueBlack,
                0xFFFF_FFFF => wgpu::SamplerBorderColor::OpaqueWhite,
                c => {
                    return Err(GpuError::Unsupported(format!(
                        "border colour {c:#010x} (Vulkan offers transparent black, opaque black, opaque white)"
                    )))
                }
            })
        } else {
            None
        };
        let (view, levels) = self.texture_view(texture, tt, &state)?;
        let linear = [state.mag_filter, state.min_filter, state.mip_filter]
            .iter()
            .any(|f| filter(*f) == wgpu::FilterMode::Linear);
        let float32 = texture
            .is_some_and(|t| gpu_format(t.format(), false) == wgpu::TextureFormat::Rgba32Float);
        if linear && float32 && !self.features.contains(wgpu::Features::FLOAT32_FILTERABLE) {
            return Err(GpuError::Unsupported(
                "linear filtering of 32-bit float textures on this device".into(),
            ));
        }
        let min_level = (state.max_mip_level as f32).min(levels.saturating_sub(1) as f32);
        let sampler = self.device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("dxso sampler"),
            address_mode_u: address(state.address_u)?,
            address_mode_v: address(state.address_v)?,
            address_mode_w: address(state.address_w)?,
            mag_filter: filter(state.mag_filter),
            min_filter: filter(state.min_filter),
            mipmap_filter: match state.mip_filter {
                Filter::Linear
                | Filter::Anisotropic
                | Filter::PyramidalQuad
                | Filter::GaussianQuad => wgpu::MipmapFilterMode::Linear,
                _ => wgpu::MipmapFilterMode::Nearest,
            },
            // mipfilter none samples one level: the view holds only that level.
            lod_min_clamp: if state.mip_filter == Filter::None {
                0.0
            } else {
                min_level
            },
            lod_max_clamp: 32.0,
            compare: None,
            anisotropy_clamp: 1,
            border_color: border,
        });
        Ok((view, sampler))
    }

    /// A view of the texture (or of the unbound sampler's `(0, 0, 0, 1)` texel) and the number
    /// of levels the sampler's LOD counts from.
    fn texture_view(
        &self,
        texture: Option<&dxso_exec::Texture>,
        tt: dxso::TextureType,
        state: &dxso_exec::SamplerState,
    ) -> Result<(wgpu::TextureView, u32), GpuError> {
        let dim = view_dimension(tt);
        let (format, levels): (wgpu::TextureFormat, Vec<Level>) = match texture {
            Some(t) => {
                let format = gpu_format(t.format(), state.srgb_texture);
                let levels = t
                    .levels()
                    .iter()
                    .map(|l| (l.width, l.height, l.depth, texels(t.format(), &l.data)))
                    .collect();
                (format, levels)
            }
            None => {
                let depth = if tt == dxso::TextureType::Cube { 6 } else { 1 };
                let texel: Vec<u8> = dxso_exec::sampler::UNBOUND
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect();
                (
                    wgpu::TextureFormat::Rgba32Float,
                    vec![(1, 1, depth, texel.repeat(depth as usize))],
                )
            }
        };
        let (w, h, d, _) = levels[0];
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("dxso texture"),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: d,
            },
            mip_level_count: levels.len() as u32,
            sample_count: 1,
            dimension: if dim == wgpu::TextureViewDimension::D3 {
                wgpu::TextureDimension::D3
            } else {
                wgpu::TextureDimension::D2
            },
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let texel_size = format.block_copy_size(None).unwrap_or(16);
        for (level, (lw, lh, ld, data)) in levels.iter().enumerate() {
            self.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: level as u32,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                data,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(lw * texel_size),
                    rows_per_image: Some(*lh),
                },
                wgpu::Extent3d {
                    width: *lw,
                    height: *lh,
                    depth_or_array_layers: *ld,
                },
            );
        }
        let count = levels.len() as u32;
        // mipfilter none reads one level: min(maxmiplevel, levels - 1) (SEMANTICS 12.4).
        let (base, view_levels) = if state.mip_filter == Filter::None {
            (state.max_mip_level.min(count - 1), Some(1))
        } else {
            (0, None)
        };
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("dxso view"),
            dimension: Some(dim),
            base_mip_level: base,
            mip_level_count: view_levels,
            ..Default::default()
        });
        Ok((view, count))
    }

    /// The bind group layout and bind group of a translated shader's constant buffer and
    /// samplers, plus `extra` storage buffers (binding, buffer, read-only).
    pub(crate) fn bind_group(
        &self,
        reflection: &Reflection,
        constants: &wgpu::Buffer,
        resources: &Resources,
        extra: &[(u32, &wgpu::Buffer, bool)],
        visibility: wgpu::ShaderStages,
    ) -> Result<(wgpu::BindGroupLayout, wgpu::BindGroup), GpuError> {
        let mut layout_entries = vec![wgpu::BindGroupLayoutEntry {
            binding: layout::CONSTANT_BUFFER_BINDING,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }];
        let mut objects = Vec::new();
        for s in &reflection.samplers {
            let binding = resources.samplers.get(s.sampler as usize);
            let (view, sampler) = self.sampler_objects(binding, s.texture_type)?;
            let float32 = binding
                .and_then(|b| b.texture.as_deref())
                .is_none_or(|t| gpu_format(t.format(), false) == wgpu::TextureFormat::Rgba32Float);
            let filterable = !float32 || self.features.contains(wgpu::Features::FLOAT32_FILTERABLE);
            layout_entries.push(wgpu::BindGroupLayoutEntry {
                binding: s.texture_binding,
                visibility,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable },
                    view_dimension: view_dimension(s.texture_type),
                    multisampled: false,
                },
                count: None,
            });
            layout_entries.push(wgpu::BindGroupLayoutEntry {
                binding: s.sampler_binding,
                visibility,
                ty: wgpu::BindingType::Sampler(if filterable {
                    wgpu::SamplerBindingType::Filtering
                } else {
                    wgpu::SamplerBindingType::NonFiltering
                }),
                count: None,
            });
            objects.push((s.texture_binding, s.sampler_binding, view, sampler));
        }
        for &(binding, _, read_only) in extra {
            layout_entries.push(wgpu::BindGroupLayoutEntry {
                binding,
                visibility,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            });
        }
        let bgl = self
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("dxso bindings"),
                entries: &layout_entries,
            });
        let mut entries = vec![wgpu::BindGroupEntry {
            binding: layout::CONSTANT_BUFFER_BINDING,
            resource: constants.as_entire_binding(),
        }];
        for (tb, sb, view, sampler) in &objects {
            entries.push(wgpu::BindGroupEntry {
                binding: *tb,
                resource: wgpu::BindingResource::TextureView(view),
            });
            entries.push(wgpu::BindGroupEntry {
                binding: *sb,
                resource: wgpu::BindingResource::Sampler(sampler),
            });
        }
        for &(binding, buffer, _) in extra {
            entries.push(wgpu::BindGroupEntry {
                binding,
                resource: buffer.as_entire_binding(),
            });
        }
        let bg = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("dxso bindings"),
            layout: &bgl,
            entries: &entries,
        });
        Ok((bgl, bg))
    }
}

/// One mip level to upload: width, height, depth (or layers), texel bytes.
type Level = (u32, u32, u32, Vec<u8>);

/// The device format a texture is uploaded in: RGBA8 as is (sRGB-decoding when the sampler
/// says so, before filtering as SEMANTICS 12.1 does), every other format widened to RGBA32F
/// with the missing components 1, as Direct3D 9 reads them.
fn gpu_format(f: Format, srgb: bool) -> wgpu::TextureFormat {
    match f {
        Format::Rgba8Unorm if srgb => wgpu::TextureFormat::Rgba8UnormSrgb,
        Format::Rgba8Unorm => wgpu::TextureFormat::Rgba8Unorm,
        _ => wgpu::TextureFormat::Rgba32Float,
    }
}

fn texels(f: Format, data: &[u8]) -> Vec<u8> {
    if f == Format::Rgba8Unorm {
        return data.to_vec();
    }
    data.chunks_exact(f.texel_size())
        .flat_map(|t| f.decode(t))
        .flat_map(f32::to_le_bytes)
        .collect()
}
