//! Hostile streams: truncation, huge sizes, NaN and infinite segments, bad offsets and
//! strides, forbidden combinations. Each gives a clear error (or the documented clamp), and
//! memory stays bounded by the limits.
mod common;

use common::*;
use dxso_dp2::capture::CaptureErrorKind;
use dxso_dp2::command::{ParseErrorKind, TriPatchInfo};
use dxso_dp2::device::{rs, ExecErrorKind, RunError};
use dxso_dp2::surface::SurfaceError;
use dxso_dp2::{run, Capture, CaptureBuilder, Limits, Op};

fn base() -> CaptureBuilder {
    let pts: Vec<[f32; 3]> = (0..16)
        .map(|i| [(i % 4) as f32, (i / 4) as f32, 0.5])
        .collect();
    let mut b = CaptureBuilder::new();
    b.float_buffer(1, &floats(&pts));
    b.create_vertex_decl(1, &position_decl()).set_vertex_decl(1);
    b.set_stream_source(0, 1, 12);
    b
}

fn exec_kind(b: &CaptureBuilder) -> ExecErrorKind {
    match run(&b.finish(), Limits::default()) {
        Err(RunError::Exec(e)) => e.kind,
        other => panic!("expected an execution error, got {other:?}"),
    }
}

#[test]
fn every_truncation_of_a_valid_file_is_an_error_not_a_panic() {
    let mut b = base();
    b.render_state_f32(rs::PATCHSEGMENTS, 3.0);
    b.draw_rect_patch(4, Some([2.0; 4]), Some(rect_info(4, 4, 0, 3)));
    b.draw_tri_patch(
        0,
        None,
        Some(TriPatchInfo {
            start_vertex_offset: 0,
            num_vertices: 10,
            basis: 0,
            degree: 3,
        }),
    );
    let bytes = b.finish().to_bytes();
    assert!(run(&Capture::parse(&bytes).unwrap(), Limits::default()).is_ok());
    for len in 0..bytes.len() {
        assert!(
            Capture::parse(&bytes[..len]).is_err(),
            "prefix of {len} bytes parsed"
        );
    }
    // Truncating only the command buffer: every cut inside a record names the op and offset.
    let commands = b.finish().commands;
    let mut errors = 0;
    for len in 0..commands.len() {
        match dxso_dp2::parse(&commands[..len]) {
            Ok(_) => {}
            Err(e) => {
                assert!(matches!(e.kind, ParseErrorKind::Truncated { .. }), "{e}");
                assert!(e.offset <= len);
                errors += 1;
            }
        }
    }
    assert!(errors > commands.len() / 2);
}

#[test]
fn huge_declared_sizes_are_rejected_before_allocating() {
    // Buffer length 4 GiB - 1 in a 20-byte file.
    let mut f = b"DP2F".to_vec();
    for w in [1u32, 1, 9, u32::MAX] {
        f.extend(w.to_le_bytes());
    }
    assert!(matches!(
        Capture::parse(&f).unwrap_err().kind,
        CaptureErrorKind::Truncated { .. }
    ));
    // Command count 65535 of 24-byte records with nothing behind them.
    let e = dxso_dp2::parse(&[53, 0, 0xFF, 0xFF]).unwrap_err();
    assert_eq!(e.op, Some(Op::DrawIndexedPrimitive));
    assert!(matches!(
        e.kind,
        ParseErrorKind::Truncated {
            needed: 1_572_840,
            available: 0
        }
    ));
    // Shader constants claiming 4 billion registers.
    let mut c = vec![48u8, 0, 1, 0];
    c.extend(0u32.to_le_bytes());
    c.extend(u32::MAX.to_le_bytes());
    assert!(matches!(
        dxso_dp2::parse(&c).unwrap_err().kind,
        ParseErrorKind::Truncated { .. }
    ));
    // A declaration of 10,000 elements.
    let mut c = vec![71u8, 0, 1, 0];
    c.extend(1u32.to_le_bytes());
    c.extend(10_000u32.to_le_bytes());
    assert_eq!(
        dxso_dp2::parse(&c).unwrap_err().kind,
        ParseErrorKind::TooManyElements(10_000)
    );
}

#[test]
fn bad_shader_bytecode_names_the_command_and_offset() {
    let mut b = CaptureBuilder::new();
    b.render_state(7, 1);
    b.create_shader(
        Op::CreateVertexShaderFunc,
        3,
        &[0x01, 0x01, 0xFE, 0xFF, 0x42, 0x00, 0x00, 0x00],
    );
    let e = dxso_dp2::parse(&b.finish().commands).unwrap_err();
    assert_eq!(e.op, Some(Op::CreateVertexShaderFunc));
    assert_eq!(
        e.offset,
        12 + 4 + 8,
        "the bytecode starts after the header, handle and size"
    );
    assert!(
        matches!(
            e.kind,
            ParseErrorKind::Shader {
                bytecode_offset: 32,
                ..
            }
        ),
        "{e}"
    );
    // A valid one decodes and is kept.
    let mut b = CaptureBuilder::new();
    b.create_shader(
        Op::CreatePixelShader,
        3,
        &[0x00, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00],
    );
    let cmds = dxso_dp2::parse(&b.finish().commands).unwrap();
    let mut d = dxso_dp2::Device::new(Limits::default());
    d.execute(&cmds[0]).unwrap();
    assert_eq!(d.pixel_shader(3).unwrap().version.to_string(), "ps_2_0");
}

