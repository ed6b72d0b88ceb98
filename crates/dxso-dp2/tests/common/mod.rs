//! Helpers shared by the integration tests.
#![allow(dead_code)]

use dxso_dp2::command::RectPatchInfo;
use dxso_dp2::decl::{DeclMethod, DeclType, DeclUsage, VertexElement};
use dxso_dp2::mesh::Mesh;
use std::collections::HashMap;

pub fn element(
    offset: u16,
    ty: DeclType,
    method: DeclMethod,
    usage: DeclUsage,
    usage_index: u8,
) -> VertexElement {
    VertexElement {
        stream: 0,
        offset,
        ty: ty as u8,
        method: method as u8,
        usage: usage as u8,
        usage_index,
    }
}

/// POSITION0 FLOAT3 from the stream, NORMAL0 by CROSSUV, TEXCOORD0 by UV.
pub fn position_decl() -> Vec<VertexElement> {
    vec![
        element(
            0,
            DeclType::Float3,
            DeclMethod::Default,
            DeclUsage::Position,
            0,
        ),
        element(
            0,
            DeclType::Float3,
            DeclMethod::CrossUv,
            DeclUsage::Normal,
            0,
        ),
        element(0, DeclType::Float2, DeclMethod::Uv, DeclUsage::TexCoord, 0),
    ]
}

pub fn floats(points: &[[f32; 3]]) -> Vec<f32> {
    points.iter().flatten().copied().collect()
}

pub fn rect_info(width: u32, height: u32, basis: u32, degree: u32) -> RectPatchInfo {
    RectPatchInfo {
        start_vertex_offset_width: 0,
        start_vertex_offset_height: 0,
        width,
        height,
        stride: width,
        basis,
        degree,
    }
}

/// How many triangles use each edge (a pair of vertex indices).
pub type EdgeCounts = HashMap<(u32, u32), usize>;

/// Undirected edge -> number of triangles using it, and directed edge counts.
pub fn edge_use(indices: &[u32]) -> (EdgeCounts, EdgeCounts) {
    let mut undirected = HashMap::new();
    let mut directed = HashMap::new();
    for t in indices.chunks_exact(3) {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            *undirected.entry((a.min(b), a.max(b))).or_default() += 1;
            *directed.entry((a, b)).or_default() += 1;
        }
    }
    (undirected, directed)
}

/// Welds vertices whose positions agree to 1e-4 and returns the remapped triangle list.
pub fn weld(meshes: &[&Mesh]) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut ids: HashMap<[i64; 3], u32> = HashMap::new();
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    for m in meshes {
        let map: Vec<u32> = m
            .positions
            .iter()
            .map(|p| {
                let key = p.map(|x| (x as f64 * 1e4).round() as i64);
                *ids.entry(key).or_insert_with(|| {
                    positions.push(*p);
                    positions.len() as u32 - 1
                })
            })
            .collect();
        for t in m.indices.chunks_exact(3) {
            let t = [map[t[0] as usize], map[t[1] as usize], map[t[2] as usize]];
            if t[0] != t[1] && t[1] != t[2] && t[0] != t[2] {
                indices.extend_from_slice(&t);
            }
        }
    }
    (positions, indices)
}

pub fn close(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= tol * (1.0 + b[k].abs()))
}
