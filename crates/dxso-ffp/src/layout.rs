//! Where the generated shaders read their constants: the registers [`crate::constants`] fills
//! and the generators address.

/// Vertex shader: the projection matrix, transposed (`c0`..`c3`, one column per register).
pub const VS_PROJECTION: u16 = 0;
/// Vertex shader: pre-transformed vertices' scale (2 / width, -2 / height, 1 / depth range).
pub const VS_VIEWPORT_SCALE: u16 = 4;
/// Vertex shader: pre-transformed vertices' offset.
pub const VS_VIEWPORT_OFFSET: u16 = 5;
/// Vertex shader: AMBIENT (the global ambient colour).
pub const VS_AMBIENT: u16 = 6;
/// Vertex shader: material diffuse, ambient, specular, emissive (`c7`..`c10`).
pub const VS_MATERIAL: u16 = 7;
/// Vertex shader: material power in x.
pub const VS_POWER: u16 = 11;
/// Vertex shader: fog start, end, density, 1 / (end - start).
pub const VS_FOG: u16 = 12;
/// Vertex shader: POINTSIZE, POINTSIZE_MIN, POINTSIZE_MAX, viewport height.
pub const VS_POINT: u16 = 13;
/// Vertex shader: POINTSCALE_A, B, C.
pub const VS_POINT_SCALE: u16 = 14;
/// Vertex shader: the first light; each has [`VS_LIGHT_SIZE`] registers: diffuse, specular,
/// ambient, camera-space position, camera-space direction to the light (directional) or the
/// spot direction (spot), (range, falloff, cos(theta / 2), 1 / (cos(theta / 2) - cos(phi / 2))),
/// (attenuation 0, 1, 2, cos(phi / 2)).
pub const VS_LIGHTS: u16 = 16;
/// Registers per light.
pub const VS_LIGHT_SIZE: u16 = 7;
/// Vertex shader: texture matrices of stages 0..7, transposed, four registers each.
pub const VS_TEXTURE_MATRICES: u16 = 72;
/// Vertex shader: per blend matrix i, the world-view matrix (transposed) at `8 i` and the
/// inverse transpose of its upper 3x3 (transposed) at `8 i + 4`.
pub const VS_BLEND_MATRICES: u16 = 104;
/// Registers per blend matrix.
pub const VS_BLEND_SIZE: u16 = 8;
/// Vertex shader: literal constants (`def`).
pub const VS_LITERALS: u16 = 240;

/// Pixel shader: each stage's CONSTANT (`c0`..`c7`).
pub const PS_STAGE_CONSTANT: u16 = 0;
/// Pixel shader: TEXTUREFACTOR.
pub const PS_TFACTOR: u16 = 8;
/// Pixel shader: FOGCOLOR.
pub const PS_FOG_COLOR: u16 = 9;
/// Pixel shader: fog start, end, density, 1 / (end - start).
pub const PS_FOG: u16 = 10;
/// Pixel shader: each stage's bump matrix (00, 01, 10, 11), `c11`..`c18`.
pub const PS_BUMP_MATRIX: u16 = 11;
/// Pixel shader: each stage's luminance scale and offset, `c19`..`c26`.
pub const PS_BUMP_LUMINANCE: u16 = 19;
/// Pixel shader: literal constants (`def`).
pub const PS_LITERALS: u16 = 30;
