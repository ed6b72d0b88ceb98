fn main() {
    let dir = dxso_corpus::corpus_dir().unwrap();
    let blobs: Vec<Vec<u8>> = dxso_corpus::entries(&dir)
        .iter()
        .map(|e| e.bytes())
        .filter(|b| {
            dxso::decode(b)
                .map(|s| dxso::validate(&s).is_valid())
                .unwrap_or(false)
        })
        .collect();
    let t0 = std::time::Instant::now();
    let (mut ok, mut bytes) = (0, 0);
    for b in &blobs {
        let o = dxso_peer::mojoshader::parse("glsl", b);
        if o.error.is_none() {
            ok += 1
        }
        bytes += o.output.len();
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{} shaders ({ok} ok) in {dt:.3}s = {:.0}/s, {bytes} bytes",
        blobs.len(),
        blobs.len() as f64 / dt
    );
}