#[test]
fn invalid_shaders_are_refused_with_the_validator_report() {
    // ps_2_0: mov oC0, c40 (ps_2_0 has c0-c31).
    let words: [u32; 5] = [
        0xFFFF_0200,
        0x0200_0001,
        0x800F_0800,
        0xA0E4_0028,
        0x0000_FFFF,
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut b = CaptureBuilder::new();
    b.create_shader(Op::CreatePixelShader, 9, &bytes);
    let cmds = dxso_dp2::parse(&b.finish().commands).unwrap();
    let mut d = dxso_dp2::Device::new(Limits::default());
    let err = d.execute(&cmds[0]).unwrap_err();
    match &err.kind {
        ExecErrorKind::InvalidShader { handle, report } => {
            assert_eq!(*handle, 9);
            assert_eq!(report.rules(), vec![dxso::Rule::RegisterIndex]);
        }
        other => panic!("expected InvalidShader, got {other:?}"),
    }
    assert!(err.to_string().contains("V0204"), "{err}");
    assert!(d.pixel_shader(9).is_none(), "an invalid shader is not kept");
}

#[test]
fn nan_segments_are_errors() {
    let mut b = base();
    b.draw_rect_patch(
        0,
        Some([2.0, f32::NAN, 2.0, 2.0]),
        Some(rect_info(4, 4, 0, 3)),
    );
    assert_eq!(exec_kind(&b), ExecErrorKind::NanSegments);
    let mut b = base();
    b.render_state_f32(rs::PATCHSEGMENTS, f32::NAN);
    b.draw_rect_patch(0, None, Some(rect_info(4, 4, 0, 3)));
    assert_eq!(exec_kind(&b), ExecErrorKind::NanSegments);
}

#[test]
fn infinite_negative_and_huge_segments_are_clamped() {
    for (segs, expected) in [
        ([f32::INFINITY; 4], 256u32),
        ([-5.0; 4], 1),
        ([0.0; 4], 1),
        ([1e30; 4], 256),
        ([f32::NEG_INFINITY; 4], 1),
    ] {
        let mut b = base();
        b.draw_rect_patch(0, Some(segs), Some(rect_info(4, 4, 0, 3)));
        let d = run(&b.finish(), Limits::default()).unwrap();
        assert_eq!(d[0].segments, vec![expected; 4], "{segs:?}");
    }
    // Continuous clamps to the largest odd count.
    let mut b = base();
    b.render_state(rs::PATCHEDGESTYLE, 1);
    b.draw_rect_patch(0, Some([f32::INFINITY; 4]), Some(rect_info(4, 4, 0, 3)));
    assert_eq!(
        run(&b.finish(), Limits::default()).unwrap()[0].segments,
        vec![255; 4]
    );
}

#[test]
fn output_caps_hold() {
    let limits = Limits::small();
    // N-patches: many triangles times many segments.
    let pts: Vec<[f32; 3]> = (0..3000).map(|i| [i as f32, (i % 7) as f32, 0.0]).collect();
    let mut b = CaptureBuilder::new();
    b.float_buffer(1, &floats(&pts));
    b.create_vertex_decl(1, &position_decl()[..1])
        .set_vertex_decl(1);
    b.set_stream_source(0, 1, 12);
    b.render_state_f32(rs::PATCHSEGMENTS, 1e9);
    b.draw_primitive(Op::DrawPrimitive, 4, 0, 1000);
    match run(&b.finish(), limits) {
        Err(RunError::Exec(e)) => assert!(
            matches!(e.kind, ExecErrorKind::TooManyVertices { .. }),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    // Many draws: the run total is capped.
    let mut b = base();
    b.render_state_f32(rs::PATCHSEGMENTS, 32.0);
    for _ in 0..200 {
        b.draw_rect_patch(0, None, Some(rect_info(4, 4, 0, 3)));
    }
    match run(&b.finish(), limits) {
        Err(RunError::Exec(e)) => {
            assert!(matches!(e.kind, ExecErrorKind::TotalTooLarge { .. }), "{e}")
        }
        other => panic!("{other:?}"),
    }
    // Primitive counts.
    let mut b = base();
    b.draw_primitive(Op::DrawPrimitive, 4, 0, u32::MAX);
    assert!(matches!(
        exec_kind(&b),
        ExecErrorKind::TooManyPrimitives { .. }
    ));
}

#[test]
fn offsets_outside_a_stream_are_errors() {
    let mut b = base();
    let mut info = rect_info(4, 4, 0, 3);
    info.start_vertex_offset_height = 1;
    b.draw_rect_patch(0, None, Some(info));
    assert!(matches!(
        exec_kind(&b),
        ExecErrorKind::OutOfBounds {
            stream: 0,
            vertex: 16,
            start: 192,
            end: 204,
            len: 192
        }
    ));
    // Offsets that would overflow 32 bits.
    let mut b = base();
    let mut info = rect_info(4, 4, 0, 3);
    info.start_vertex_offset_width = u32::MAX;
    info.stride = u32::MAX;
    b.draw_rect_patch(5, None, Some(info));
    assert!(matches!(exec_kind(&b), ExecErrorKind::OutOfBounds { .. }));
    // Row offset and row stride both at the DWORD maximum: the vertex index times the stream
    // stride passes 2^64 (a fuzzer find; now an OutOfBounds, not an overflow).
    let mut b = base();
    let mut info = rect_info(4, 4, 0, 3);
    info.start_vertex_offset_height = u32::MAX;
    info.stride = u32::MAX;
    b.draw_rect_patch(5, None, Some(info));
    assert!(matches!(exec_kind(&b), ExecErrorKind::OutOfBounds { .. }));
    // SETSTREAMSOURCE2 with a byte offset past the buffer.
    let mut b = base();
    b.set_stream_source2(0, 1, 1 << 30, 12);
    b.draw_rect_patch(0, None, Some(rect_info(4, 4, 0, 3)));
    assert!(matches!(exec_kind(&b), ExecErrorKind::OutOfBounds { .. }));
    // A buffer the capture does not hold, a stream that does not exist.
    let mut b = base();
    b.set_stream_source(0, 99, 12);
    b.draw_rect_patch(0, None, Some(rect_info(4, 4, 0, 3)));
    assert_eq!(exec_kind(&b), ExecErrorKind::NoSuchBuffer(99));
    let mut b = base();
    b.set_stream_source(16, 1, 12);
    assert_eq!(exec_kind(&b), ExecErrorKind::NoSuchStream(16));
}

#[test]
fn strides_too_small_are_errors() {
    for stride in [0, 4, 11] {
        let mut b = base();
        b.set_stream_source(0, 1, stride);
        b.draw_rect_patch(0, None, Some(rect_info(4, 4, 0, 3)));
        assert_eq!(
            exec_kind(&b),
            ExecErrorKind::StrideTooSmall {
                stream: 0,
                stride,
                needed: 12
            }
        );
    }
}

#[test]
fn forbidden_degree_and_basis_combinations_are_errors() {
    let cases: [(u32, u32, u32, u32); 7] = [
        (0, 4, 5, 5), // Bezier has no degree 4
        (0, 3, 5, 4), // Bezier width must be 3k+1
        (1, 3, 3, 4), // B-spline needs width > degree
        (2, 2, 4, 4), // Catmull-Rom is cubic only
        (2, 3, 3, 4), // Catmull-Rom needs 4 points
        (0, 0, 4, 4), // degree 0
        (1, 6, 8, 8), // degree 6
    ];
    for (basis, degree, w, h) in cases {
        let mut b = base();
        b.draw_rect_patch(0, None, Some(rect_info(w, h, basis, degree)));
        let k = exec_kind(&b);
        assert!(
            matches!(
                k,
                ExecErrorKind::Surface(
                    SurfaceError::BadDegree { .. } | SurfaceError::BadSize { .. }
                )
            ),
            "{basis} {degree}: {k}"
        );
    }
    let mut b = base();
    b.draw_rect_patch(0, None, Some(rect_info(4, 4, 3, 3)));
    assert_eq!(exec_kind(&b), ExecErrorKind::BadBasis(3));
    let mut b = base();
    b.draw_rect_patch(0, None, Some(rect_info(100_000, 4, 0, 3)));
    assert!(matches!(exec_kind(&b), ExecErrorKind::GridTooLarge { .. }));
    for (basis, degree, n) in [(1, 3, 10), (0, 2, 6), (0, 3, 9)] {
        let mut b = base();
        b.draw_tri_patch(
            0,
            None,
            Some(TriPatchInfo {
                start_vertex_offset: 0,
                num_vertices: n,
                basis,
                degree,
            }),
        );
        assert!(matches!(exec_kind(&b), ExecErrorKind::BadTriPatch { .. }));
    }
}

#[test]
fn missing_state_is_an_error() {
    let mut b = CaptureBuilder::new();
    b.draw_rect_patch(0, None, Some(rect_info(4, 4, 0, 3)));
    assert_eq!(exec_kind(&b), ExecErrorKind::NoDecl);
    let mut b = base();
    b.set_vertex_decl(77);
    assert_eq!(exec_kind(&b), ExecErrorKind::NoSuchDecl(77));
    let mut b = base();
    b.render_state(rs::PATCHEDGESTYLE, 9);
    b.draw_rect_patch(0, None, Some(rect_info(4, 4, 0, 3)));
    assert_eq!(exec_kind(&b), ExecErrorKind::BadEdgeStyle(9));
}

proptest::proptest! {
    #[test]
    fn random_command_buffers_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512)) {
        let mut c = base().finish();
        c.commands.extend_from_slice(&bytes);
        let _ = run(&c, Limits::small());
    }
}
