//! From evaluated channels to meshes: which element goes where ([`Slot`]), rect and tri patch
//! tessellation over a domain, plain vertices, and N-patches.

use super::error::{ExecError, ExecErrorKind};
use super::fetch::{input_channel, position_channel};
use super::records::{PatchData, PatchShape};
use super::Ctx;
use crate::decl::{DeclMethod, DeclType, DeclUsage, VertexElement};
use crate::domain::Domain;
use crate::mesh::{Attribute, Mesh};
use crate::surface::{
    evaluate_rect_split, inward, normal_at, Evaluated, GridWeights, Need, RectScratch,
};
use crate::tri::{self, cross, normalize, PnTriangle};

pub(super) fn xyz(v: [f32; 4]) -> [f32; 3] {
    [v[0], v[1], v[2]]
}

/// Where an output element goes in the mesh.
pub(super) enum Slot {
    Position,
    Normal,
    Uv,
    Attribute,
}

pub(super) fn slot(e: &VertexElement) -> Slot {
    // On the raw bytes (this runs per element and draw; the typed getters cost more than
    // the tests): POSITION0 DEFAULT, NORMAL0 DEFAULT or CROSSUV, TEXCOORD0 DEFAULT or UV.
    let is = |method: DeclMethod| e.method == method as u8;
    let default = is(DeclMethod::Default);
    match e.usage {
        _ if e.usage_index != 0 => Slot::Attribute,
        u if u == DeclUsage::Position as u8 && default => Slot::Position,
        u if u == DeclUsage::Normal as u8 && (default || is(DeclMethod::CrossUv)) => Slot::Normal,
        u if u == DeclUsage::TexCoord as u8 && (default || is(DeclMethod::Uv)) => Slot::Uv,
        _ => Slot::Attribute,
    }
}

/// The `x`, `y`, `z` values put aside per channel and the mask of channels that have them
/// ([`evaluate_rect_split`]).
pub(super) type SplitValues<'a> = (&'a mut [Vec<[f32; 3]>], u64);

/// Builds a new mesh from evaluated channels (see [`assemble_into`]).
pub(super) fn assemble(
    decl: &[VertexElement],
    mut evaluated: Vec<Evaluated>,
    points: &[[f32; 2]],
    fix_normal: impl Fn(usize, usize) -> [f32; 3],
) -> Mesh {
    let mut mesh = Mesh::default();
    assemble_into(
        decl,
        (&mut evaluated, (&mut [], 0)),
        points,
        fix_normal,
        |_, _| false,
        (&mut mesh, false),
    );
    mesh
}

