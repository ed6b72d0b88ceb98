//! Tessellated output: triangle meshes with the evaluated elements, and Wavefront OBJ.

use std::io::{self, Write};

/// An evaluated element that is not position, normal or first texture coordinate.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// `D3DDECLUSAGE`.
    pub usage: u8,
    /// The usage index.
    pub usage_index: u8,
    /// `D3DDECLMETHOD` that produced it.
    pub method: u8,
    /// One value per vertex.
    pub values: Vec<[f32; 4]>,
}

/// A triangle mesh (counter-clockwise around the normal).
///
/// POSITION0 goes to `positions`, NORMAL0 to `normals`, TEXCOORD0 to `uvs`; an element whose
/// type carries more components than its slot keeps (a FLOAT4 POSITION0, a FLOAT3 TEXCOORD0)
/// is also in `attributes` with all four, so [`Mesh::attribute`] finds it whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Positions.
    pub positions: Vec<[f32; 3]>,
    /// Normals (empty when the declaration has none).
    pub normals: Vec<[f32; 3]>,
    /// First texture coordinate (empty when the declaration has none).
    pub uvs: Vec<[f32; 2]>,
    /// Every other element, in declaration order.
    pub attributes: Vec<Attribute>,
    /// Triangle list.
    pub indices: Vec<u32>,
}

impl Mesh {
    /// Vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// Empties the mesh, keeping the capacity of its arrays for the next one.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.normals.clear();
        self.uvs.clear();
        self.attributes.clear();
        self.indices.clear();
    }

    /// Triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// The attribute with `usage` and `usage_index`.
    pub fn attribute(&self, usage: u8, usage_index: u8) -> Option<&Attribute> {
        self.attributes
            .iter()
            .find(|a| a.usage == usage && a.usage_index == usage_index)
    }
}

/// Writes meshes as one OBJ file, one `o` group each (positions, normals and texcoords where
/// present; indices are 1-based and global).
pub fn write_obj<'a>(
    out: &mut impl Write,
    meshes: impl IntoIterator<Item = (String, &'a Mesh)>,
) -> io::Result<()> {
    writeln!(out, "# written by dxso-dp2")?;
    let (mut v0, mut n0, mut t0) = (1usize, 1usize, 1usize);
    for (name, m) in meshes {
        writeln!(out, "o {name}")?;
        for p in &m.positions {
            writeln!(out, "v {} {} {}", p[0], p[1], p[2])?;
        }
        for n in &m.normals {
            writeln!(out, "vn {} {} {}", n[0], n[1], n[2])?;
        }
        for t in &m.uvs {
            writeln!(out, "vt {} {}", t[0], t[1])?;
        }
        let has_n = !m.normals.is_empty();
        let has_t = !m.uvs.is_empty();
        for tri in m.indices.chunks_exact(3) {
            write!(out, "f")?;
            for &i in tri {
                let i = i as usize;
                match (has_t, has_n) {
                    (true, true) => write!(out, " {}/{}/{}", v0 + i, t0 + i, n0 + i)?,
                    (true, false) => write!(out, " {}/{}", v0 + i, t0 + i)?,
                    (false, true) => write!(out, " {}//{}", v0 + i, n0 + i)?,
                    (false, false) => write!(out, " {}", v0 + i)?,
                }
            }
            writeln!(out)?;
        }
        v0 += m.positions.len();
        n0 += m.normals.len();
        t0 += m.uvs.len();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obj_indices_are_global() {
        let m = Mesh {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            indices: vec![0, 1, 2],
            ..Mesh::default()
        };
        let mut out = Vec::new();
        write_obj(&mut out, [("a".to_string(), &m), ("b".to_string(), &m)]).unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(s.contains("o b\n"));
        assert!(s.ends_with("f 4 5 6\n"), "{s}");
    }
}
