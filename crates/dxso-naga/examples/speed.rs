fn main() {
    let dir = dxso_corpus::corpus_dir().unwrap();
    let shaders: Vec<dxso::Shader> = dxso_corpus::entries(&dir)
        .iter()
        .filter_map(|e| dxso::decode(&e.bytes()).ok())
        .filter(|s| dxso::validate(s).is_valid())
        .collect();
    let t0 = std::time::Instant::now();
    let mut n = 0;
    let mut bytes = 0;
    for _ in 0..1 {
        for s in &shaders {
            let t = dxso_naga::translate(s, &Default::default()).unwrap();
            let g = t
                .write(dxso_naga::Target::Glsl, &Default::default())
                .unwrap();
            bytes += g.text().unwrap().len();
            n += 1;
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{n} shaders in {dt:.3}s = {:.0}/s ({bytes} bytes)",
        n as f64 / dt
    );
    let mut exprs = 0usize;
    for s in &shaders {
        let t = dxso_naga::translate(s, &Default::default()).unwrap();
        exprs += t.module.entry_points[0].function.expressions.len();
    }
    println!(
        "mean expressions {:.1}",
        exprs as f64 / shaders.len() as f64
    );
}