/// Fills `mesh` (emptied first, its capacity kept) from evaluated channels, copying or
/// trading arrays so the evaluation buffers and the mesh can both be reused. The channels
/// set in the mask of `xyz` have their values in its arrays as `x`, `y` and `z` alone
/// ([`evaluate_rect_split`]); those are traded with the mesh's positions or normals, whose
/// old arrays (of the last grid's length, as a retired mesh keeps them) go back to be
/// overwritten next time. With `holds_points`, the mesh's uvs
/// already are `points` and are kept if the declaration takes its uvs from them (its
/// triangle list is the caller's to keep or empty). Returns whether the uvs are `points`. `fix_normal(c, i)` recomputes a
/// degenerate CROSSUV normal of channel `c` at vertex `i`; the fix is written back into the
/// channel, so several CROSSUV elements reading one channel see the same normals.
/// `fix_all(c, normals)` is tried first on a channel with degenerate normals: true when it
/// has fixed them all.
pub(super) fn assemble_into(
    decl: &[VertexElement],
    (evaluated, (xyz_values, xyz_mask)): (&mut [Evaluated], SplitValues<'_>),
    points: &[[f32; 2]],
    fix_normal: impl Fn(usize, usize) -> [f32; 3],
    fix_all: impl Fn(usize, &mut [[f32; 3]]) -> bool,
    (mesh, holds_points): (&mut Mesh, bool),
) -> bool {
    // The positions and normals are replaced whole below, or emptied at the end.
    mesh.attributes.clear();
    if !holds_points {
        mesh.uvs.clear();
        mesh.indices.clear();
    }
    let mut uvs_are_points = false;
    // Whether the mesh's own arrays are taken (the first element of each slot fills them).
    let (mut positions, mut normals, mut uvs) = (false, false, false);
    // The channel whose generated normals were traded into the mesh's normals.
    let mut normals_of = None;
    for (index, e) in decl.iter().enumerate() {
        let method = e.method().unwrap_or(DeclMethod::Default);
        let slot = slot(e);
        let values: Vec<[f32; 4]> = match method {
            DeclMethod::Default => {
                let v = &evaluated[index].value;
                // Components the slot does not keep (a FLOAT4 position's w, a FLOAT3
                // texture coordinate's z) are kept by a copy of the element in `attributes`.
                let components = e.decl_type().map_or(4, DeclType::components);
                let split = xyz_values
                    .get_mut(index)
                    .filter(|_| index < 64 && xyz_mask & (1 << index) != 0);
                let fill = |to: &mut Vec<[f32; 3]>| match split {
                    Some(from) => std::mem::swap(to, from),
                    None => {
                        to.clear();
                        to.extend(v.iter().map(|&p| xyz(p)));
                    }
                };
                let kept = match slot {
                    Slot::Position if !positions => {
                        positions = true;
                        fill(&mut mesh.positions);
                        3
                    }
                    Slot::Normal if !normals => {
                        normals = true;
                        fill(&mut mesh.normals);
                        3
                    }
                    Slot::Uv if !uvs => {
                        uvs = true;
                        mesh.uvs.clear();
                        mesh.uvs.extend(v.iter().map(|x| [x[0], x[1]]));
                        2
                    }
                    _ => 0,
                };
                if kept > 0 && components <= kept {
                    continue;
                }
                v.clone()
            }
            DeclMethod::CrossUv => {
                let c = input_channel(decl, e);
                let channel_normals = match normals_of {
                    Some(traded) if traded == c => &mut mesh.normals,
                    _ => &mut evaluated[c].normal,
                };
                // Whether any normal is degenerate, branch-free (so it vectorises); most
                // patches have none.
                let degenerate = channel_normals
                    .iter()
                    .fold(false, |any, n| any | n[0].is_nan());
                if degenerate && !fix_all(c, channel_normals) {
                    for (i, n) in channel_normals.iter_mut().enumerate() {
                        if n[0].is_nan() {
                            *n = fix_normal(c, i);
                        }
                    }
                }
                if matches!(slot, Slot::Normal) && !normals {
                    normals = true;
                    // Traded, not copied: the mesh's old array (a retired mesh keeps its
                    // length) goes to the channel, for the next grid of this size to
                    // overwrite without filling it first. Later elements reading this
                    // channel's normals find them in the mesh.
                    std::mem::swap(&mut mesh.normals, &mut evaluated[c].normal);
                    normals_of = Some(c);
                    continue;
                }
                let n = match normals_of {
                    Some(traded) if traded == c => &mesh.normals,
                    _ => &evaluated[c].normal,
                };
                n.iter().map(|n| [n[0], n[1], n[2], 0.0]).collect()
            }
            DeclMethod::PartialU => evaluated[input_channel(decl, e)].du.clone(),
            DeclMethod::PartialV => evaluated[input_channel(decl, e)].dv.clone(),
            DeclMethod::Uv => {
                if matches!(slot, Slot::Uv) && !uvs {
                    uvs = true;
                    uvs_are_points = true;
                    if !holds_points {
                        mesh.uvs.extend_from_slice(points);
                    }
                    continue;
                }
                points.iter().map(|p| [p[0], p[1], 0.0, 1.0]).collect()
            }
            DeclMethod::Lookup | DeclMethod::LookupPresampled => continue,
        };
        mesh.attributes.push(Attribute {
            usage: e.usage,
            usage_index: e.usage_index,
            method: e.method,
            values,
        });
    }
    if !positions {
        mesh.positions.clear();
    }
    if !normals {
        mesh.normals.clear();
    }
    if !uvs {
        mesh.uvs.clear();
    }
    uvs_are_points
}

/// The channels (bit `c` for channel `c`) whose value [`assemble_into`] reads only as `x`, `y`
/// and `z`: a DEFAULT element of at most three components that fills the mesh's positions or
/// normals (the first to take its slot, as there; a later one is kept whole in `attributes`).
pub(super) fn xyz_only(decl: &[VertexElement]) -> u64 {
    let (mut positions, mut normals, mut mask) = (false, false, 0u64);
    for (index, e) in decl.iter().enumerate() {
        let taken = match slot(e) {
            Slot::Position => std::mem::replace(&mut positions, true),
            Slot::Normal => std::mem::replace(&mut normals, true),
            Slot::Uv | Slot::Attribute => continue,
        };
        let default = e.method == DeclMethod::Default as u8;
        if !taken && default && index < 64 && e.decl_type().map_or(4, DeclType::components) <= 3 {
            mask |= 1 << index;
        }
    }
    mask
}

/// Puts the mesh's positions and normals where the grid evaluation writes the channels of
/// `mask` ([`xyz_only`]) that fill them.
fn lend_xyz(decl: &[VertexElement], mask: u64, mesh: &mut Mesh, rows: &mut RectScratch) {
    for (index, e) in decl.iter().enumerate().take(64) {
        if mask & (1 << index) == 0 {
            continue;
        }
        let to = match slot(e) {
            Slot::Position => &mut mesh.positions,
            Slot::Normal => &mut mesh.normals,
            Slot::Uv | Slot::Attribute => continue,
        };
        let mut values = rows.take_xyz(index);
        std::mem::swap(&mut values, to);
        rows.put_xyz(index, values);
    }
}

/// Per channel: which derived quantities the generated elements of `decl` need.
pub(super) fn needs(decl: &[VertexElement]) -> Vec<Need> {
    let mut need = vec![Need::default(); decl.len()];
    needs_into(decl, &mut need);
    need
}

/// [`needs`] into `need` (one entry per element of `decl`, reset first).
pub(super) fn needs_into(decl: &[VertexElement], need: &mut [Need]) {
    need.fill(Need::default());
    for e in decl {
        match e.method() {
            Some(DeclMethod::CrossUv) => need[input_channel(decl, e)].normal = true,
            Some(DeclMethod::PartialU | DeclMethod::PartialV) => {
                need[input_channel(decl, e)].partials = true
            }
            _ => {}
        }
    }
}

/// Tessellates a rect patch over a domain into `mesh`, evaluating into `scratch`; both keep
/// their capacity from earlier draws. `holds_domain`: the mesh's triangle list and uvs
/// already are the domain's indices and points (a retired mesh refilled over the same
/// domain), so they are not written again. Returns whether the filled mesh holds them.
pub(super) fn tessellate_rect(
    ctx: &Ctx,
    data: &PatchData,
    d: &Domain,
    weights: Option<&GridWeights>,
    (scratch, rows): (&mut Vec<Evaluated>, &mut RectScratch),
    (mesh, holds_domain): (&mut Mesh, bool),
) -> Result<bool, ExecError> {
    let PatchShape::Rect { u, v, width, .. } = data.shape else {
        return Err(ctx.err(ExecErrorKind::KindMismatch {
            handle: 0,
            held: "tri",
            drawn: "rect",
        }));
    };
    // Short declarations (all real ones) keep the channel list and needs on the stack.
    const INLINE: usize = 8;
    let (mut inline_chans, mut inline_needs) = ([&[][..]; INLINE], [Need::default(); INLINE]);
    let (heap_chans, heap_needs);
    let (chans, need): (&[&[[f32; 4]]], &[Need]) = if data.decl.len() <= INLINE {
        let n = data.decl.len();
        for (slot, c) in inline_chans.iter_mut().zip(&data.channels) {
            *slot = c.as_slice();
        }
        needs_into(&data.decl, &mut inline_needs[..n]);
        (&inline_chans[..n], &inline_needs[..n])
    } else {
        heap_chans = data
            .channels
            .iter()
            .map(|c| c.as_slice())
            .collect::<Vec<_>>();
        heap_needs = needs(&data.decl);
        (&heap_chans, &heap_needs)
    };
    // Only a grid evaluation puts values aside as `x`, `y` and `z` alone.
    let xyz_mask = if d.grid.is_some() {
        xyz_only(&data.decl)
    } else {
        0
    };
    // The grid evaluates into the mesh's own positions and normals (a retired mesh keeps
    // their length, so they are overwritten without a fill); `assemble_into` trades them
    // back.
    lend_xyz(&data.decl, xyz_mask, mesh, rows);
    evaluate_rect_split(
        &u,
        &v,
        width as usize,
        chans,
        need,
        d,
        weights,
        scratch,
        rows,
        xyz_mask,
        true,
    );
    let fix = |c: usize, i: usize| {
        // At a degenerate point (a pole where a whole edge collapses), take the normal a
        // little way towards the patch centre (on a grid, with weights computed once).
        let n = match weights.and_then(|w| w.inward_normal(width as usize, chans[c], i)) {
            Some(n) => n,
            None => {
                let p = d.points[i];
                normal_at(&u, &v, width as usize, chans[c], inward(p[0]), inward(p[1]))
            }
        };
        if n[0].is_nan() {
            [0.0; 3]
        } else {
            n
        }
    };
    // On a grid, a row's degenerate normals four at a time where they can be.
    let fix_all = |c: usize, normals: &mut [[f32; 3]]| match (weights, chans.get(c), &d.grid) {
        (Some(gw), Some(ch), Some(_)) => gw.fix_degenerate_normals(width as usize, ch, normals),
        _ => false,
    };
    let uvs_are_points = assemble_into(
        &data.decl,
        (scratch, (rows.xyz_values(), xyz_mask)),
        &d.points,
        fix,
        fix_all,
        (mesh, holds_domain),
    );
    if !holds_domain {
        mesh.indices.extend_from_slice(&d.indices);
    }
    Ok(uvs_are_points)
}

pub(super) fn eval_tri_channels(
    degree: usize,
    data: &PatchData,
    needs: &[Need],
    points: &[[f32; 2]],
) -> Vec<Evaluated> {
    data.channels
        .iter()
        .zip(needs)
        .map(|(ch, &need)| {
            let mut e = Evaluated::default();
            if ch.is_empty() {
                return e;
            }
            for p in points {
                let (val, du, dv) = tri::evaluate(degree, ch, [1.0 - p[0] - p[1], p[0], p[1]]);
                e.push(need, val, du, dv);
            }
            e
        })
        .collect()
}

/// Tessellates a tri patch over a domain.
pub(super) fn tessellate_tri(data: &PatchData, d: &Domain) -> Mesh {
    let PatchShape::Tri { degree } = data.shape else {
        return Mesh::default();
    };
    let evaluated = eval_tri_channels(degree as usize, data, &needs(&data.decl), &d.points);
    let fix = |c: usize, i: usize| {
        let p = d.points[i];
        let q = [
            p[0] + (1.0 / 3.0 - p[0]) * 1e-3,
            p[1] + (1.0 / 3.0 - p[1]) * 1e-3,
        ];
        let (_, du, dv) = tri::evaluate(
            degree as usize,
            &data.channels[c],
            [1.0 - q[0] - q[1], q[0], q[1]],
        );
        normalize(cross(xyz(du), xyz(dv))).unwrap_or([0.0; 3])
    };
    let mut mesh = assemble(&data.decl, evaluated, &d.points, fix);
    mesh.indices = d.indices.clone();
    mesh
}

/// Copies the DEFAULT elements of the vertices in `order` into a mesh (no tessellation).
pub(super) fn assemble_plain(
    decl: &[VertexElement],
    channels: &[Vec<[f32; 4]>],
    order: &[usize],
) -> Mesh {
    let evaluated: Vec<Evaluated> = channels
        .iter()
        .map(|c| Evaluated {
            value: if c.is_empty() {
                Vec::new()
            } else {
                order.iter().map(|&i| c[i]).collect()
            },
            ..Evaluated::default()
        })
        .collect();
    let only_default: Vec<VertexElement> = decl
        .iter()
        .copied()
        .filter(|e| e.method() == Some(DeclMethod::Default))
        .collect();
    let evaluated: Vec<Evaluated> = decl
        .iter()
        .zip(evaluated)
        .filter(|(e, _)| e.method() == Some(DeclMethod::Default))
        .map(|(_, v)| v)
        .collect();
    assemble(&only_default, evaluated, &[], |_, _| [0.0; 3])
}

/// N-patches: every input triangle becomes a PN triangle tessellated over `d`. Positions are
/// cubic (or linear), NORMAL0 linear or quadratic, every other DEFAULT element linear.
pub(super) fn tessellate_npatches(
    decl: &[VertexElement],
    channels: &[Vec<[f32; 4]>],
    triangles: &[[usize; 3]],
    d: &Domain,
    cubic: bool,
    quadratic: bool,
) -> Mesh {
    let pos = position_channel(decl).expect("checked");
    let normal = decl.iter().position(|e| {
        e.usage == DeclUsage::Normal as u8
            && e.usage_index == 0
            && e.method() == Some(DeclMethod::Default)
    });
    let mut mesh = Mesh::default();
    let others: Vec<usize> = (0..decl.len())
        .filter(|&i| i != pos && Some(i) != normal && decl[i].method() == Some(DeclMethod::Default))
        .collect();
    let mut other_values: Vec<Vec<[f32; 4]>> = vec![Vec::new(); others.len()];
    for t in triangles {
        let p = t.map(|i| xyz(channels[pos][i]));
        let n = t.map(|i| normal.map_or([0.0; 3], |c| xyz(channels[c][i])));
        let pn = PnTriangle::new(p, n);
        let base = mesh.positions.len() as u32;
        for q in &d.points {
            let b = [1.0 - q[0] - q[1], q[0], q[1]];
            mesh.positions.push(pn.position(b, cubic));
            if normal.is_some() {
                mesh.normals.push(pn.normal(b, quadratic));
            }
            for (k, &c) in others.iter().enumerate() {
                let v = t.map(|i| channels[c][i]);
                let mut x = [0.0; 4];
                for m in 0..4 {
                    x[m] = b[0] * v[0][m] + b[1] * v[1][m] + b[2] * v[2][m];
                }
                other_values[k].push(x);
            }
        }
        mesh.indices.extend(d.indices.iter().map(|i| base + i));
    }
    for (k, &c) in others.iter().enumerate() {
        let e = &decl[c];
        let values = std::mem::take(&mut other_values[k]);
        if e.usage == DeclUsage::TexCoord as u8 && e.usage_index == 0 && mesh.uvs.is_empty() {
            mesh.uvs = values.iter().map(|v| [v[0], v[1]]).collect();
        } else {
            mesh.attributes.push(Attribute {
                usage: e.usage,
                usage_index: e.usage_index,
                method: e.method,
                values,
            });
        }
    }
    mesh
}
