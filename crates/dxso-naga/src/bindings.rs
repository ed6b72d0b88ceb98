//! Where each resource of a written module is bound, in the written code's own terms.

use crate::layout::Resource;
use crate::Target;

/// One resource of a written module and how the target's code binds it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TargetBinding {
    /// The resource.
    pub resource: Resource,
    /// Its bind group (WGSL, SPIR-V; the HLSL register space).
    pub group: u32,
    /// Its binding in the group.
    pub binding: u32,
    /// The binding as the code writes it: `@group(1) @binding(3)` (WGSL), `set 1 binding 3`
    /// (SPIR-V decorations), `binding = 1` (GLSL 4.20+, ES 3.10+), `[[texture(1)]]` (MSL),
    /// `register(t1, space1)` or, for a sampler state, `nagaGroup1SamplerIndexArray[1]`
    /// (HLSL); `by name` where GLSL has no binding and the host binds [`TargetBinding::name`].
    pub place: String,
    /// The name the host binds by in GLSL: the uniform block's name for buffers, the combined
    /// sampler's name for a texture and its sampler state.
    pub name: Option<String>,
}

/// Whether GLSL `version` writes `binding =` (desktop 4.20+, ES 3.10+).
pub(crate) fn glsl_has_bindings(target: Target, version: u16) -> bool {
    match target {
        Target::GlslEs => version >= 310,
        _ => version >= 420,
    }
}

/// The bindings of `module`'s resources for `target`; `glsl` gives naga's GLSL reflection
/// (names) and whether the version writes bindings.
pub(crate) fn bindings(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    target: Target,
    glsl: Option<(&naga::back::glsl::ReflectionInfo, bool)>,
) -> Vec<TargetBinding> {
    // SPIR-V, GLSL and MSL leave out what the entry point does not use; WGSL and HLSL
    // declare every global.
    let all = matches!(target, Target::Wgsl | Target::Hlsl);
    let used = info.get_entry_point(0);
    let mut out = Vec::new();
    for (h, g) in module.global_variables.iter() {
        let Some(rb) = g.binding else { continue };
        if !all && used[h].is_empty() {
            continue;
        }
        let Some(resource) = Resource::at(rb.binding) else {
            continue;
        };
        let (group, binding) = (rb.group, rb.binding);
        let mut name = None;
        let place = match target {
            Target::Wgsl => format!("@group({group}) @binding({binding})"),
            Target::SpirV => format!("set {group} binding {binding}"),
            Target::Msl => {
                let (kind, slot) = resource.msl();
                format!("[[{kind}({slot})]]")
            }
            Target::Hlsl => match resource.hlsl() {
                ('s', n) => format!("nagaGroup{group}SamplerIndexArray[{n}]"),
                (class, n) if group == 0 => format!("register({class}{n})"),
                (class, n) => format!("register({class}{n}, space{group})"),
            },
            Target::Glsl | Target::GlslEs => {
                let Some((info, explicit)) = glsl else {
                    continue;
                };
                name = match resource {
                    Resource::Texture(_) | Resource::Sampler(_) => info
                        .texture_mapping
                        .iter()
                        .find(|(_, m)| m.texture == h || m.sampler == Some(h))
                        .map(|(n, _)| n.clone()),
                    _ => info.uniforms.get(&h).cloned(),
                };
                if explicit {
                    format!("binding = {}", resource.glsl())
                } else {
                    "by name".to_string()
                }
            }
        };
        out.push(TargetBinding {
            resource,
            group,
            binding,
            place,
            name,
        });
    }
    out.sort_by_key(|b| (b.group, b.binding));
    out
}
