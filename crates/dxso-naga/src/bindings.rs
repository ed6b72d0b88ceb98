//! Where each resource of a written module is bound, in the written code's own terms.

use crate::layout::Resource;
use crate::Target;

/// Where a written module's resources and user-defined inputs and outputs are, in the
/// target's code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TargetReflection {
    /// Every resource the code declares, by group and binding.
    pub bindings: Vec<TargetBinding>,
    /// Every user-defined input and output, inputs first.
    pub varyings: Vec<TargetVarying>,
}

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

/// One user-defined input or output of a written entry point and how the target's code
/// places it (built-ins are not listed: the host does not bind them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TargetVarying {
    /// `true` for an output.
    pub output: bool,
    /// Its location in the module ([`crate::Slot::Location`]).
    pub location: u32,
    /// The place as the code writes it: `@location(2)` (WGSL), `Location 2` (SPIR-V),
    /// `location = 2` (GLSL), `[[attribute(0)]]`, `[[user(loc2)]]` or `[[color(0)]]` (MSL),
    /// `LOC2` or `SV_Target0` (HLSL); `by name` where GLSL writes no location and the host
    /// links or binds [`TargetVarying::name`].
    pub place: String,
    /// The GLSL variable's name.
    pub name: Option<String>,
}

/// The user-defined inputs and outputs of the module's entry point as `target` writes them;
/// `glsl` is the GLSL version written.
pub(crate) fn varyings(
    module: &naga::Module,
    target: Target,
    glsl: Option<naga::back::glsl::Version>,
) -> Vec<TargetVarying> {
    let Some(ep) = module.entry_points.first() else {
        return Vec::new();
    };
    let stage = ep.stage;
    let mut found: Vec<(bool, u32)> = Vec::new();
    let mut visit = |binding: &Option<naga::Binding>, ty: naga::Handle<naga::Type>, output| {
        let mut one = |b: &Option<naga::Binding>| {
            if let Some(naga::Binding::Location { location, .. }) = b {
                found.push((output, *location));
            }
        };
        match (&binding, &module.types[ty].inner) {
            (None, naga::TypeInner::Struct { members, .. }) => {
                members.iter().for_each(|m| one(&m.binding))
            }
            _ => one(binding),
        }
    };
    for a in &ep.function.arguments {
        visit(&a.binding, a.ty, false);
    }
    if let Some(r) = &ep.function.result {
        visit(&r.binding, r.ty, true);
    }
    found
        .into_iter()
        .map(|(output, location)| {
            let vertex = stage == naga::ShaderStage::Vertex;
            let mut name = None;
            let place = match target {
                Target::Wgsl => format!("@location({location})"),
                Target::SpirV => format!("Location {location}"),
                Target::Msl => match (vertex, output) {
                    (true, false) => format!("[[attribute({location})]]"),
                    (false, true) => format!("[[color({location})]]"),
                    _ => format!("[[user(loc{location})]]"),
                },
                Target::Hlsl if !vertex && output => format!("SV_Target{location}"),
                Target::Hlsl => format!("LOC{location}"),
                Target::Glsl | Target::GlslEs => {
                    let prefix = match (vertex, output) {
                        (true, false) => "p2vs",
                        (false, true) => "fs2p",
                        _ => "vs2fs",
                    };
                    name = Some(format!("_{prefix}_location{location}"));
                    // naga writes `location =` where the version has it for this interface:
                    // vertex inputs and fragment outputs from 3.30 / ES 3.00, varyings from
                    // the versions with every explicit layout.
                    let varying = vertex == output;
                    let written = glsl.is_some_and(|v| {
                        v.supports_io_locations() && (!varying || v.supports_explicit_locations())
                    });
                    if written {
                        format!("location = {location}")
                    } else {
                        "by name".to_string()
                    }
                }
            };
            TargetVarying {
                output,
                location,
                place,
                name,
            }
        })
        .collect()
}
