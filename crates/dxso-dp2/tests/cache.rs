//! The patch-handle cache, case by case as Microsoft's `D3DHAL_DP2DRAWRECTPATCH` page lays it out.
mod common;

use common::*;
use dxso_dp2::command::{Command, TriPatchInfo};
use dxso_dp2::device::{rs, ExecErrorKind};
use dxso_dp2::{parse, CacheAction, CaptureBuilder, Device, DrawReport, Limits};

const GRID: u32 = 1;

/// A 4x4 bicubic patch whose heights scale with `lift`.
fn grid(lift: f32) -> Vec<f32> {
    let pts: Vec<[f32; 3]> = (0..16)
        .map(|i| [(i % 4) as f32, (i / 4) as f32, lift * ((i * 5 % 7) as f32)])
        .collect();
    floats(&pts)
}

/// A device with the declaration and stream 0 on buffer GRID set up.
fn device() -> Device {
    let mut b = CaptureBuilder::new();
    b.float_buffer(GRID, &grid(1.0));
    b.create_vertex_decl(1, &position_decl()).set_vertex_decl(1);
    b.set_stream_source(0, GRID, 12);
    b.render_state_f32(rs::PATCHSEGMENTS, 3.0);
    let c = b.finish();
    let mut d = Device::new(Limits::default());
    d.load_buffers(&c);
    exec(&mut d, &c.commands).unwrap();
    d
}

fn exec(d: &mut Device, commands: &[u8]) -> Result<Vec<DrawReport>, dxso_dp2::ExecError> {
    let mut out = Vec::new();
    for c in parse(commands).unwrap() {
        out.extend(d.execute(&c)?);
    }
    Ok(out)
}

fn rect(
    d: &mut Device,
    handle: u32,
    segments: Option<[f32; 4]>,
    info: bool,
) -> Result<DrawReport, dxso_dp2::ExecError> {
    let mut b = CaptureBuilder::new();
    b.draw_rect_patch(handle, segments, info.then(|| rect_info(4, 4, 0, 3)));
    exec(d, &b.finish().commands).map(|mut v| v.remove(0))
}

fn tri(d: &mut Device, handle: u32, info: bool) -> Result<DrawReport, dxso_dp2::ExecError> {
    let mut b = CaptureBuilder::new();
    b.draw_tri_patch(
        handle,
        None,
        info.then_some(TriPatchInfo {
            start_vertex_offset: 0,
            num_vertices: 10,
            basis: 0,
            degree: 3,
        }),
    );
    exec(d, &b.finish().commands).map(|mut v| v.remove(0))
}

fn state(d: &mut Device, s: u32, v: u32) {
    let mut b = CaptureBuilder::new();
    b.render_state(s, v);
    exec(d, &b.finish().commands).unwrap();
}

#[test]
fn case_1_handle_zero_is_dynamic_and_caches_nothing() {
    let mut d = device();
    let r = rect(&mut d, 0, None, true).unwrap();
    assert_eq!(r.cache, Some(CacheAction::Dynamic));
    assert_eq!(
        (r.vertices(), r.triangles(), r.segments.clone()),
        (16, 18, vec![3; 4])
    );
    assert_eq!(d.cached_patch_count(), 0);
}

#[test]
fn handle_zero_without_info_is_ignored() {
    let mut d = device();
    let r = rect(&mut d, 0, Some([4.0; 4]), false).unwrap();
    assert_eq!(r.cache, Some(CacheAction::Ignored));
    assert_eq!(r.vertices(), 0);
    assert_eq!(d.cached_patch_count(), 0);
}

#[test]
fn case_2_new_handle_with_info_is_created() {
    let mut d = device();
    let r = rect(&mut d, 7, None, true).unwrap();
    assert_eq!(r.cache, Some(CacheAction::Created));
    assert_eq!(r.vertices(), 16);
    assert_eq!(d.cached_patch_count(), 1);
}

