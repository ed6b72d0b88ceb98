//! Any bytes as a `.dp2` file, as a bare command buffer, or (when the input starts with `{`)
//! as a JSON description of a capture: parsing, building and running return `Ok` or `Err`,
//! never panic, and stay within the small limits' memory.

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    if data.first() == Some(&b'{') {
        let text = String::from_utf8_lossy(data);
        if let Ok(capture) = dxso_dp2::describe::build(&text) {
            let _ = dxso_dp2::describe::describe(&capture);
            let _ = dxso_dp2::run(&capture, dxso_dp2::Limits::small());
        }
        return;
    }
    // As a whole file, and as a bare command buffer over no buffers.
    if let Ok(capture) = dxso_dp2::Capture::parse(data) {
        let _ = dxso_dp2::describe::describe(&capture);
        let _ = dxso_dp2::run(&capture, dxso_dp2::Limits::small());
    }
    let bare = dxso_dp2::Capture {
        buffers: Vec::new(),
        commands: data.to_vec(),
    };
    if let Ok(draws) = dxso_dp2::run(&bare, dxso_dp2::Limits::small()) {
        for d in &draws {
            assert_eq!(d.mesh.indices.len() % 3, 0);
            assert!(d
                .mesh
                .indices
                .iter()
                .all(|&i| (i as usize) < d.mesh.positions.len()));
        }
    }
}