#[test]
fn case_2_new_handle_without_info_is_ignored_and_allocates_nothing() {
    let mut d = device();
    let r = rect(&mut d, 7, Some([5.0; 4]), false).unwrap();
    assert_eq!(r.cache, Some(CacheAction::Ignored));
    assert_eq!(r.vertices(), 0);
    assert_eq!(d.cached_patch_count(), 0);
    assert!(d.cached_patch(7).is_none());
}

#[test]
fn case_3_known_handle_with_info_is_updated() {
    let mut d = device();
    let first = rect(&mut d, 7, None, true).unwrap();
    d.set_buffer(
        GRID,
        grid(2.0).iter().flat_map(|f| f.to_le_bytes()).collect(),
    );
    let second = rect(&mut d, 7, None, true).unwrap();
    assert_eq!(second.cache, Some(CacheAction::Updated));
    assert_ne!(
        first.mesh.positions, second.mesh.positions,
        "re-captured from the new stream data"
    );
    let third = rect(&mut d, 7, None, false).unwrap();
    assert_eq!(third.mesh, second.mesh, "the cache holds the update");
    assert_eq!(d.cached_patch_count(), 1);
}

#[test]
fn case_4_known_handle_without_info_draws_from_the_cache() {
    let mut d = device();
    let created = rect(&mut d, 7, None, true).unwrap();
    // Unbind every stream: a cached draw must not need them.
    let mut b = CaptureBuilder::new();
    b.set_stream_source(0, 0, 0);
    exec(&mut d, &b.finish().commands).unwrap();
    let cached = rect(&mut d, 7, None, false).unwrap();
    assert_eq!(cached.cache, Some(CacheAction::Cached));
    assert_eq!(cached.mesh, created.mesh);
    // HASSEGS still overrides the segments of a cached draw.
    let resegmented = rect(&mut d, 7, Some([6.0; 4]), false).unwrap();
    assert_eq!(resegmented.cache, Some(CacheAction::Cached));
    assert_eq!(
        (resegmented.segments.clone(), resegmented.vertices()),
        (vec![6; 4], 49)
    );
    // And PATCHSEGMENTS applies when HASSEGS is absent.
    state(&mut d, rs::PATCHSEGMENTS, 2.0f32.to_bits());
    assert_eq!(rect(&mut d, 7, None, false).unwrap().vertices(), 9);
}

#[test]
fn capture_is_independent_of_later_stream_changes() {
    let mut d = device();
    let created = rect(&mut d, 7, None, true).unwrap();
    // Same handle'd buffer, new bytes: the cache kept a copy.
    d.set_buffer(
        GRID,
        grid(-3.0).iter().flat_map(|f| f.to_le_bytes()).collect(),
    );
    let cached = rect(&mut d, 7, None, false).unwrap();
    assert_eq!(cached.mesh, created.mesh);
    let dynamic = rect(&mut d, 0, None, true).unwrap();
    assert_ne!(
        dynamic.mesh.positions, created.mesh.positions,
        "the stream did change"
    );
    // New segments force a new tessellation, which must come from the captured points: it
    // equals a dynamic draw of the original grid, not of the changed buffer.
    let retessellated = rect(&mut d, 7, Some([5.0; 4]), false).unwrap();
    assert_eq!(retessellated.cache, Some(CacheAction::Cached));
    let mut original = device();
    let reference = rect(&mut original, 0, Some([5.0; 4]), true).unwrap();
    assert_eq!(retessellated.mesh.positions, reference.mesh.positions);
    let changed = rect(&mut d, 0, Some([5.0; 4]), true).unwrap();
    assert_ne!(retessellated.mesh.positions, changed.mesh.positions);
}

#[test]
fn delete_frees_and_the_handle_can_be_reused() {
    let mut d = device();
    rect(&mut d, 7, None, true).unwrap();
    rect(&mut d, 8, None, true).unwrap();
    state(&mut d, rs::DELETERTPATCH, 7);
    assert_eq!(d.cached_patch_count(), 1);
    assert_eq!(
        rect(&mut d, 7, None, false).unwrap().cache,
        Some(CacheAction::Ignored)
    );
    assert_eq!(
        rect(&mut d, 8, None, false).unwrap().cache,
        Some(CacheAction::Cached)
    );
    assert_eq!(
        rect(&mut d, 7, None, true).unwrap().cache,
        Some(CacheAction::Created),
        "reuse after delete"
    );
    // Deleting an unknown handle is harmless.
    state(&mut d, rs::DELETERTPATCH, 12345);
    assert_eq!(d.cached_patch_count(), 2);
}

#[test]
fn any_dword_is_a_handle() {
    let mut d = device();
    for h in [1u32, 0x8000_0000, u32::MAX] {
        assert_eq!(
            rect(&mut d, h, None, true).unwrap().cache,
            Some(CacheAction::Created)
        );
        assert_eq!(
            rect(&mut d, h, None, false).unwrap().cache,
            Some(CacheAction::Cached)
        );
    }
    state(&mut d, rs::DELETERTPATCH, u32::MAX);
    assert_eq!(d.cached_patch_count(), 2);
}

#[test]
fn rect_and_tri_patches_share_the_namespace() {
    let mut d = device();
    assert_eq!(
        rect(&mut d, 5, None, true).unwrap().cache,
        Some(CacheAction::Created)
    );
    // A tri patch with the same handle replaces it: an update, not a creation.
    let t = tri(&mut d, 5, true).unwrap();
    assert_eq!(t.cache, Some(CacheAction::Updated));
    assert_eq!(d.cached_patch_count(), 1);
    assert_eq!(
        tri(&mut d, 5, false).unwrap().cache,
        Some(CacheAction::Cached)
    );
    // The rect op cannot draw the tri patch now held under 5.
    let e = rect(&mut d, 5, None, false).unwrap_err();
    assert!(
        matches!(
            e.kind,
            ExecErrorKind::KindMismatch {
                handle: 5,
                held: "tri",
                drawn: "rect"
            }
        ),
        "{e}"
    );
    // One delete frees it whichever kind it is.
    state(&mut d, rs::DELETERTPATCH, 5);
    assert_eq!(
        tri(&mut d, 5, false).unwrap().cache,
        Some(CacheAction::Ignored)
    );
    assert_eq!(
        rect(&mut d, 5, None, false).unwrap().cache,
        Some(CacheAction::Ignored)
    );
}

#[test]
fn commands_carry_offsets() {
    let mut b = CaptureBuilder::new();
    b.render_state(rs::PATCHSEGMENTS, 4.0f32.to_bits());
    b.draw_rect_patch(3, Some([1.0; 4]), None);
    let cmds: Vec<Command> = parse(&b.finish().commands).unwrap();
    assert_eq!(
        cmds.iter().map(|c| c.offset).collect::<Vec<_>>(),
        vec![0, 12]
    );
}

#[test]
fn cached_redraw_with_same_segments_shares_the_tessellation() {
    let mut d = device();
    let created = rect(&mut d, 7, None, true).unwrap();
    let cached = rect(&mut d, 7, None, false).unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&created.mesh, &cached.mesh),
        "same segments: reused"
    );
    let other = rect(&mut d, 7, Some([5.0; 4]), false).unwrap();
    assert!(
        !std::sync::Arc::ptr_eq(&cached.mesh, &other.mesh),
        "new segments: re-tessellated from the cached points"
    );
    // An update forgets the old tessellation; a delete forgets it too.
    let updated = rect(&mut d, 7, Some([5.0; 4]), true).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&other.mesh, &updated.mesh));
    state(&mut d, rs::DELETERTPATCH, 7);
    let recreated = rect(&mut d, 7, Some([5.0; 4]), true).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&updated.mesh, &recreated.mesh));
    assert_eq!(updated.mesh, recreated.mesh);
}
